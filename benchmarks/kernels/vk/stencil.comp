#version 450
// One Jacobi step of a 5-point stencil on a w x h row-major grid, edges clamped.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer Src { float src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst { float dst[]; };
layout(push_constant) uniform PC { uint w; uint h; } pc;

void main() {
  uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
  if (x >= pc.w || y >= pc.h) return;
  uint xl = x > 0 ? x - 1 : x, xr = min(x + 1, pc.w - 1);
  uint yu = y > 0 ? y - 1 : y, yd = min(y + 1, pc.h - 1);
  float around = src[y * pc.w + xl] + src[y * pc.w + xr] + src[yu * pc.w + x] + src[yd * pc.w + x];
  dst[y * pc.w + x] = 0.5 * src[y * pc.w + x] + 0.125 * around;
}
