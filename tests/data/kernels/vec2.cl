// 2-wide vectors: int2/float2 arithmetic, component access (.x/.y/.s0/.s1),
// swizzles (.yx, .xx), vector compares producing -1/0 lanes, loads from
// int2/float2 arrays.
#pragma OPENCL FP_CONTRACT OFF

__kernel void vec2_int(__global const int2 *a, __global const int2 *b,
                       __global int2 *sum, __global int2 *mix,
                       __global int2 *swz, __global int2 *cmp,
                       __global int *comp) {
  int i = get_global_id(0);
  int2 x = a[i], y = b[i];
  sum[i] = x + y;
  mix[i] = x * y - (x >> 1) + (y & (int2)(0xff, 0xf0)) - (x % (int2)(7, 5));
  swz[i] = (x.yx ^ y.s10) | (int2)(x.x, y.y);
  cmp[i] = (x < y) + ((x == y.yx) & (int2)(4, 8)) + ((x >= (int2)(0)) << 4);
  comp[2 * i] = x.x * 3 - y.s1;
  comp[2 * i + 1] = x.y + y.x + x.s0;
}

__kernel void vec2_float(__global const float2 *a, __global const float2 *b,
                         __global float2 *out, __global float2 *swz,
                         __global int2 *cmp) {
  int i = get_global_id(0);
  float2 x = a[i], y = b[i];
  out[4 * i + 0] = x + y;
  out[4 * i + 1] = x - y.yx;
  out[4 * i + 2] = x * y;
  out[4 * i + 3] = x / y;
  swz[i] = (float2)(x.y, y.x) + x.xx;
  cmp[i] = (x > y) | ((x != x) & (int2)(2));
}
