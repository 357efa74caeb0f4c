// Integer <-> integer conversions: narrowing with and without _sat,
// signed <-> unsigned (with _sat clamping), widening sign/zero extension,
// and as_type reinterpretation.
__kernel void conv_narrowing(__global const int *a, __global const long *l,
                             __global char *oc, __global uchar *ouc,
                             __global short *os, __global ushort *ous,
                             __global int *oi, __global uint *ou,
                             __global long *ol, __global ulong *oul) {
  int i = get_global_id(0);
  int x = a[i];
  long y = l[i];
  oc[2 * i] = convert_char(x);
  oc[2 * i + 1] = convert_char_sat(x);
  ouc[2 * i] = convert_uchar(x);
  ouc[2 * i + 1] = convert_uchar_sat(x);
  os[2 * i] = convert_short(x);
  os[2 * i + 1] = convert_short_sat(x);
  ous[2 * i] = convert_ushort(x);
  ous[2 * i + 1] = convert_ushort_sat(x);
  oi[3 * i + 0] = convert_int(y);
  oi[3 * i + 1] = convert_int_sat(y);
  oi[3 * i + 2] = convert_int_sat((uint)x);          // > INT_MAX -> INT_MAX
  ou[3 * i + 0] = convert_uint_sat(x);               // negative -> 0
  ou[3 * i + 1] = convert_uint_sat(y);
  ou[3 * i + 2] = convert_uint(y);
  ol[2 * i] = convert_long_sat((ulong)y);
  ol[2 * i + 1] = convert_long((char)x) + convert_long((uchar)x);
  oul[2 * i] = convert_ulong_sat(y);
  oul[2 * i + 1] = convert_ulong(x);                 // sign-extends
}

__kernel void conv_narrowing_vec(__global const short8 *s, __global const uint4 *u,
                                 __global char8 *oc, __global uchar8 *ouc,
                                 __global int4 *oi, __global char4 *ochar,
                                 __global ushort4 *ous) {
  int i = get_global_id(0);
  short8 v = s[i];
  uint4 w = u[i];
  oc[i] = convert_char8_sat(v);
  ouc[i] = convert_uchar8(v);
  oi[i] = convert_int4_sat(w);
  ochar[i] = as_char4(w.x) + convert_char4(w);
  ous[i] = convert_ushort4_sat(w) ^ as_ushort4(w.yz);
}
