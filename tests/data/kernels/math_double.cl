// double math: sqrt (0 ulp), exp exp2 log log2 (3 ulp), pow (16), sin cos
// tan (4), atan2 (6), tanh (5), rsqrt (2), floor/ceil/round/trunc/fmin/fmax/
// fabs/fma (exact).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void math_double(__global const double *a, __global const double *b,
                          __global double *exact, __global double *approx) {
  int i = get_global_id(0);
  double x = a[i], y = b[i];
  exact[8 * i + 0] = sqrt(fabs(x));
  exact[8 * i + 1] = floor(x);
  exact[8 * i + 2] = ceil(x);
  exact[8 * i + 3] = round(x);
  exact[8 * i + 4] = trunc(x);
  exact[8 * i + 5] = fmin(x, y);
  exact[8 * i + 6] = fmax(x, y);
  exact[8 * i + 7] = fma(x, y, 0.5);
  approx[11 * i + 0] = exp(x * 0.1);
  approx[11 * i + 1] = exp2(x * 0.1);
  approx[11 * i + 2] = log(fabs(y) + 0.001);
  approx[11 * i + 3] = log2(fabs(y) + 0.001);
  approx[11 * i + 4] = pow(fabs(y) + 0.5, x * 0.05);
  approx[11 * i + 5] = sin(x);
  approx[11 * i + 6] = cos(x);
  approx[11 * i + 7] = tan(x * 0.3);
  approx[11 * i + 8] = atan2(y, x);
  approx[11 * i + 9] = tanh(y * 0.2);
  approx[11 * i + 10] = rsqrt(fabs(y) + 0.001);
}
