// as_type reinterpretation between same-size types: float <-> uint, int4 <->
// float4, char4 <-> int, double <-> long, ushort2 <-> uint, and IEEE bit
// manipulation (sign, exponent extraction, building floats from bits).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void bitcast(__global const float *f, __global const int4 *v,
                      __global const double *d, __global uint *ou,
                      __global float *of, __global char4 *oc,
                      __global long *ol, __global float4 *ov) {
  int i = get_global_id(0);
  float x = f[i];
  uint bits = as_uint(x);
  ou[3 * i + 0] = bits;
  ou[3 * i + 1] = (bits >> 23) & 0xffu;                // biased exponent
  ou[3 * i + 2] = as_uint(as_ushort2(bits).yx);
  of[2 * i] = as_float(bits ^ 0x80000000u);           // negate via the sign bit
  of[2 * i + 1] = as_float((bits & 0x807fffffu) | 0x3f800000u);  // mantissa in [1,2)
  oc[i] = as_char4(bits) + as_char4(v[i].x);
  ol[i] = as_long(d[i]) ^ (as_long(d[i]) >> 52);
  ov[i] = as_float4(v[i] & (int4)(0x7fffffff));
}
