// half <-> float / double / int conversions with each rounding mode.
// With cl_khr_fp16 (clang's SPIR target) this uses half arithmetic types
// directly; a device without cl_khr_fp16 (PoCL's CPU device) runs the
// equivalent vload_half/vstore_half_rtX path, which is exactly the same
// conversion (half -> float is exact; float -> half rounds once).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif

__kernel void conv_half(__global const float *f, __global const half *h,
                        __global const double *d, __global const int *n,
                        __global half *oh, __global float *of,
                        __global double *od, __global int *oi) {
  int i = get_global_id(0);
  float x = f[i];
  double y = d[i];
  int k = n[i];                   // |k| < 2^24 (exact in float)
#ifdef cl_khr_fp16
  oh[10 * i + 0] = convert_half(x);
  oh[10 * i + 1] = convert_half_rtz(x);
  oh[10 * i + 2] = convert_half_rtp(x);
  oh[10 * i + 3] = convert_half_rtn(x);
  oh[10 * i + 4] = convert_half_rte(y);
  oh[10 * i + 5] = convert_half_rtz(y);
  oh[10 * i + 6] = convert_half_rtp(y);
  oh[10 * i + 7] = convert_half_rtn(y);
  oh[10 * i + 8] = convert_half_rtz(k);
  oh[10 * i + 9] = (half)x;
  half z = h[i];
  of[i] = convert_float(z);
  od[i] = (double)z;
  oi[2 * i] = convert_int_sat_rte(z);
  oi[2 * i + 1] = convert_short_sat(z);
#else
  vstore_half_rte(x, 10 * i + 0, oh);
  vstore_half_rtz(x, 10 * i + 1, oh);
  vstore_half_rtp(x, 10 * i + 2, oh);
  vstore_half_rtn(x, 10 * i + 3, oh);
  vstore_half_rte(y, 10 * i + 4, oh);
  vstore_half_rtz(y, 10 * i + 5, oh);
  vstore_half_rtp(y, 10 * i + 6, oh);
  vstore_half_rtn(y, 10 * i + 7, oh);
  vstore_half_rtz((float)k, 10 * i + 8, oh);
  vstore_half_rte(x, 10 * i + 9, oh);
  float z = vload_half(i, h);
  of[i] = z;
  od[i] = (double)z;
  oi[2 * i] = convert_int_sat_rte(z);
  oi[2 * i + 1] = convert_short_sat(z);
#endif
}
