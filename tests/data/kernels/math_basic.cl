// Exactly specified float built-ins (0 ulp): fabs, fmin, fmax, floor, ceil,
// round (halfway away from zero), trunc, fma; mad with exact products;
// sqrt (3 ulp) and rsqrt (2 ulp).  Inputs include -0.0, +-inf, NaN,
// subnormals and halfway cases.
__kernel void math_basic(__global const float *a, __global const float *b,
                         __global float *exact, __global float *approx) {
  int i = get_global_id(0);
  float x = a[i], y = b[i];
  exact[9 * i + 0] = fabs(x);
  exact[9 * i + 1] = fmin(x, y);
  exact[9 * i + 2] = fmax(x, y);
  exact[9 * i + 3] = floor(x);
  exact[9 * i + 4] = ceil(x);
  exact[9 * i + 5] = round(x);
  exact[9 * i + 6] = trunc(x);
  exact[9 * i + 7] = fma(x, y, 1.0f);
  exact[9 * i + 8] = mad(floor(x) * 0.0f + 3.0f, 0.5f, y);
  approx[2 * i] = sqrt(x);
  approx[2 * i + 1] = rsqrt(x);
}

__kernel void math_basic_vec(__global const float4 *a, __global const float4 *b,
                             __global float4 *exact, __global float4 *sq) {
  int i = get_global_id(0);
  float4 x = a[i], y = b[i];
  exact[4 * i + 0] = floor(x) + ceil(y);
  exact[4 * i + 1] = fmin(x, y) - fmax(x, (float4)(0.25f));
  exact[4 * i + 2] = fma(x, y, x);
  exact[4 * i + 3] = round(x) * trunc(y);
  sq[i] = sqrt(fabs(x));
}
