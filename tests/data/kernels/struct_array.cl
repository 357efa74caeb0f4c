// Arrays of structs through __global pointers: mixed member types (int,
// float, short, char, uint) with C padding, reading members, writing a
// different struct type back.
#pragma OPENCL FP_CONTRACT OFF

typedef struct {
  int id;
  float weight;
  short delta;
  char tag;
  uint flags;
} Particle;                       // 16 bytes: 0, 4, 8, 10, 12

typedef struct {
  float score;
  int id;
  char tag2;
  long big;
} Result;                         // 24 bytes: 0, 4, 8, 16

__kernel void struct_aos(__global const Particle *p, __global Result *r,
                         __global Particle *moved) {
  int i = get_global_id(0);
  Particle a = p[i];
  Particle b = p[(i + 1) & 63];
  Result out;
  out.score = a.weight * 2.0f + (float)a.delta;
  out.id = a.id ^ b.id;
  out.tag2 = a.tag + b.tag;
  out.big = (long)a.flags * (long)b.delta;
  r[i] = out;
  a.delta += 3;
  a.flags |= 0x80000000u;
  a.tag = -a.tag;
  moved[63 - i] = a;
}
