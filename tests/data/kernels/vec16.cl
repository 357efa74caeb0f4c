// 16-wide vectors: int16, char16, float16 (the vector type, not half)
// arithmetic, hex swizzles (.sF, .s89AB, .sfedcba9876543210), .lo/.hi,
// compares.
#pragma OPENCL FP_CONTRACT OFF

__kernel void vec16_int(__global const int16 *a, __global const int16 *b,
                        __global int16 *out, __global int16 *cmp,
                        __global int *lanes) {
  int i = get_global_id(0);
  int16 x = a[i], y = b[i];
  out[2 * i] = x + y.sfedcba9876543210;
  out[2 * i + 1] = (x ^ y) - (x >> 3);
  cmp[i] = (x >= y) + (x == (int16)(0));
  int8 l = x.lo + y.hi;
  int4 m = l.s0123 * l.s4567;
  lanes[4 * i + 0] = m.x + x.sF;
  lanes[4 * i + 1] = m.y - y.sA;
  lanes[4 * i + 2] = m.z ^ x.s89AB.w;
  lanes[4 * i + 3] = m.w + y.sc;
}

__kernel void vec16_char(__global const char16 *a, __global const char16 *b,
                         __global char16 *out, __global char16 *cmp) {
  int i = get_global_id(0);
  char16 x = a[i], y = b[i];
  out[2 * i] = x + y;                       // wraps
  out[2 * i + 1] = (x * (char16)(5)) - y.s0123456789abcdef.odd.s01234567.s0123456701234567;
  cmp[i] = x < y;
}

__kernel void vec16_float(__global const float16 *a, __global const float16 *b,
                          __global float16 *out, __global int16 *cmp) {
  int i = get_global_id(0);
  float16 x = a[i], y = b[i];
  out[3 * i + 0] = x + y;
  out[3 * i + 1] = x * y.sfedcba9876543210;
  out[3 * i + 2] = x / y;
  cmp[i] = (x > y) - (x != x);
}
