// Integer edge cases: INT_MIN, overflow wrap, shifts masked to the width,
// unsigned/signed division and remainder by negative numbers, saturating
// and high-half builtins, bit counting.
kernel void int_edge(global int *out, global const int *in) {
  size_t i = get_global_id(0);
  int a = in[i];
  int b = in[i + 1];
  out[0] = INT_MIN / (b | 1);
  out[1] = (a == INT_MIN && b == -1) ? INT_MIN : a / b;
  out[2] = a % -7;
  out[3] = -a % 7;
  out[4] = a << 33;        // shift count masked to 1 in OpenCL C
  out[5] = a >> 31;
  out[6] = (int)((uint)a >> 31);
  out[7] = add_sat(a, INT_MAX);
  out[8] = sub_sat(a, INT_MIN);
  out[9] = mul_hi(a, b);
  out[10] = mad_hi(a, b, 3);
  out[11] = mad_sat(a, b, INT_MAX);
  out[12] = clz(a);
  out[13] = ctz(a);
  out[14] = popcount(a);
  out[15] = rotate(a, b);
  out[16] = hadd(a, b);
  out[17] = rhadd(a, b);
  out[18] = abs_diff(a, b);
  out[19] = abs(a);
  out[20] = mul24(a & 0x7fffff, b & 0x7fffff);
  out[21] = mad24(a & 0x7fffff, 3, b);
  out[22] = clamp(a, -100, 100);
  out[23] = max(a, b) - min(a, b);
  long l = upsample(a, (uint)b);
  out[24] = (int)(l >> 17);
  uchar uc = (uchar)a;
  out[25] = (uchar)(uc + 200);
  short s = (short)b;
  out[26] = (short)(s * s);
  ulong ul = (ulong)a * (ulong)b;
  out[27] = (int)(ul >> 40);
  out[28] = (a < 0) != (b < 0);
}
