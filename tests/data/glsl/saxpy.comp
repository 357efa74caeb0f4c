// target-env: vulkan1.0
// SAXPY over std430 SSBOs with a push-constant parameter block.
#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform PC { float a; uint n; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < pc.n)
    y[i] = pc.a * x[i] + y[i];
}
