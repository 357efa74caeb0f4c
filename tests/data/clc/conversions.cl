// Explicit conversions with saturation and rounding modes, reinterpreting
// casts (as_type) and implicit promotions.
kernel void conversions(global const float *f, global const int *n,
                        global uchar *uc, global char *sc, global short4 *s4,
                        global int *ri, global uint *ru, global float *rf,
                        global long *rl) {
  size_t i = get_global_id(0);
  float x = f[i];
  int k = n[i];
  uc[i] = convert_uchar_sat(x);
  sc[i] = convert_char_sat_rte(x);
  s4[i] = convert_short4_sat_rtn((float4)(x, -x, x * 1000.f, -1e9f));
  ri[4 * i + 0] = convert_int_rte(x);
  ri[4 * i + 1] = convert_int_rtz(x);
  ri[4 * i + 2] = convert_int_rtp(x);
  ri[4 * i + 3] = convert_int_sat_rtn(x);
  ru[i] = convert_uint_sat(k) + as_uint(x);
  rf[2 * i] = convert_float_rtz(k) + convert_float(convert_uint(k));
  rf[2 * i + 1] = as_float(k ^ 0x80000000);
  rl[i] = convert_long_sat(x * 1e12f) + (long)k + convert_long((uchar)k);
}

kernel void vec_conversions(global const float4 *f4, global uchar4 *u4,
                            global int8 *i8, global double2 *d2) {
  size_t i = get_global_id(0);
  float4 v = f4[i];
  u4[i] = convert_uchar4_sat_rte(v * 255.0f);
  i8[i] = convert_int8_rtz((float8)(v, -v));
  d2[i] = convert_double2(v.xy) + as_double2(convert_long2(v.zw));
}
