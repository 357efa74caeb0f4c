// Non-inlined helper functions: by-value scalar and vector parameters,
// private-pointer out-parameters, a helper that loops, helpers calling
// helpers.  At -O0 every local is an alloca.
#pragma OPENCL FP_CONTRACT OFF

__attribute__((noinline)) int helper_poly(int x, int y) {
  return x * x - 3 * y + 7;
}

__attribute__((noinline)) void helper_minmax(__private const int *v, int n,
                                             __private int *lo,
                                             __private int *hi) {
  int a = v[0], b = v[0];
  for (int k = 1; k < n; k++) {
    a = min(a, v[k]);
    b = max(b, v[k]);
  }
  *lo = a;
  *hi = b;
}

__attribute__((noinline)) float4 helper_vec(float4 a, float s) {
  return a * s + (float4)(helper_poly(1, 2));
}

__attribute__((noinline)) int helper_sum(__global const int *p, int n) {
  int s = 0;
  for (int k = 0; k < n; k++)
    s += helper_poly(p[k], k);
  return s;
}

__kernel void cf_calls(__global const int *a, __global int *out,
                       __global float4 *vout) {
  int i = get_global_id(0);
  int v[5];
  for (int k = 0; k < 5; k++)
    v[k] = a[(i + k) & 63] - 500;
  int lo, hi;
  helper_minmax(v, 5, &lo, &hi);
  out[4 * i + 0] = lo;
  out[4 * i + 1] = hi;
  out[4 * i + 2] = helper_poly(v[0] & 1023, v[1] & 1023);
  out[4 * i + 3] = helper_sum(a + (i & 31), 4);
  vout[i] = helper_vec((float4)(lo, hi, v[2], i), 0.5f);
}
