#version 450
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer V { vec4 v[]; } vin;
layout(std430, set = 0, binding = 1) buffer F { vec4 f[]; } fout;
layout(std430, set = 0, binding = 2) buffer U { uint u[]; } uout;
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 a = vin.v[2 * i], n = vin.v[2 * i + 1];
  fout.f[6 * i + 0] = reflect(a, n);
  fout.f[6 * i + 1] = faceforward(n, a, a.wzyx);
  fout.f[6 * i + 2] = refract(a, normalize(n), 0.5);
  vec4 whole;
  fout.f[6 * i + 3] = modf(a * 3.3, whole);
  fout.f[6 * i + 4] = whole;
  ivec4 ex;
  fout.f[6 * i + 5] = frexp(a * 100.0, ex);
  uout.u[8 * i + 0] = packSnorm4x8(a);
  uout.u[8 * i + 1] = packUnorm4x8(n);
  uout.u[8 * i + 2] = packSnorm2x16(a.xy);
  uout.u[8 * i + 3] = packUnorm2x16(n.zw);
  uout.u[8 * i + 4] = packHalf2x16(a.zw);
  vec2 h = unpackHalf2x16(uout.u[8 * i + 4]);
  vec4 s = unpackSnorm4x8(uout.u[8 * i + 0]);
  vec2 un = unpackUnorm2x16(uout.u[8 * i + 3]);
  uout.u[8 * i + 5] = floatBitsToUint(h.x + s.y + un.x);
  uvec2 d = unpackDouble2x32(packDouble2x32(uvec2(i + 7, 0x40000000u)));
  uout.u[8 * i + 6] = d.x;
  uout.u[8 * i + 7] = d.y;
}
