// A read of uninitialised __local memory (issue 18's benchmark of the checks): only the even
// work-items fill their slot, and every work-item reads its right neighbour's after the
// barrier, so the odd slots' garbage reaches global memory.
kernel void uninit_local(global const float *data, global float *out, local float *tmp) {
  const uint lid = get_local_id(0);
  const uint gid = get_global_id(0);
  if ((lid & 1) == 0)
    tmp[lid] = data[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = tmp[(lid + 1) % get_local_size(0)] * 2.0f;
}
