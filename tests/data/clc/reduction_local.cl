// Work-group reduction through __local memory with barriers, a local array
// declared in the kernel and one passed as a kernel argument.
#define WG 64
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduce_sum(global const float *in, global float *partial,
                local float *scratch) {
  local float tile[WG];
  uint lid = get_local_id(0);
  size_t gid = get_global_id(0);
  tile[lid] = in[gid];
  scratch[lid] = in[gid] * in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2; s > 0; s >>= 1) {
    if (lid < s) {
      tile[lid] += tile[lid + s];
      scratch[lid] += scratch[lid + s];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    partial[2 * get_group_id(0)] = tile[0];
    partial[2 * get_group_id(0) + 1] = scratch[0];
  }
  work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE,
                     memory_scope_work_group);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  read_mem_fence(CLK_LOCAL_MEM_FENCE);
  write_mem_fence(CLK_GLOBAL_MEM_FENCE);
}
