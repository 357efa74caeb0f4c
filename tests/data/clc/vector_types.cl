// Vector types of every width (2, 3, 4, 8, 16) for several element types,
// swizzles, .lo/.hi/.odd/.even, vloadN/vstoreN and vector literals.
kernel void vec_char(global char2 *c2, global uchar3 *c3, global char4 *c4,
                     global uchar8 *c8, global char16 *c16) {
  size_t i = get_global_id(0);
  char2 a = c2[i];
  c2[i] = a.yx + (char2)(1, -1);
  uchar3 b = vload3(i, (global uchar *)c3);
  vstore3(b.zyx * (uchar)2, i, (global uchar *)c3);
  char4 d = c4[i];
  c4[i] = d.wzyx ^ (char4)(0x7f);
  uchar8 e = c8[i];
  c8[i] = (uchar8)(e.s7654, e.lo) + (uchar)3;
  char16 f = c16[i];
  c16[i] = f.sFEDCBA9876543210 - f;
}

kernel void vec_short_int(global short2 *s2, global ushort4 *s4,
                          global int3 *i3, global uint8 *i8, global int16 *i16) {
  size_t i = get_global_id(0);
  s2[i] = s2[i] * (short2)(-2, 3);
  s4[i] = rotate(s4[i], (ushort4)(1, 2, 3, 4));
  int3 v = i3[i];
  i3[i] = (int3)(v.z, v.x + v.y, -v.y);
  uint8 w = i8[i];
  i8[i] = (uint8)(w.even, w.odd) >> (uint8)(1);
  int16 x = i16[i];
  i16[i] = select(x, -x, x < (int16)0);
}

kernel void vec_long_float_double(global long4 *l4, global ulong16 *l16,
                                  global float2 *f2, global float3 *f3,
                                  global float8 *f8, global double4 *d4,
                                  global double16 *d16) {
  size_t i = get_global_id(0);
  l4[i] = l4[i] * (long4)(-1, 2, -3, 4);
  l16[i] = l16[i] + l16[i].s0;
  f2[i] = f2[i].yx * 0.5f;
  float3 p = vload3(i, (global float *)f3);
  vstore3(cross(p, (float3)(0.f, 0.f, 1.f)), i, (global float *)f3);
  float8 q = f8[i];
  f8[i] = (float8)(q.hi * q.lo.s0123, q.lo.xxyy);
  d4[i] = d4[i].wzyx * (double4)(1.0, 2.0, 3.0, 4.0);
  double16 r = d16[i];
  d16[i] = r + (double16)(r.s0);
}
