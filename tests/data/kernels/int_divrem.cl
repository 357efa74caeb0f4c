// Signed/unsigned division and remainder with negative operands (C rounds
// toward zero; the remainder takes the dividend's sign); char/short/long.
// Inputs never divide by zero nor compute INT_MIN / -1.  Quotients and
// remainders are separate kernels: with both in one function LLVM rewrites
// x % y as x - (x / y) * y behind `freeze`, which llvm-spirv-15 cannot
// translate.
__kernel void int_div(__global const int *a, __global const int *b,
                      __global int *q, __global uint *uq, __global long *lq,
                      __global short *sq, __global char *cq) {
  int i = get_global_id(0);
  int x = a[i], y = b[i];
  q[i] = x / y;
  uq[i] = (uint)x / (uint)y;
  lq[2 * i] = ((long)x * 977L) / (long)y;
  lq[2 * i + 1] = as_long((ulong)as_uint(x) * 0x10001ul) / (long)(y | 1);
  sq[i] = (short)x / (short)(y | 1);
  cq[i] = (char)x / (char)((y & 0x3f) | 1);
}

__kernel void int_rem(__global const int *a, __global const int *b,
                      __global int *r, __global uint *ur, __global long *lr,
                      __global short *sr, __global char *cr) {
  int i = get_global_id(0);
  int x = a[i], y = b[i];
  r[i] = x % y;
  ur[i] = (uint)x % (uint)y;
  lr[2 * i] = ((long)x * 977L) % (long)y;
  lr[2 * i + 1] = as_long((ulong)as_uint(x) * 0x10001ul) % (long)(y | 1);
  sr[i] = (short)x % (short)(y | 1);
  cr[i] = (char)x % (char)((y & 0x3f) | 1);
}
