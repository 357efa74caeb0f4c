// double arithmetic (cl_khr_fp64): + - * / fma, sqrt (correctly rounded for
// double), comparisons, and a double2/double4 vector kernel.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

__kernel void double_arith(__global const double *a, __global const double *b,
                           __global double *o, __global long *cmp) {
  int i = get_global_id(0);
  double x = a[i], y = b[i];
  o[7 * i + 0] = x + y;
  o[7 * i + 1] = x - y;
  o[7 * i + 2] = x * y;
  o[7 * i + 3] = x / y;
  o[7 * i + 4] = fma(x, y, -x);
  o[7 * i + 5] = sqrt(fabs(x));
  o[7 * i + 6] = -x * 0.1 + y;
  cmp[i] = (x < y) + 2 * (x == y) + 4 * (x != x) + 8 * (x >= y);
}

__kernel void double_vec(__global const double4 *a, __global const double2 *b,
                         __global double4 *o, __global long4 *cmp) {
  int i = get_global_id(0);
  double4 x = a[i];
  double2 y = b[i];
  o[2 * i] = x * (double4)(y, y.yx) + x.wzyx;
  o[2 * i + 1] = x / (double4)(3.0) - (double4)(y.x);
  cmp[i] = x > (double4)(y.y);
}
