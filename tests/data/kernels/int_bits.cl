// Bit built-ins and operators: clz, popcount, rotate (count taken mod width)
// on uchar/short/int/uint/long; ~ & | ^; a vector rotate.
__kernel void int_bits(__global const uint *a, __global const int *n,
                       __global uint *o, __global uchar *oc,
                       __global short *os, __global ulong *ol,
                       __global uint4 *ov) {
  int i = get_global_id(0);
  uint x = a[i];
  int k = n[i];
  o[6 * i + 0] = clz(x);
  o[6 * i + 1] = popcount(x);
  o[6 * i + 2] = rotate(x, (uint)k);
  o[6 * i + 3] = as_uint(rotate(as_int(x), -k));
  o[6 * i + 4] = ~x & (x | 0x0ff0u) ^ (x >> 3);
  o[6 * i + 5] = clz(x >> (k & 31)) + popcount(~x);
  uchar c = (uchar)x;
  oc[3 * i + 0] = clz(c);
  oc[3 * i + 1] = popcount(c);
  oc[3 * i + 2] = rotate(c, (uchar)k);
  short h = (short)(x >> 7);
  os[3 * i + 0] = clz(h);
  os[3 * i + 1] = popcount(h);
  os[3 * i + 2] = rotate(h, (short)k);
  ulong l = ((ulong)x << 29) ^ x;
  ol[3 * i + 0] = clz(l);
  ol[3 * i + 1] = popcount(l);
  ol[3 * i + 2] = rotate(l, (ulong)k);
  uint4 v = (uint4)(x, ~x, x * 3u, (uint)k);
  ov[i] = rotate(v, (uint4)(k, 1, 31, 64)) + clz(v) + popcount(v);
}
