#version 450
// out[i] = 2 * in[i]: the shader of files_asm.amber (read from a VIRTUAL_FILE).
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; } src;
layout(set = 0, binding = 1) buffer Out { uint v[]; } dst;
void main() { dst.v[gl_GlobalInvocationID.x] = 2u * src.v[gl_GlobalInvocationID.x]; }
