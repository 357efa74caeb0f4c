// Arrays inside structs, arrays of structs and multi-dimensional arrays (bounds, finer): an
// index that leaves its array but stays inside the variable (padding, the next member, the next
// row) is a bounds finding; walks over a struct as C allows are not.

typedef struct { int a; char b[2]; int c; } S;
typedef struct { int x; int v[3]; } P;

void set_b(S *s, int i) { s->b[i] = 5; }   // expect: bounds helper_private

// launch: padding_private global=4 local=4 args=zeros:4
kernel void padding_private(global int *out) {
  S s = {1, {2, 3}, 4};
  int i = get_global_id(0);
  s.b[i] = i;   // expect: bounds padding_private
  out[i] = s.b[0];
}

// launch: helper_private global=1 local=1 args=zeros:1,3
kernel void helper_private(global int *out, int i) {
  S s = {1, {2, 3}, 4};
  set_b(&s, i);
  out[0] = s.c;
}

// launch: loop_array_of_structs global=2 local=2 args=zeros:2,4
kernel void loop_array_of_structs(global int *out, int n) {
  P ps[2] = {{1, {2, 3, 4}}, {5, {6, 7, 8}}};
  int sum = 0;
  for (int k = 0; k < n; k++)
    sum += ps[0].v[k];   // expect: bounds loop_array_of_structs
  out[get_global_id(0)] = sum;
}

// launch: local_next_member global=8 local=8 args=zeros:8
kernel void local_next_member(global int *out) {
  local struct { int first[4]; int second[4]; } t;
  int lid = get_local_id(0);
  t.first[lid] = lid;   // expect: bounds local_next_member
  barrier(CLK_LOCAL_MEM_FENCE);
  out[lid] = 1;
}

// launch: local_next_row global=4 local=4 args=zeros:4,1
kernel void local_next_row(global int *out, int d) {
  local int grid[4][4];
  int lid = get_local_id(0);
  for (int r = 0; r < 4; r++)
    grid[r][lid] = r;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[lid] = grid[1][lid + d];   // expect: bounds local_next_row
}

// ----- clean twins -------------------------------------------------------------------------

// launch: edges_private global=4 local=4 args=zeros:4
kernel void edges_private(global int *out) {
  S s = {1, {2, 3}, 4};
  P ps[2] = {{1, {2, 3, 4}}, {5, {6, 7, 8}}};
  int i = get_global_id(0) & 1;
  s.b[i] = 9;
  out[get_global_id(0)] = s.b[1 - i] + ps[1 - i].v[2 * i] + ps[1].v[2];
}

// launch: byte_and_member_walks global=2 local=2 args=zeros:2
kernel void byte_and_member_walks(global int *out) {
  P ps[2] = {{1, {2, 3, 4}}, {5, {6, 7, 8}}};
  char *c = (char *)ps;
  int sum = 0;
  for (int k = 0; k < (int)sizeof(ps); k++)
    sum += c[k];
  int *first = &ps[0].x;
  for (int k = 0; k < 8; k++)
    sum += first[k];
  out[get_global_id(0)] = sum;
}

// launch: whole_struct_copies global=4 local=4 args=zeros:4
kernel void whole_struct_copies(global int *out) {
  local P shared[2];
  P mine = {1, {2, 3, 4}};
  P other;
  other = mine;
  int lid = get_local_id(0);
  if (lid < 2)
    shared[lid] = other;
  barrier(CLK_LOCAL_MEM_FENCE);
  P back = shared[lid & 1];
  out[lid] = back.v[2] + back.x;
}

// launch: local_rows_in_range global=4 local=4 args=zeros:4,0
kernel void local_rows_in_range(global int *out, int d) {
  local int grid[4][4];
  int lid = get_local_id(0);
  for (int r = 0; r < 4; r++)
    grid[r][lid] = r;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[lid] = grid[3][lid + d] + grid[0][3 - lid];
}
