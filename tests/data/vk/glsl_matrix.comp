#version 450
// GLSL.std.450 Determinant and MatrixInverse of 2x2, 3x3, 4x4 float and 3x3 double matrices,
// one matrix of each per invocation (tests/vk/test_glsl_matrix.py).
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) readonly buffer In { mat2 m2[8]; mat3 m3[8]; mat4 m4[8]; dmat3 d3[8]; };
layout(std430, set = 0, binding = 1) buffer Out {
    float det2[8]; float det3[8]; float det4[8]; double ddet3[8];
    mat2 i2[8]; mat3 i3[8]; mat4 i4[8]; dmat3 di3[8];
};
void main() {
    uint i = gl_GlobalInvocationID.x;
    det2[i] = determinant(m2[i]);
    det3[i] = determinant(m3[i]);
    det4[i] = determinant(m4[i]);
    ddet3[i] = determinant(d3[i]);
    i2[i] = inverse(m2[i]);
    i3[i] = inverse(m3[i]);
    i4[i] = inverse(m4[i]);
    di3[i] = inverse(d3[i]);
}
