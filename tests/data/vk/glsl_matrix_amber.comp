#version 450
// The SPIR-V of this shader (glslangValidator -V --target-env vulkan1.0, disassembled without
// OpName/OpSource lines) is inlined in tests/vk/test_glsl_matrix.py's AMBER_MATRICES.
layout(local_size_x = 2) in;
layout(std430, set = 0, binding = 0) readonly buffer In { mat3 m[]; };
layout(std430, set = 0, binding = 1) buffer Det { float det[]; };
layout(std430, set = 0, binding = 2) buffer Inv { mat3 inv[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    det[i] = determinant(m[i]);
    inv[i] = inverse(m[i]);
}
