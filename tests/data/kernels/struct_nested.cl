// Nested structs with arrays inside: a struct containing an array of inner
// structs and a private copy modified through a pointer.
typedef struct {
  short x, y;
  int w;
} Inner;                          // 8 bytes

typedef struct {
  Inner pts[3];
  char name[5];
  int count;
  Inner extra;
} Outer;                          // 44 bytes: pts 0, name 24, count 32, extra 36

__attribute__((noinline)) void bump(__private Outer *o, int by) {
  for (int k = 0; k < 3; k++) {
    o->pts[k].x += by;
    o->pts[k].w *= 2;
  }
  o->count += o->name[by & 3];
}

__kernel void struct_nested(__global const Outer *in, __global Outer *out,
                            __global int *sums) {
  int i = get_global_id(0);
  Outer o = in[i];
  int s = 0;
  for (int k = 0; k < 3; k++)
    s += o.pts[k].x * o.pts[k].y + o.pts[k].w;
  s += o.extra.w - o.name[0];
  sums[i] = s;
  bump(&o, i);
  o.extra = o.pts[i % 3];
  out[i] = o;
}
