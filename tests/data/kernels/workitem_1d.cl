// Work-item functions on a 1-D NDRange (used with and without a global
// offset): ids, sizes, group ids, offsets, work_dim, linear ids.
__kernel void workitem_1d(__global int *out) {
  size_t gid = get_global_id(0);
  size_t lin = get_global_linear_id();
  __global int *o = out + 12 * lin;
  o[0] = (int)gid;
  o[1] = (int)get_local_id(0);
  o[2] = (int)get_group_id(0);
  o[3] = (int)get_global_size(0);
  o[4] = (int)get_local_size(0);
  o[5] = (int)get_num_groups(0);
  o[6] = (int)get_global_offset(0);
  o[7] = (int)get_work_dim();
  o[8] = (int)lin;
  o[9] = (int)get_local_linear_id();
  o[10] = (int)get_global_id(1) + 10 * (int)get_global_size(2) + 100 * (int)get_local_size(1);
  o[11] = (int)get_group_id(2) + 10 * (int)get_num_groups(1) + 100 * (int)get_local_id(2);
}
