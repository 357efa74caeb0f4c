// Block variables at program scope and static ones (OpenCL C 2.0 §6.12): clang makes each literal
// a constant __block_literal_global and calls its invoke function, <variable>_block_invoke for a
// program-scope variable, directly.
constant int scale = 7;
int (^__constant times_scale)(int) = ^int(int x) { return scale * x; };
typedef int (^binop_t)(int, int);
constant binop_t add = ^(int a, int b) { return a + b; };
binop_t sub = ^(int a, int b) { return a - b; };
int (^plain)(int) = ^(int x) { return x + 1; };
void (^const store)(global int *, int) = ^(global int *p, int v) { *p = v; };
int counter_base = 100;
int (^from_global)(void) = ^{ return counter_base + 1; };

kernel void program_scope(global int *o) {
  o[0] = times_scale(3);
  o[1] = add(2, 5);
  o[2] = sub(2, 5);
  o[3] = plain(41);
  store(o + 4, 9);
  o[5] = from_global();
}

kernel void called_from_a_literal(global int *o) {
  int k = 10;
  int (^local_block)(int) = ^(int x) { return times_scale(x) + k; };
  o[0] = local_block(2);
}

int helper(int x) { return add(x, plain(x)); }

kernel void called_from_a_function(global int *o) {
  o[0] = helper(4);
}

kernel void static_block(global int *o) {
  static int (^twice)(int) = ^(int x) { return 2 * x; };
  const int (^thrice)(int) = ^(int x) { return 3 * x; };
  o[0] = twice(21);
  o[1] = thrice(5);
}
