// target-env: vulkan1.0
// GLSL.std.450 built-ins: trig/exp/common/geometric/matrix/packing/integer.
#version 450
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer B {
  vec4 v[];
} b;
layout(std430, binding = 1) buffer I { ivec4 iv[]; };
layout(std430, binding = 2) buffer U { uvec4 uv[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 x = b.v[i];
  vec4 r = sin(x) + cos(x) + tan(x) + asin(x * 0.5) + acos(x * 0.5) + atan(x) +
           atan(x, x + 1.0) + sinh(x) + cosh(x) + tanh(x) + asinh(x) +
           acosh(x + 2.0) + atanh(x * 0.5) + radians(x) + degrees(x) +
           pow(abs(x), vec4(2.0)) + exp(x) + log(abs(x) + 1.0) + exp2(x) +
           log2(abs(x) + 1.0) + sqrt(abs(x)) + inversesqrt(abs(x) + 1.0) +
           abs(x) + sign(x) + floor(x) + ceil(x) + fract(x) + trunc(x) +
           round(x) + roundEven(x) + mod(x, 3.0) + min(x, 1.0) + max(x, 0.0) +
           clamp(x, -1.0, 1.0) + mix(x, x.wzyx, 0.5) + step(0.5, x) +
           smoothstep(0.0, 1.0, x) + fma(x, x, x) + ldexp(x, ivec4(2));
  vec4 ip;
  r += modf(x, ip) + ip;
  ivec4 e;
  r += frexp(x, e);
  r += vec4(length(x.xyz), distance(x, r), dot(x, r), 0.0);
  r.xyz += cross(x.xyz, r.xyz) + normalize(x.xyz) + reflect(x.xyz, normalize(r.xyz)) +
           refract(x.xyz, normalize(r.xyz), 0.9) + faceforward(x.xyz, r.xyz, x.xyz);
  mat3 m = mat3(x.xyz, r.xyz, x.zyx);
  r.x += determinant(m) + inverse(m)[0][0] + transpose(m)[1][2] + outerProduct(x.xyz, r.xyz)[2][2];
  uint p = packUnorm4x8(x) ^ packSnorm4x8(x) ^ packUnorm2x16(x.xy) ^ packSnorm2x16(x.zw) ^ packHalf2x16(x.xy);
  r += unpackUnorm4x8(p) + unpackSnorm4x8(p) + vec4(unpackHalf2x16(p), unpackUnorm2x16(p));
  b.v[i] = r + vec4(isnan(r)) + vec4(isinf(x));
  ivec4 a = iv[i];
  uvec4 u = uv[i];
  iv[i] = findLSB(a) + findMSB(a) + bitCount(a) + bitfieldReverse(a) +
          bitfieldExtract(a, 3, 5) + bitfieldInsert(a, a.wzyx, 4, 8) + abs(a) + sign(a);
  uvec4 carry, borrow, hi, lo;
  uvec4 s = uaddCarry(u, u.yzwx, carry) + usubBorrow(u, u.yzwx, borrow);
  umulExtended(u, u, hi, lo);
  ivec4 shi, slo;
  imulExtended(a, a, shi, slo);
  uv[i] = s + carry + borrow + hi + lo + uvec4(shi ^ slo) + floatBitsToUint(r) + findMSB(u);
}
