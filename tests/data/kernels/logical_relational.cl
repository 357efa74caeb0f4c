// Logical operators (&& || ! on scalars give 0/1, on vectors -1/0) and the
// relational built-ins: isequal, isnotequal, isgreater, isless, islessgreater,
// isfinite, isinf, isnan, isnormal, isordered, isunordered, signbit, any,
// all -- on scalars (0/1) and vectors (-1/0).
__kernel void logical_ops(__global const int *a, __global const int4 *v,
                          __global int *o, __global int4 *ov) {
  int i = get_global_id(0);
  int x = a[i], y = a[(i + 1) & 63];
  o[4 * i + 0] = x && y;
  o[4 * i + 1] = x || !y;
  o[4 * i + 2] = !x + !!y;
  o[4 * i + 3] = (x > 0) == (y > 0);
  int4 p = v[i], q = v[(i + 5) & 63];
  ov[3 * i + 0] = p && q;
  ov[3 * i + 1] = p || !q;
  ov[3 * i + 2] = !p;
}

__kernel void relational(__global const float *a, __global const float *b,
                         __global const float4 *va, __global int *o,
                         __global int4 *ov) {
  int i = get_global_id(0);
  float x = a[i], y = b[i];
  o[14 * i + 0] = isequal(x, y);
  o[14 * i + 1] = isnotequal(x, y);
  o[14 * i + 2] = isgreater(x, y);
  o[14 * i + 3] = isgreaterequal(x, y);
  o[14 * i + 4] = isless(x, y);
  o[14 * i + 5] = islessequal(x, y);
  o[14 * i + 6] = islessgreater(x, y);
  o[14 * i + 7] = isfinite(x);
  o[14 * i + 8] = isinf(x);
  o[14 * i + 9] = isnan(x);
  o[14 * i + 10] = isnormal(x);
  o[14 * i + 11] = isordered(x, y);
  o[14 * i + 12] = isunordered(x, y);
  o[14 * i + 13] = signbit(x);
  float4 p = va[i], q = (float4)(y);
  ov[5 * i + 0] = isless(p, q);
  ov[5 * i + 1] = isnan(p);
  ov[5 * i + 2] = signbit(p);
  ov[5 * i + 3] = (int4)(any(isgreater(p, q)), all(isfinite(p)), any(p < (float4)(0.0f)), all(p == p));
  ov[5 * i + 4] = isnotequal(p, p.wzyx);
}
