// target-env: vulkan1.2
// Explicit-width arithmetic types: 8/16-bit storage and arithmetic, 64-bit
// integers and doubles, int64 atomics.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer S {
  int8_t  i8[32];
  uint8_t u8[32];
  float16_t h[16];
  i16vec2 s2[8];
  int64_t l[4];
  uint64_t counter;
  double d[4];
  f16vec4 hv[4];
} s;
void main() {
  uint i = gl_GlobalInvocationID.x;
  int8_t a = s.i8[i];
  uint8_t b = s.u8[i];
  s.i8[i] = int8_t(a * int8_t(-3) + int8_t(b));
  s.u8[i] = uint8_t(b >> 1u) | uint8_t(0x80);
  float16_t x = s.h[i & 15u];
  s.h[i & 15u] = x * float16_t(0.5) + float16_t(-2.0);
  i16vec2 v = s.s2[i & 7u];
  s.s2[i & 7u] = v.yx * int16_t(-7);
  int64_t big = s.l[i & 3u] * int64_t(-1) + 0x7FFFFFFFFFFFFFFFl;
  s.l[i & 3u] = big >> 3;
  atomicAdd(s.counter, uint64_t(1ul));
  atomicMax(s.l[0], big);
  double dd = s.d[i & 3u];
  s.d[i & 3u] = fma(dd, 3.0lf, -1e-300lf) + double(x) + packDouble2x32(uvec2(i, 1u));
  f16vec4 hv = s.hv[i & 3u];
  s.hv[i & 3u] = hv * float16_t(2.0) + f16vec4(float16_t(a));
}
