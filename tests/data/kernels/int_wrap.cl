// Integer overflow wraps: unsigned arithmetic mod 2^N, signed results built
// from unsigned arithmetic (signed overflow itself is UB), narrow-type wrap
// through truncation, long arithmetic.
__kernel void int_wrap(__global const uint *a, __global const uint *b,
                       __global uint *u, __global int *s,
                       __global const ulong *la, __global ulong *lu,
                       __global long *ls) {
  int i = get_global_id(0);
  uint x = a[i], y = b[i];
  u[4 * i + 0] = x + y;
  u[4 * i + 1] = x - y;
  u[4 * i + 2] = x * y;
  u[4 * i + 3] = -x;
  s[3 * i + 0] = as_int(x + y);               // INT_MAX + 1 -> INT_MIN
  s[3 * i + 1] = as_int(x * 0x10001u);
  s[3 * i + 2] = (int)(x << 16) >> 16;        // sign-extend the low half
  ulong p = la[i], q = la[i ^ 1];
  lu[3 * i + 0] = p + q;
  lu[3 * i + 1] = p * q;
  lu[3 * i + 2] = p - q;
  ls[2 * i] = as_long(p * 3ul);
  ls[2 * i + 1] = as_long(p) >> 7;
}
