// Arrays inside structs, arrays of structs and multi-dimensional arrays, in private and __local
// memory: checked mode bounds each array index of an access chain by its array
// (src/spirvkit/jit/array_bounds.py). tests/jit/test_struct_array_bounds.py runs every kernel
// with indexes in range (checked, unchecked and the expected value agree) and, for the faulting
// ones, with an index that stays inside the variable but leaves the array (a located fault).
// The clean_* kernels walk structs legitimately: bytes through a char pointer, pointer
// arithmetic from a member, a pointer one past an array, whole-struct copies.
typedef struct { int a; char b[2]; int c; } S;          // b: bytes 4-5, padding 6-7, c: 8-11
typedef struct { int x; int v[3]; } P;                   // 16 bytes, no padding
typedef struct { float m[3][4]; float tail; } M;
typedef struct { int hist[8]; int total; } H;

void put(S *s, int i, char v) { s->b[i] = v; }
int get_v(P *p, int j) { return p->v[j]; }

kernel void member_write(global int *out, int i) {
  S s = {1, {2, 3}, 4};
  s.b[i] = 9;
  out[0] = s.a + s.b[0] + s.b[1] + s.c;
}

kernel void member_read(global int *out, int i) {
  S s = {1, {2, 3}, 4};
  out[0] = s.b[i];
}

kernel void array_of_structs(global int *out, int i, int j) {
  P ps[4];
  for (int k = 0; k < 4; k++) {
    ps[k].x = 100 * k;
    for (int l = 0; l < 3; l++)
      ps[k].v[l] = 10 * k + l;
  }
  out[0] = ps[i].v[j];
}

kernel void matrix(global int *out, int i, int j) {
  M s;
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 4; c++)
      s.m[r][c] = (float)(4 * r + c);
  s.tail = -1.0f;
  out[0] = (int)s.m[i][j];
}

kernel void through_helper(global int *out, int i) {
  S s = {1, {2, 3}, 4};
  put(&s, i, 7);
  P p = {5, {6, 7, 8}};
  out[0] = s.b[0] + s.b[1] + get_v(&p, 2);
}

kernel void in_a_loop(global int *out, int n) {
  P ps[2] = {{1, {2, 3, 4}}, {5, {6, 7, 8}}};
  int sum = 0;
  for (int k = 0; k < n; k++)
    sum += ps[0].v[k];
  out[0] = sum;
}

kernel void local_hist(global int *out, int i) {
  local H h;
  size_t lid = get_local_id(0);
  h.hist[lid] = 0;
  if (lid == 0)
    h.total = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&h.hist[lid + i]);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[lid] = h.hist[lid] + h.total;
}

kernel void local_rows(global int *out, int i) {
  local int tile[4][8];
  size_t lid = get_local_id(0);
  for (int r = 0; r < 4; r++)
    tile[r][lid] = r;
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[1][lid + i] = 10 + (int)lid;      // affine in the local id: the group guard's case
  barrier(CLK_LOCAL_MEM_FENCE);
  out[lid] = tile[1][lid] + tile[2][lid];
}

kernel void local_struct_of_arrays(global int *out, int i) {
  local struct { short a[6]; short b[6]; } t;
  size_t lid = get_local_id(0);
  t.a[lid] = 1;
  t.b[lid] = 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[lid] = t.b[lid] + t.a[lid + i];     // a[6] is b[0]
}

// ----- clean: legitimate walks over a struct ---------------------------------------------------

kernel void clean_char_walk(global int *out, int i) {
  P p = {0x01020304, {5, 6, 7}};
  char *c = (char *)&p;
  int sum = 0;
  for (int k = 0; k < (int)sizeof(P); k++)
    sum += c[k];
  out[0] = sum + i;
}

kernel void clean_member_pointer_walk(global int *out, int i) {
  P ps[2] = {{1, {2, 3, 4}}, {5, {6, 7, 8}}};
  int *first = &ps[0].x;
  int sum = 0;
  for (int k = 0; k < 8; k++)
    sum += first[k];             // all of ps through a pointer to its first member
  int *v = ps[0].v;
  out[0] = sum + v[3 + i];       // past v into ps[1].x: pointer arithmetic keeps ps's bounds
}

kernel void clean_one_past(global int *out, int i) {
  P p = {1, {2, 3, 4}};
  int sum = 0;
  for (int *q = &p.v[0]; q != &p.v[3]; q++)    // &p.v[3]: one past the end, never read
    sum += *q;
  int *end = p.v + 3;
  out[0] = sum + end[-1 - i];
}

kernel void clean_whole_copies(global int *out, int i) {
  local P shared;
  P ps[2] = {{1, {2, 3, 4}}, {5, {6, 7, 8}}};
  P a = ps[1];
  P b;
  b = a;
  if (get_local_id(0) == 0)
    shared = b;
  barrier(CLK_LOCAL_MEM_FENCE);
  P back = shared;
  out[get_local_id(0)] = back.v[2 - i] + b.x;
}

kernel void clean_edges(global int *out, int i) {
  M s;
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 4; c++)
      s.m[r][c] = (float)(r + c);
  s.tail = 100.0f;
  S t = {1, {2, 3}, 4};
  out[0] = (int)(s.m[0][0] + s.m[2][3] + s.m[2 - i][3 - i] + s.tail) + t.b[1 - i];
}

typedef struct { int v[3]; int x; } Q;

kernel void clean_cast_walk(global int *out, int i) {
  volatile Q q = {{1, 2, 3}, 4};
  volatile int *p = (volatile int *)&q;   // the whole struct through a pointer to its first member
  out[0] = p[3 - i] + p[i + 1];  // (clang -O2 folds these into indexes of q.v: gep %Q, 0, 0, k)
}
