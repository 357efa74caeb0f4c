// Async work-group copies (OpenCL C 6.13.10): global to local, strided global to local, and
// strided local to global, each waited for, with barriers between uses of the local tile.
kernel void async_copy(global const float *in, global float *out, local float *tile, const int stride) {
  const size_t lid = get_local_id(0), size = get_local_size(0), grp = get_group_id(0);
  event_t e = async_work_group_copy(tile, in + grp * size, size, 0);
  wait_group_events(1, &e);
  out[grp * size + lid] = tile[size - 1 - lid] * 2.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(tile, in, size, stride, 0);
  wait_group_events(1, &e);
  float v = tile[lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[lid] = v + 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(out + get_global_size(0) + grp, tile, size, get_num_groups(0), 0);
  wait_group_events(1, &e);
}
