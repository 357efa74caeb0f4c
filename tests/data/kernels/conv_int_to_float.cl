// int/uint/long/ulong -> float with the default rounding (rte) and each of
// _rtz/_rtp/_rtn, plus C casts; inputs include values that float cannot
// represent exactly.
__kernel void conv_int_to_float(__global const int *si, __global const uint *ui,
                                __global const long *sl, __global const ulong *ul,
                                __global float *o) {
  int i = get_global_id(0);
  int x = si[i];
  uint u = ui[i];
  long l = sl[i];
  ulong m = ul[i];
  o[17 * i + 0] = convert_float(x);
  o[17 * i + 1] = convert_float_rtz(x);
  o[17 * i + 2] = convert_float_rtp(x);
  o[17 * i + 3] = convert_float_rtn(x);
  o[17 * i + 4] = convert_float(u);
  o[17 * i + 5] = convert_float_rtz(u);
  o[17 * i + 6] = convert_float_rtp(u);
  o[17 * i + 7] = convert_float_rtn(u);
  o[17 * i + 8] = convert_float(l);
  o[17 * i + 9] = convert_float_rtz(l);
  o[17 * i + 10] = convert_float_rtp(l);
  o[17 * i + 11] = convert_float_rtn(l);
  o[17 * i + 12] = convert_float_rte(m);
  o[17 * i + 13] = convert_float_rtz(m);
  o[17 * i + 14] = convert_float_rtp(m);
  o[17 * i + 15] = convert_float_rtn(m);
  o[17 * i + 16] = (float)x + (float)(short)x + (float)(uchar)u;
}

// Small types and vectors to float.
__kernel void conv_small_int_to_float(__global const char *c, __global const ushort *s,
                                      __global const int4 *v, __global float *o,
                                      __global float4 *ov) {
  int i = get_global_id(0);
  o[2 * i] = convert_float(c[i]);
  o[2 * i + 1] = convert_float_rtp(s[i]) * 0.5f;
  ov[i] = convert_float4_rtn(v[i]);
}
