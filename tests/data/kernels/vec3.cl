// 3-wide vectors: float3/int3 in arrays (16-byte stride), component access,
// three-lane swizzles (.zxy), vector compares, building a vec3 from scalars.
#pragma OPENCL FP_CONTRACT OFF

__kernel void vec3_float(__global const float3 *a, __global const float3 *b,
                         __global float3 *sum, __global float3 *prod,
                         __global float3 *rot, __global int3 *cmp,
                         __global float *lanes) {
  int i = get_global_id(0);
  float3 x = a[i], y = b[i];
  sum[i] = x + y;
  prod[i] = x * y - (float3)(1.0f, 2.0f, 0.5f);
  rot[i] = x.zxy - y.yzx;
  cmp[i] = (x <= y) & (int3)(1, 2, 4);
  lanes[3 * i + 0] = x.x + y.z;
  lanes[3 * i + 1] = x.s1 * y.s0;
  lanes[3 * i + 2] = x.z - y.y;
}

__kernel void vec3_int(__global const int3 *a, __global int3 *out,
                       __global int3 *cmp) {
  int i = get_global_id(0);
  int3 x = a[i];
  int3 y = (int3)(x.z, i, x.x - 5);
  out[2 * i] = x * y + (x >> (int3)(1, 2, 3));
  out[2 * i + 1] = (x | y) - (x ^ 0x5a5a) + x.yyy;
  cmp[i] = (x > y) - (x == (int3)(0));
}
