// Geometric functions and bit manipulation on vectors, plus shuffle/shuffle2.
kernel void geometric_bitops(global float4 *p, global float3 *n,
                             global uint8 *bits, global uint4 *sh) {
  size_t i = get_global_id(0);
  float4 a = p[i];
  float3 b = vload3(i, (global float *)n);
  float3 c = cross(b, (float3)(1.f, 0.f, 0.f));
  vstore3(normalize(c) * distance(a.xyz, c) + (float3)(dot(a, a)), i,
          (global float *)n);
  p[i] = fast_normalize(a) * length(b);
  uint8 v = bits[i];
  bits[i] = (v & ~(uint8)(0xFF)) | (v << 3) | (v >> (uint8)(29)) |
            popcount(v) | clz(v) | rotate(v, (uint8)(7));
  uint4 s = sh[i];
  sh[i] = shuffle(s, (uint4)(3, 2, 1, 0)) + shuffle2(s, s.wzyx, (uint4)(0, 5, 2, 7));
}
