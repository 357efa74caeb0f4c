// double conversions: float <-> double with rounding modes, double -> int
// (_sat with NaN/inf/huge; plain only in range), long/ulong -> double with
// rounding modes.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void conv_double(__global const double *d, __global const float *f,
                          __global const long *l, __global float *of,
                          __global double *od, __global int *oi,
                          __global long *ol) {
  int i = get_global_id(0);
  double x = d[i];
  float y = f[i];
  long z = l[i];
  of[4 * i + 0] = convert_float(x);
  of[4 * i + 1] = convert_float_rtz(x);
  of[4 * i + 2] = convert_float_rtp(x);
  of[4 * i + 3] = convert_float_rtn(x);
  od[5 * i + 0] = convert_double(y);
  od[5 * i + 1] = convert_double(z);
  od[5 * i + 2] = convert_double_rtz(z);
  od[5 * i + 3] = convert_double_rtp((ulong)z);
  od[5 * i + 4] = convert_double_rtn(z) + (double)(int)z;
  oi[3 * i + 0] = convert_int_sat(x);
  oi[3 * i + 1] = convert_int_sat_rte(x);
  oi[3 * i + 2] = convert_int_rtn(y);                // |y| < 1e6
  ol[2 * i] = convert_long_sat_rtp(x);
  ol[2 * i + 1] = convert_long_rte((double)y * 1024.0);
}
