// Blocks (OpenCL C 2.0 §6.12) that capture: literals, variables, calls and captures by value of every kind
// of value. Each kernel writes its results to o[]; tests/clc/test_lang_blocks.py states the
// expected values and runs this source compiled by spirvkit cc and by clang-15 + llvm-spirv-15
// (blocks.spv).
typedef struct { int a; float b; } S;

int helper(int n) { int (^b)(int) = ^(int x){ return x + n; }; return b(1); }

kernel void scalar(global int *o) { int n = 5; int (^b)(int) = ^(int x){ return x * n; }; o[0] = b(3); }

kernel void by_value(global int *o) { int n = 1; int (^b)(void) = ^{ return n; }; n = 7; o[0] = b(); o[1] = n; }

kernel void global_ptr(global int *o) { void (^b)(int) = ^(int i){ o[i] = i * 10 + 1; }; b(0); b(2); }

kernel void mixed(global int *o) {
  char c = -3; short s = 300; long l = 1L << 40; float f = 2.5f; bool t = true; uchar u = 200;
  long (^b)(void) = ^{ return c + s + (l >> 38) + (long)(f * 2) + t + u; };
  o[0] = (int)b();
}

kernel void wide(global int *o) {
  char c = 1; double d = 2.0; long16 big = (long16)(3); short s = 4;
  long (^b)(void) = ^{ return c + (long)d + big.s7 + s; };
  o[0] = (int)b();
}

kernel void record(global int *o) { S s = {3, 4.5f}; int (^b)(void) = ^{ return s.a + (int)(s.b * 2); }; o[0] = b(); }

kernel void array(global int *o) {
  int a[3] = {1, 2, 3};
  int (^b)(int) = ^(int i){ return a[i] * 10; };
  a[0] = 9;
  o[0] = b(0); o[1] = b(2);
}

kernel void vector(global int *o) {
  int n = 10; int4 v = (int4)(1, 2, 3, 4); float3 w = (float3)(0.5f, 1.5f, 2.5f);
  int (^b)(void) = ^{ return n + v.y + v.w + (int)(w.z * 2); };
  o[0] = b();
}

kernel void local_ptr(global int *o, local int *arg) {
  local int buf[4];
  buf[1] = 9; arg[0] = 100;
  local int *lp = buf;
  int (^b)(void) = ^{ return lp[1] + buf[1] + arg[0]; };
  o[0] = b();
}

kernel void private_ptr(global int *o) { int v = 3; int *pv = &v; int (^b)(void) = ^{ return *pv; }; v = 4; o[0] = b(); }

kernel void nested(global int *o) {
  int n = 5;
  int (^b)(int) = ^(int x){ int m = x * 2; int (^c)(void) = ^{ return n + m; }; return c(); };
  o[0] = b(10);
}

kernel void copy(global int *o) { int k = 4; int (^b)(int) = ^(int x){ return x + k; }; int (^c)(int) = b; o[0] = c(1); }

kernel void loop(global int *o) { for (int i = 0; i < 3; i++) { int (^b)(void) = ^{ return i * i; }; o[i] = b(); } }

kernel void in_function(global int *o) { o[0] = helper(4); }

kernel void local_param(global int *o) {
  local int t[2];
  int k = 6;
  void (^b)(local void *, int) = ^(local void *p, int i){ ((local int *)p)[i] = k * i; };
  b(t, 1);
  o[0] = t[1];
}
