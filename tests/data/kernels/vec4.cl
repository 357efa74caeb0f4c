// 4-wide vectors: int4/float4/uchar4 arithmetic, .lo/.hi/.even/.odd,
// .s3210 swizzles, compares, reinterpretation between uchar4 and uint.
#pragma OPENCL FP_CONTRACT OFF

__kernel void vec4_int(__global const int4 *a, __global const int4 *b,
                       __global int4 *out, __global int4 *cmp,
                       __global int2 *halves) {
  int i = get_global_id(0);
  int4 x = a[i], y = b[i];
  out[3 * i + 0] = x + y * (int4)(1, -2, 3, -4);
  out[3 * i + 1] = x.s3210 - (y << (int4)(0, 1, 2, 3));
  out[3 * i + 2] = (x & y) | (~x & (int4)(0x0f0f0f0f));
  cmp[i] = (x < y) ^ (x != (int4)(7));
  halves[2 * i] = x.lo + y.hi;
  halves[2 * i + 1] = x.even * y.odd;
}

__kernel void vec4_float(__global const float4 *a, __global const float4 *b,
                         __global float4 *out, __global int4 *cmp) {
  int i = get_global_id(0);
  float4 x = a[i], y = b[i];
  out[4 * i + 0] = x + y;
  out[4 * i + 1] = x * y.wzyx;
  out[4 * i + 2] = x / (y + (float4)(4.0f));
  out[4 * i + 3] = (float4)(x.xy, y.zw) - (float4)(x.w);
  cmp[i] = (x >= y) + (x < (float4)(0.0f));
}

__kernel void vec4_uchar(__global const uchar4 *a, __global const uchar4 *b,
                         __global uchar4 *out, __global uint *packed,
                         __global char4 *cmp) {
  int i = get_global_id(0);
  uchar4 x = a[i], y = b[i];
  out[2 * i] = x + y;                 // wraps mod 256
  out[2 * i + 1] = x * y - (x >> (uchar4)(1));
  packed[i] = as_uint(x ^ y.wzyx);
  cmp[i] = x > y;                     // char lanes: -1 / 0
}
