#version 450
// Float atomics (SPV_EXT_shader_atomic_float_add, SPV_EXT_shader_atomic_float_min_max): add, min,
// max and exchange on 32- and 64-bit floats in a storage buffer and in shared memory
// (tests/vk/test_atomic_float.py).
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { float xs[]; };
layout(std430, set = 0, binding = 1) buffer Acc {
    float sum; float lo; float hi; float swapped;
    double dsum; double dlo; double dhi;
    float group_sum[]; // per work-group, from shared memory
};
shared float s_sum;
shared float s_lo;
shared double s_dmax;
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = xs[i];
    if (gl_LocalInvocationIndex == 0) { s_sum = 0.0; s_lo = 1.0e30; s_dmax = -1.0e300; }
    barrier();
    atomicAdd(sum, x);
    atomicMin(lo, x);
    atomicMax(hi, x);
    atomicExchange(swapped, x);
    atomicAdd(dsum, double(x));
    atomicMin(dlo, double(x));
    atomicMax(dhi, double(x));
    atomicAdd(s_sum, x);
    atomicMin(s_lo, x);
    atomicMax(s_dmax, double(x));
    barrier();
    if (gl_LocalInvocationIndex == 0) {
        group_sum[3 * gl_WorkGroupID.x] = s_sum;
        group_sum[3 * gl_WorkGroupID.x + 1] = s_lo;
        group_sum[3 * gl_WorkGroupID.x + 2] = float(s_dmax);
    }
}
