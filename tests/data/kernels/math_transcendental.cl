// exp exp2 log log2 pow (float), with inputs in ranges where results are
// finite and also some special values.
__kernel void math_exp_log(__global const float *a, __global const float *b,
                           __global float *e, __global float *l,
                           __global float *p) {
  int i = get_global_id(0);
  float x = a[i], y = b[i];
  e[2 * i] = exp(x);
  e[2 * i + 1] = exp2(x);
  l[2 * i] = log(y);
  l[2 * i + 1] = log2(y);
  p[i] = pow(y, x * 0.25f);
}

// sin cos tan (|x| moderate), atan2 over all quadrants, tanh.
__kernel void math_trig(__global const float *a, __global const float *b,
                        __global float *sc, __global float *t,
                        __global float *at, __global float *th) {
  int i = get_global_id(0);
  float x = a[i], y = b[i];
  sc[2 * i] = sin(x);
  sc[2 * i + 1] = cos(x);
  t[i] = tan(x);
  at[i] = atan2(y, x);
  th[i] = tanh(y);
}

__kernel void math_vec(__global const float8 *a, __global float8 *e,
                       __global float8 *s, __global float2 *p) {
  int i = get_global_id(0);
  float8 x = a[i];
  e[i] = exp(x * 0.5f);
  s[i] = sin(x);
  p[i] = pow(fabs(x.lo.lo) + (float2)(1.0f), x.hi.hi);
}
