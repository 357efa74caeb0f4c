// Integer built-ins: abs (incl. abs(INT_MIN) == 0x80000000u), min, max,
// clamp, mul_hi, mad24, mul24, hadd on several types.
__kernel void int_builtins_int(__global const int *a, __global const int *b,
                               __global uint *ab, __global int *o) {
  int i = get_global_id(0);
  int x = a[i], y = b[i];
  ab[i] = abs(x);
  o[8 * i + 0] = min(x, y);
  o[8 * i + 1] = max(x, y);
  o[8 * i + 2] = clamp(x, -1000, 1000);
  o[8 * i + 3] = mul_hi(x, y);
  o[8 * i + 4] = as_int(mul_hi((uint)x, (uint)y));
  o[8 * i + 5] = mad24(x >> 16, y >> 17, x);          // 24-bit operands, product fits 32 bits
  o[8 * i + 6] = mul24(x & 0x7fff, y >> 17);
  o[8 * i + 7] = hadd(x, y);
}

__kernel void int_builtins_mixed(__global const long *l, __global const uchar *u,
                                 __global const short *s,
                                 __global long *ol, __global ulong *oul,
                                 __global uchar *ou, __global short *os) {
  int i = get_global_id(0);
  long x = l[i], y = l[(i + 7) & 63];
  ol[4 * i + 0] = mul_hi(x, y);
  ol[4 * i + 1] = min(x, y) - max(x, -y);
  ol[4 * i + 2] = hadd(x, y);
  ol[4 * i + 3] = clamp(x, -5L - (y & 0xff), 5L + (y & 0xff));
  oul[2 * i] = mul_hi((ulong)x, (ulong)y);
  oul[2 * i + 1] = abs(x);
  uchar p = u[i], q = u[(i + 3) & 63];
  ou[3 * i + 0] = hadd(p, q);
  ou[3 * i + 1] = min(p, q);
  ou[3 * i + 2] = mul_hi(p, q);
  short h = s[i], k = s[(i + 5) & 63];
  os[3 * i + 0] = max(h, k);
  os[3 * i + 1] = hadd(h, k);
  os[3 * i + 2] = as_short(abs(h));
}
