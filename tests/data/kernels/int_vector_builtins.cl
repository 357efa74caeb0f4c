// Integer built-ins on vectors: min/max/clamp/abs/add_sat/mad24/mul24/mul_hi/
// hadd on int4, uchar8 and short16.
__kernel void int_vector_builtins(__global const int4 *a, __global const int4 *b,
                                  __global const uchar8 *c,
                                  __global const short16 *s,
                                  __global int4 *oi, __global uint4 *ou,
                                  __global uchar8 *oc, __global short16 *os) {
  int i = get_global_id(0);
  int4 x = a[i], y = b[i];
  oi[4 * i + 0] = min(x, y) + max(x, (int4)(3));
  oi[4 * i + 1] = clamp(x, (int4)(-50), (y & (int4)(0xffff)) - (int4)(50));
  oi[4 * i + 2] = mad24(x >> (int4)(16), y >> (int4)(17), x) - mul24(x & (int4)(0x7fff), y >> (int4)(17));
  oi[4 * i + 3] = mul_hi(x, y) ^ hadd(x, y);
  ou[i] = abs(x) + convert_uint4(add_sat(x, y) == (int4)(INT_MAX));
  uchar8 u = c[i];
  oc[i] = add_sat(u, u.s76543210) - sub_sat(u, (uchar8)(100));
  short16 h = s[i];
  os[i] = hadd(h, h.sfedcba9876543210) + max(h, (short16)(-7)) + sub_sat(h, (short16)(30000));
}
