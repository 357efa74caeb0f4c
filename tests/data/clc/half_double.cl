// half and double: cl_khr_fp16 arithmetic, vload_half/vstore_half with
// rounding modes, cl_khr_fp64 arithmetic and math.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void half_ops(global half *h, global float *f, global half4 *h4) {
  size_t i = get_global_id(0);
  half a = h[i];
  half b = a * (half)0.5h + (half)1.0h;
  h[i] = b;
  float x = vload_half(i, h);
  float4 y = vload_half4(i, (global half *)h4);
  vstore_half_rtz(x * 3.0f, i, h);
  vstore_half4_rte(y + x, i, (global half *)h4);
  vstorea_half4_rtp(y, i, (global half *)h4);
  f[i] = x + vloada_half4(i, (global half *)h4).w;
  half4 v = h4[i];
  h4[i] = v * v - (half4)(HALF_MAX, -HALF_MIN, 0.0h, -0.0h);
}

kernel void double_ops(global double *d, global double2 *d2, global long *l) {
  size_t i = get_global_id(0);
  double x = d[i];
  d[i] = fma(x, 0.1, -1e-300) + sqrt(fabs(x)) + exp(x) - log1p(x);
  d2[i] = d2[i] * (double2)(DBL_MAX, DBL_MIN) + (double2)(-0.0, M_PI);
  l[i] = convert_long_rtz(x) + as_long(x);
  double ip;
  d[i + 1] = modf(x, &ip) + ip + pow(x, 2.5) + nextafter(x, 0.0);
}
