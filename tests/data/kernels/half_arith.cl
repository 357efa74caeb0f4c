// half arithmetic (cl_khr_fp16): + - * / fma, negation, compares, sqrt, and
// a half4 kernel.  Every output is one correctly rounded half operation, so a
// device without cl_khr_fp16 (PoCL's CPU device) runs the same operation in
// float (fma in double) and rounds once with vstore_half_rte: identical
// results (float has >= 2*11+2 bits, so the double rounding is harmless).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif

__kernel void half_arith(__global const half *a, __global const half *b,
                         __global half *o, __global int *cmp) {
  int i = get_global_id(0);
#ifdef cl_khr_fp16
  half x = a[i], y = b[i];
  o[8 * i + 0] = x + y;
  o[8 * i + 1] = x - y;
  o[8 * i + 2] = x * y;
  o[8 * i + 3] = x / y;
  o[8 * i + 4] = fma(x, y, x);
  o[8 * i + 5] = -x;
  o[8 * i + 6] = sqrt(fabs(y));
  o[8 * i + 7] = fmax(x, y);
#else
  float x = vload_half(i, a), y = vload_half(i, b);
  vstore_half_rte(x + y, 8 * i + 0, o);
  vstore_half_rte(x - y, 8 * i + 1, o);
  vstore_half_rte(x * y, 8 * i + 2, o);
  vstore_half_rte(x / y, 8 * i + 3, o);
  vstore_half_rte((double)x * (double)y + (double)x, 8 * i + 4, o);
  vstore_half_rte(-x, 8 * i + 5, o);
  vstore_half_rte(sqrt(fabs(y)), 8 * i + 6, o);
  vstore_half_rte(fmax(x, y), 8 * i + 7, o);
#endif
  cmp[i] = (x < y) + 2 * (x == y) + 4 * (x != x) + 8 * (x >= y);
}

__kernel void half_vec(__global const half *a, __global const half *b,
                       __global half *o) {
  int i = get_global_id(0);
#ifdef cl_khr_fp16
  half4 x = ((__global const half4 *)a)[i], y = ((__global const half4 *)b)[i];
  half8 z = (half8)(x, y);
  __global half4 *o4 = (__global half4 *)o;
  o4[3 * i] = x + y.wzyx;
  o4[3 * i + 1] = x * y;
  o4[3 * i + 2] = z.even - z.odd;
#else
  float4 x = vload_half4(i, a), y = vload_half4(i, b);
  float8 z = (float8)(x, y);
  vstore_half4_rte(x + y.wzyx, 3 * i, o);
  vstore_half4_rte(x * y, 3 * i + 1, o);
  vstore_half4_rte(z.even - z.odd, 3 * i + 2, o);
#endif
}
