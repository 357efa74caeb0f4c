// Every work-item query builtin across all three dimensions.
kernel void work_items(global ulong *out) {
  size_t lin = get_global_linear_id();
  ulong acc = get_work_dim();
  for (uint d = 0; d < 3; ++d) {
    acc = acc * 31 + get_global_id(d);
    acc = acc * 31 + get_global_size(d);
    acc = acc * 31 + get_local_id(d);
    acc = acc * 31 + get_local_size(d);
    acc = acc * 31 + get_enqueued_local_size(d);
    acc = acc * 31 + get_num_groups(d);
    acc = acc * 31 + get_group_id(d);
    acc = acc * 31 + get_global_offset(d);
  }
  out[lin] = acc + get_local_linear_id();
}
