// Vector conversions: convert_float4(int4), convert_int8_sat_rte(float8),
// convert_uchar16_sat(int16), convert_short2(float2) and convert_double... not here.
__kernel void vec_convert(__global const int4 *i4, __global const float8 *f8,
                          __global const int16 *i16, __global const float2 *f2,
                          __global float4 *o_f4, __global int8 *o_i8,
                          __global uchar16 *o_u16, __global short2 *o_s2,
                          __global char3 *o_c3) {
  int i = get_global_id(0);
  o_f4[i] = convert_float4(i4[i]);
  o_i8[i] = convert_int8_sat_rte(f8[i]);
  o_u16[i] = convert_uchar16_sat(i16[i]);
  o_s2[i] = convert_short2_rtz(f2[i]);
  o_c3[i] = convert_char3(i4[i].xyz);
}
