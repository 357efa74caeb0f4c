// A mix of transcendental built-ins per element: sin, cos, exp, log, sqrt.
// x is in [-pi, pi], y in [0.1, 10].
kernel void transcendental(global const float *x, global const float *y,
                           global float *out, const uint n) {
  size_t i = get_global_id(0);
  if (i >= n)
    return;
  const float a = x[i];
  const float b = y[i];
  float r = sin(a) * cos(b) + exp(-0.5f * a * a) + log(b) + sqrt(b + a * a);
  r += cos(a + b) * exp(sin(b)) - log(1.0f + sqrt(b));
  out[i] = r;
}
