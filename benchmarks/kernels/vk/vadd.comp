#version 450
// c = a + b, one float per invocation: a memory-bound stream.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform PC { uint n; } pc;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < pc.n) c[i] = a[i] + b[i];
}
