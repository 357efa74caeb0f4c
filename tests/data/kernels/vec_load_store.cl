// Vector loads/stores from scalar arrays: vloadN/vstoreN for every width and
// a float4 pointer cast over a float array.
#pragma OPENCL FP_CONTRACT OFF

__kernel void vec_vload_vstore(__global const float *src, __global float *dst,
                               __global const int *isrc, __global int *idst) {
  int i = get_global_id(0);
  float2 v2 = vload2(i, src);
  float3 v3 = vload3(i, src + 2);
  float4 v4 = vload4(i, src + 5);
  float8 v8 = vload8(i, src + 9);
  float16 v16 = vload16(i, src + 17);
  vstore2(v2 * 2.0f, i, dst);
  vstore3(v3 + 1.0f, i, dst + 64 * 2);
  vstore4(v4 - v4.wzyx, i, dst + 64 * 5);
  vstore8(v8 * v8, i, dst + 64 * 9);
  vstore16(v16 + v16.s0, i, dst + 64 * 17);
  int3 w = vload3(i, isrc);
  vstore3(w.zxy - w, i, idst);
}

__kernel void vec_pointer_cast(__global const float *src, __global float *dst) {
  int i = get_global_id(0);
  __global const float4 *v = (__global const float4 *)src;
  float4 x = v[i];
  __global float2 *d = (__global float2 *)dst;
  d[2 * i] = x.xy + x.zw;
  d[2 * i + 1] = x.xy * x.zw;
}
