// Pointers to private memory kept in private structs, arrays and block literals: checked mode
// keeps their bounds (src/spirvkit/jit/private_shadows.py). Every kernel reads or writes
// element i through the kept pointer; tests/jit/test_private_pointer_bounds.py runs each with an
// index in bounds and one past the end (a located fault).
typedef struct { int *p; int n; } holder;
typedef struct { int tag; holder h; int *q[2]; } outer;

kernel void member(global int *out, int i) {
  int a[4] = {1, 2, 3, 4};
  holder h; h.p = a; h.n = 4;
  out[0] = h.p[i];
}

kernel void pointer_array(global int *out, int i, int j) {
  int a[3] = {1, 2, 3}; int b[2] = {7, 8};
  int *ps[2]; ps[0] = a; ps[1] = b;
  out[0] = ps[j][i];
}

kernel void nested(global int *out, int i) {
  int a[4] = {10, 20, 30, 40}; int b[2] = {5, 6};
  outer o; o.tag = 1; o.h.p = a; o.q[0] = b; o.q[1] = a;
  out[0] = o.h.p[i] + o.q[1][i];
}

kernel void whole_copy(global int *out, int i) {
  int a[4] = {5, 6, 7, 8};
  holder h; h.p = a; h.n = 4;
  holder g = h;
  holder *pg = &g;
  out[0] = g.p[i] + pg->p[0];
}

kernel void write_through(global int *out, int i) {
  int a[4] = {0, 0, 0, 0};
  holder h; h.p = a;
  h.p[i] = 9;
  out[0] = a[0] + a[1] + a[2] + a[3];
}

int get(holder h, int i) { return h.p[i]; }
holder make(int *p) { holder h; h.p = p; h.n = 4; return h; }

kernel void by_value(global int *out, int i) {
  int a[4] = {1, 2, 3, 4};
  holder h = make(a);
  out[0] = get(h, i);
}

kernel void buffer_pointer(global int *out, global int *in, int i) {
  struct { global int *p; } s; s.p = in;
  out[0] = s.p[i];
}

kernel void block_capture(global int *out, int i) {
  int a[4] = {3, 4, 5, 6};
  int *t = a;
  int (^b)(int) = ^(int k){ return t[k]; };
  out[0] = b(i);
}

kernel void across_barrier(global int *out, local int *tmp, int i) {
  int a[4] = {1, 2, 3, 4};
  holder h; h.p = a;
  tmp[get_local_id(0)] = (int)get_local_id(0) + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = h.p[i] + tmp[0];
}
