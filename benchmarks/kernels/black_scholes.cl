// Black-Scholes European call and put prices (after the classic NVIDIA SDK
// sample): exp, log, sqrt and the Abramowitz-Stegun polynomial for the
// cumulative normal distribution.
static float cnd(float d) {
  const float A1 = 0.31938153f;
  const float A2 = -0.356563782f;
  const float A3 = 1.781477937f;
  const float A4 = -1.821255978f;
  const float A5 = 1.330274429f;
  const float RSQRT2PI = 0.39894228040143267793994605993438f;
  const float K = 1.0f / (1.0f + 0.2316419f * fabs(d));
  float c = RSQRT2PI * exp(-0.5f * d * d) *
            (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  if (d > 0.0f)
    c = 1.0f - c;
  return c;
}

kernel void black_scholes(global float *call, global float *put,
                          global const float *S, global const float *X,
                          global const float *T, const float R,
                          const float V, const uint n) {
  const size_t i = get_global_id(0);
  if (i >= n)
    return;
  const float s = S[i], x = X[i], t = T[i];
  const float sqrt_t = sqrt(t);
  const float d1 = (log(s / x) + (R + 0.5f * V * V) * t) / (V * sqrt_t);
  const float d2 = d1 - V * sqrt_t;
  const float cnd1 = cnd(d1);
  const float cnd2 = cnd(d2);
  const float exp_rt = exp(-R * t);
  call[i] = s * cnd1 - x * exp_rt * cnd2;
  put[i] = x * exp_rt * (1.0f - cnd2) - s * (1.0f - cnd1);
}
