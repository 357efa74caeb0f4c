// native_* forms (implementation-defined precision: compared loosely) and
// half_* forms (8192 ulp).
__kernel void math_native(__global const float *a, __global float *o) {
  int i = get_global_id(0);
  float x = a[i];                     // 0.1 .. 8
  o[10 * i + 0] = native_sqrt(x);
  o[10 * i + 1] = native_rsqrt(x);
  o[10 * i + 2] = native_exp(x);
  o[10 * i + 3] = native_exp2(x);
  o[10 * i + 4] = native_log(x);
  o[10 * i + 5] = native_log2(x);
  o[10 * i + 6] = native_sin(x);
  o[10 * i + 7] = native_cos(x);
  o[10 * i + 8] = native_tan(x * 0.15f);
  o[10 * i + 9] = native_sqrt(x) * native_cos(x * 0.5f);
}

__kernel void math_half_forms(__global const float *a, __global float *o) {
  int i = get_global_id(0);
  float x = a[i];                     // 0.1 .. 8
  o[10 * i + 0] = half_sqrt(x);
  o[10 * i + 1] = half_rsqrt(x);
  o[10 * i + 2] = half_exp(x);
  o[10 * i + 3] = half_exp2(x);
  o[10 * i + 4] = half_log(x);
  o[10 * i + 5] = half_log2(x);
  o[10 * i + 6] = half_sin(x);
  o[10 * i + 7] = half_cos(x);
  o[10 * i + 8] = half_tan(x * 0.15f);
  o[10 * i + 9] = half_sqrt(x) * half_cos(x * 0.5f);
}
