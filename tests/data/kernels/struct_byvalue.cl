// A struct passed by value as a kernel argument (with a float4 member, so
// 16-byte alignment), together with scalars and a by-value int4 vector.
#pragma OPENCL FP_CONTRACT OFF

typedef struct {
  float4 scale;
  int offset;
  short mode;
  uchar shift;
  float bias;
} Params;                         // 32 bytes: 0, 16, 20, 22, 24

__kernel void struct_by_value(__global const float4 *in, __global float4 *out,
                              __global int *iout, Params prm, int extra,
                              int4 mask, float fscalar) {
  int i = get_global_id(0);
  float4 v = in[i] * prm.scale + (float4)(prm.bias);
  if (prm.mode == 2)
    v = -v;
  out[i] = v + (float4)(fscalar);
  iout[2 * i] = (prm.offset + i) << prm.shift;
  iout[2 * i + 1] = ((int4)(i) & mask).x + ((int4)(i) & mask).w + extra;
}
