// Work-group reductions in local memory: a tree sum over a __local argument
// (barrier inside the halving loop), then one partial per group; and a
// max/min reduction over a kernel-scope __local array with a first stage that
// strides over global memory.
#pragma OPENCL FP_CONTRACT OFF

__kernel void reduce_sum_tree(__global const float *in, __global float *partial,
                              __local float *scratch) {
  int lid = get_local_id(0);
  int n = get_local_size(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = n / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = scratch[0];
}

#define WG 64
__kernel void reduce_minmax_strided(__global const int *in, int n,
                                    __global int *out) {
  __local int lmax[WG];
  __local int lmin[WG];
  int lid = get_local_id(0);
  int hi = INT_MIN, lo = INT_MAX;
  for (int k = get_global_id(0); k < n; k += get_global_size(0)) {
    hi = max(hi, in[k]);
    lo = min(lo, in[k]);
  }
  lmax[lid] = hi;
  lmin[lid] = lo;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = WG / 2; s > 0; s >>= 1) {
    if (lid < s) {
      lmax[lid] = max(lmax[lid], lmax[lid + s]);
      lmin[lid] = min(lmin[lid], lmin[lid + s]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    out[2 * get_group_id(0)] = lmax[0];
    out[2 * get_group_id(0) + 1] = lmin[0];
  }
}

// Two-stage reduction in one launch: every group reduces into partial[g];
// the last group to finish (an atomic ticket) adds the partials in group
// order, so the result does not depend on scheduling.
__kernel void reduce_last_group(__global const int *in, __global int *partial,
                                __global uint *ticket, __global int *total,
                                __local int *scratch) {
  __local int is_last;
  int lid = get_local_id(0);
  int n = get_local_size(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = n / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    partial[get_group_id(0)] = scratch[0];
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    uint t = atomic_inc(ticket);
    is_last = (t == get_num_groups(0) - 1);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (is_last && lid == 0) {
    int s = 0;
    for (uint g = 0; g < get_num_groups(0); g++)
      s += atomic_add(&partial[g], 0);
    *total = s;
  }
}
