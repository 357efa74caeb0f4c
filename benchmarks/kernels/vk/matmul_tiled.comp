#version 450
// C = A B for n x n row-major matrices, 16 x 16 tiles of A and B staged in shared memory.
layout(local_size_x = 16, local_size_y = 16) in;
const uint TILE = 16;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform PC { uint n; } pc;
shared float tile_a[TILE][TILE];
shared float tile_b[TILE][TILE];

void main() {
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  uint col = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y;
  uint n = pc.n;
  float acc = 0.0;
  for (uint t = 0; t < n; t += TILE) {
    tile_a[ty][tx] = (row < n && t + tx < n) ? a[row * n + t + tx] : 0.0;
    tile_b[ty][tx] = (t + ty < n && col < n) ? b[(t + ty) * n + col] : 0.0;
    barrier();
    for (uint k = 0; k < TILE; k++) acc += tile_a[ty][k] * tile_b[k][tx];
    barrier();
  }
  if (row < n && col < n) c[row * n + col] = acc;
}
