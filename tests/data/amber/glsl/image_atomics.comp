#version 450
// Image atomics (OpImageTexelPointer): add, min, max, exchange and compare-exchange on r32ui / r32i
// storage images, one of them in an array (tests/vk/test_vk_images.py).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D hist;
layout(set = 0, binding = 1, r32i) uniform iimage1D mins[2];
layout(push_constant) uniform P { int shift; } pc;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  uint old = imageAtomicAdd(hist, ivec2(p.x % 3 + pc.shift, 0), 1u);
  imageAtomicMin(mins[1], p.y % 2, -p.x - 10 * p.y);
  imageAtomicMax(mins[0], 0, int(old));
  imageAtomicExchange(hist, ivec2(0, 1), 7u);
  imageAtomicCompSwap(hist, ivec2(1, 1), 0u, 5u);
}
