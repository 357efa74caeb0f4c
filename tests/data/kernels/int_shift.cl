// Shifts: OpenCL masks the shift count to the operand width (x << 33 on int
// is x << 1), arithmetic right shift of negatives, logical right shift of
// unsigned, for char/short/int/long and a vector.
__kernel void int_shift(__global const int *a, __global const int *n,
                        __global int *si, __global uint *su,
                        __global char *sc, __global short *ss,
                        __global long *sl, __global int4 *sv) {
  int i = get_global_id(0);
  int x = a[i];
  int k = n[i];                      // 0..127, often >= the width
  si[2 * i] = x << k;
  si[2 * i + 1] = x >> k;
  su[2 * i] = (uint)x << k;
  su[2 * i + 1] = (uint)x >> k;
  char c = (char)x;
  sc[2 * i] = c << (char)k;
  sc[2 * i + 1] = c >> (char)k;
  short h = (short)x;
  ss[2 * i] = h << (short)k;
  ss[2 * i + 1] = (short)((ushort)h >> (ushort)k);
  long l = as_long((ulong)(uint)x * 0x100000001UL);
  sl[2 * i] = l << k;
  sl[2 * i + 1] = l >> (long)k;
  int4 v = (int4)(x, -x, x ^ 0x55, k);
  sv[i] = v >> (int4)(k, k + 1, 33, 40) ^ (v << (int4)(31, 32, 64, k));
}
