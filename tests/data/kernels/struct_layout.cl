// Struct layout with float3 (16-byte size and alignment) and char members:
// the kernel reports sizeof/offsetof (compile-time constants), reads every
// member and writes a transformed copy.
#pragma OPENCL FP_CONTRACT OFF

typedef struct {
  char c0;                        // 0
  float3 pos;                     // 16
  char c1;                        // 32
  int n;                          // 36
  char2 pair;                     // 40
  double d;                       // 48
} Mixed;                          // 64

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void struct_layout(__global const Mixed *in, __global Mixed *out,
                            __global int *layout, __global float *lanes) {
  int i = get_global_id(0);
  if (i == 0) {
    layout[0] = sizeof(Mixed);
    layout[1] = __builtin_offsetof(Mixed, pos);
    layout[2] = __builtin_offsetof(Mixed, c1);
    layout[3] = __builtin_offsetof(Mixed, n);
    layout[4] = __builtin_offsetof(Mixed, pair);
    layout[5] = __builtin_offsetof(Mixed, d);
    layout[6] = sizeof(float3);
    layout[7] = __alignof__(Mixed);
  }
  Mixed m = in[i];
  lanes[3 * i + 0] = m.pos.x + m.c0;
  lanes[3 * i + 1] = m.pos.y * m.c1;
  lanes[3 * i + 2] = m.pos.z - (float)m.n;
  m.c0 = m.c0 + 1;
  m.pos = m.pos.zxy * 2.0f;
  m.c1 = m.pair.x ^ m.pair.y;
  m.n = -m.n;
  m.pair = (char2)(m.pair.y, (char)i);
  m.d = m.d * 0.5 + (double)m.n;
  out[i] = m;
}
