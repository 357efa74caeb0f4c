// Math builtins lowered to OpenCL.std: exp/log/trig families, native_ and
// half_ variants, functions with pointer out-parameters, geometric and
// common functions.
kernel void math_builtins(global float4 *v, global float *s, global int *e) {
  size_t i = get_global_id(0);
  float x = s[i];
  float4 a = v[i];
  float r = sin(x) + cos(x) + tan(x) + asin(x) + acos(x) + atan(x) +
            atan2(x, 2.f) + sinh(x) + cosh(x) + tanh(x) + asinh(x) +
            acosh(x + 2.f) + atanh(x * 0.5f) + sinpi(x) + cospi(x) +
            tanpi(x) + exp(x) + exp2(x) + exp10(x) + expm1(x) + log(x) +
            log2(x) + log10(x) + log1p(x) + logb(x) + cbrt(x) + sqrt(x) +
            rsqrt(x) + pow(x, 3.f) + pown(x, 3) + powr(x, 0.5f) +
            rootn(x, 3) + hypot(x, 1.f) + erf(x) + erfc(x) + tgamma(x) +
            lgamma(x) + fmod(x, 1.5f) + remainder(x, 1.5f) + copysign(x, -1.f) +
            fdim(x, 1.f) + fmax(x, 1.f) + fmin(x, 1.f) + maxmag(x, -2.f) +
            minmag(x, -2.f) + nextafter(x, 0.f) + ceil(x) + floor(x) +
            round(x) + rint(x) + trunc(x) + fma(x, x, x) + mad(x, x, x) +
            ldexp(x, 3) + nan(1u);
  float ip, cv, fr;
  int ex, q, sg;
  r += fract(x, &fr) + modf(x, &ip) + sincos(x, &cv) + frexp(x, &ex) +
       remquo(x, 2.f, &q) + lgamma_r(x, &sg) + fr + ip + cv;
  e[i] = ex + q + sg + ilogb(x);
  r += native_sin(x) + native_cos(x) + native_exp(x) + native_log(x) +
       native_sqrt(x) + native_recip(x) + native_divide(x, 3.f) +
       native_powr(x, 2.f) + half_exp(x) + half_log(x) + half_sqrt(x) +
       half_recip(x) + half_divide(x, 3.f) + half_rsqrt(x);
  r += dot(a, a) + length(a) + distance(a, (float4)(1.f)) + fast_length(a);
  float4 n = normalize(a) + fast_normalize(a) + clamp(a, 0.f, 1.f) +
             mix(a, a.wzyx, 0.25f) + step(0.5f, a) +
             smoothstep(0.f, 1.f, a) + sign(a) + degrees(a) + radians(a);
  v[i] = n;
  s[i] = r;
}
