// Relational builtins on scalars and vectors: isnan/isinf/isfinite/
// isnormal/signbit/isordered/isunordered, any/all, select/bitselect,
// vector comparisons producing -1/0 masks.
kernel void relational(global const float4 *a, global const float4 *b,
                       global int4 *masks, global float4 *out, global int *flags) {
  size_t i = get_global_id(0);
  float4 x = a[i], y = b[i];
  int4 m = isnan(x) | isinf(y) | (isfinite(x) & isnormal(y)) | signbit(x);
  m ^= isordered(x, y) + isunordered(x, y);
  m |= (x < y) & (x != y) & (x >= -y) & (islessgreater(x, y));
  masks[i] = m;
  out[i] = select(x, y, m) + bitselect(x, y, as_float4(m));
  float s = x.s0;
  flags[i] = any(m) + 2 * all(m) + 4 * isnan(s) + 8 * (s == s) +
             16 * isgreater(s, 1.0f) + 32 * isless(s, -1.0f);
}
