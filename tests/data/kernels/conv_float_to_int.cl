// float -> integer.  In-range inputs only for the non-saturating forms (their
// out-of-range behaviour is undefined): default (rtz), _rte (ties to even),
// _rtp, _rtn.  The _sat forms get NaN (-> 0), +-inf, huge values, -0.0 and
// halfway cases.
__kernel void conv_float_to_int(__global const float *f, __global int *oi,
                                __global uint *ou, __global short *os,
                                __global long *ol, __global uchar *oc) {
  int i = get_global_id(0);
  float x = f[i];                 // |x| < 30000
  oi[5 * i + 0] = convert_int(x);
  oi[5 * i + 1] = convert_int_rte(x);
  oi[5 * i + 2] = convert_int_rtp(x);
  oi[5 * i + 3] = convert_int_rtn(x);
  oi[5 * i + 4] = (int)x;
  ou[2 * i] = convert_uint_rte(fabs(x));
  ou[2 * i + 1] = (uint)fabs(x);
  os[i] = convert_short_rtn(x);
  ol[2 * i] = convert_long_rtp(x * 1000.0f);
  ol[2 * i + 1] = convert_long_rte(x);
  oc[i] = convert_uchar_rtz(fabs(x) * 0.008f);
}

__kernel void conv_float_to_int_sat(__global const float *f, __global int *oi,
                                    __global uint *ou, __global char *oc,
                                    __global uchar *ouc, __global short *os,
                                    __global ushort *ous, __global long *ol,
                                    __global ulong *oul) {
  int i = get_global_id(0);
  float x = f[i];
  oi[4 * i + 0] = convert_int_sat(x);
  oi[4 * i + 1] = convert_int_sat_rte(x);
  oi[4 * i + 2] = convert_int_sat_rtp(x);
  oi[4 * i + 3] = convert_int_sat_rtn(x);
  ou[2 * i] = convert_uint_sat(x);
  ou[2 * i + 1] = convert_uint_sat_rte(x);
  oc[2 * i] = convert_char_sat_rte(x);
  oc[2 * i + 1] = convert_char_sat_rtn(x);
  ouc[i] = convert_uchar_sat_rtp(x);
  os[i] = convert_short_sat_rtn(x);
  ous[i] = convert_ushort_sat_rtz(x);
  ol[2 * i] = convert_long_sat(x);
  ol[2 * i + 1] = convert_long_sat_rte(x);
  oul[i] = convert_ulong_sat_rtp(x);
}
