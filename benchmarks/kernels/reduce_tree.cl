// Barrier-per-round tree reduction: each work-item loads one element into
// __local scratch, then log2(L) rounds halve the active work-items, with a
// barrier after every round; one partial sum per work-group. Unlike
// reduction.cl (a long grid-stride loop first), the barrier rounds are the
// whole kernel here.
kernel void reduce_tree(global const float *in, global float *partial,
                        local float *scratch) {
  const uint lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = scratch[0];
}
