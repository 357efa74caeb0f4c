// OpenCL 2.0 program-scope __global variables: an initialised scalar and
// array, a zero-initialised counter updated atomically, a struct, and a
// pointer-free read/modify/write from each work-item to its own element.
typedef struct {
  int base;
  float scale;
} Config;

__global int counter;                              // zero-initialised
__global int table[64] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
__global Config cfg = {100, 0.5f};
__global float accum[64];

__kernel void global_vars(__global const int *in, __global int *out,
                          __global float *fout) {
  int i = get_global_id(0);
  int v = in[i];
  atomic_add(&counter, v & 15);
  table[i] += v;                                   // each item its own slot
  accum[i] = (float)table[i] * cfg.scale;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[2 * i] = table[i] + cfg.base;
  fout[i] = accum[i];
  out[2 * i + 1] = table[(i + 32) & 63] - table[i];
}

__kernel void global_counter_readout(__global const int *in, __global int *out) {
  // counter starts at 0 in a fresh program: count then report in the same
  // launch from a single work-group.
  int i = get_global_id(0);
  atomic_add(&counter, in[i]);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    out[0] = atomic_add(&counter, 0);
}
