// 8-wide vectors: short8 and float8 arithmetic, .s0123/.s4567/.lo/.hi,
// .even/.odd, compares producing short -1/0 lanes.
#pragma OPENCL FP_CONTRACT OFF

__kernel void vec8_short(__global const short8 *a, __global const short8 *b,
                         __global short8 *out, __global short8 *cmp,
                         __global short4 *parts) {
  int i = get_global_id(0);
  short8 x = a[i], y = b[i];
  out[2 * i] = x + y;
  out[2 * i + 1] = (x * (short8)(3)) ^ (y >> (short8)(2));
  cmp[i] = (x > y) | ((x == (short8)(0)) & (short8)(0x100));
  parts[2 * i] = x.s0123 - y.s4567;
  parts[2 * i + 1] = x.even + y.odd;
}

__kernel void vec8_float(__global const float8 *a, __global const float8 *b,
                         __global float8 *out, __global int8 *cmp,
                         __global float4 *parts) {
  int i = get_global_id(0);
  float8 x = a[i], y = b[i];
  out[3 * i + 0] = x + y;
  out[3 * i + 1] = x * y;
  out[3 * i + 2] = x - y.s76543210;
  cmp[i] = (x < y) & (int8)(1, 2, 3, 4, 5, 6, 7, 8);
  parts[2 * i] = x.lo * y.hi;
  parts[2 * i + 1] = x.odd - y.even;
}
