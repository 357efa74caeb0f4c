#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint SCALE = 1;
layout(std430, set = 0, binding = 0) readonly buffer In { float data[]; } src;
layout(std430, set = 0, binding = 1) buffer Out { uint count; float sums[]; } dst;
layout(push_constant) uniform PC { uint n; float bias; } pc;
shared float tile[gl_WorkGroupSize.x];
void main() {
  uint gid = gl_GlobalInvocationID.x;
  uint lid = gl_LocalInvocationID.x;
  tile[lid] = gid < pc.n ? src.data[gid] : 0.0;
  barrier();
  for (uint s = gl_WorkGroupSize.x / 2; s > 0; s >>= 1) {
    if (lid < s) tile[lid] += tile[lid + s];
    barrier();
  }
  if (lid == 0) {
    dst.sums[gl_WorkGroupID.x] = tile[0] * float(SCALE) + pc.bias;
    atomicAdd(dst.count, 1u);
  }
}
