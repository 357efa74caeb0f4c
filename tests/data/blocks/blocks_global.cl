// Blocks (OpenCL C 2.0 §6.12) that capture nothing: clang makes each literal a constant
// program-scope variable (__block_literal_global). tests/clc/test_lang_blocks.py states the
// expected values and runs this source compiled by spirvkit cc and by clang-15 + llvm-spirv-15
// (blocks_global.spv).
typedef int (^op_t)(int, int);

kernel void no_capture(global int *o) { int (^b)(void) = ^{ return 42; }; o[0] = b(); }

kernel void typedefs(global int *o) {
  op_t add = ^(int a, int b){ return a + b; };
  op_t sub = ^(int a, int b){ return a - b; };
  o[0] = add(2, 3); o[1] = sub(2, 3);
}

kernel void local_param(global int *o) {
  local int t[2];
  void (^b)(local void *) = ^(local void *p){ ((local int *)p)[1] = 5; };
  b(t);
  o[0] = t[1];
}

kernel void direct_call(global int *o) { o[0] = ^(int x){ return x + 1; }(4); }

kernel void written_result(global int *o) { long (^b)(int) = ^long(int x){ return (long)x << 33; }; o[0] = (int)(b(1) >> 32); }

kernel void control(global int *o) {
  int (^b)(int) = ^(int x){ int s = 0; for (int i = 0; i < x; i++) { if (i % 2) continue; s += i; } return s; };
  o[0] = b(7);
}
