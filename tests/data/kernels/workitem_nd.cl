// Work-item functions on 2-D and 3-D NDRanges (with global offsets): every
// query per dimension (a run-time dimension index, so the SPIR-V extracts
// from the builtin vectors dynamically) and the linear ids (which subtract
// the offset).  No out-of-range dimension queries: llvm-spirv-15 turns
// get_global_size(3) into an out-of-bounds OpCompositeExtract.
static void report(__global int *o) {
  for (uint d = 0; d < 3; d++) {
    o[8 * d + 0] = (int)get_global_id(d);
    o[8 * d + 1] = (int)get_local_id(d);
    o[8 * d + 2] = (int)get_group_id(d);
    o[8 * d + 3] = (int)get_global_size(d);
    o[8 * d + 4] = (int)get_local_size(d);
    o[8 * d + 5] = (int)get_num_groups(d);
    o[8 * d + 6] = (int)get_global_offset(d);
    o[8 * d + 7] = (int)d;
  }
  o[24] = (int)get_work_dim();
  o[25] = (int)get_local_linear_id();
  o[26] = (int)(get_global_id(0) - get_global_offset(0));
  o[27] = (int)get_global_linear_id();
}

__kernel void workitem_2d(__global int *out) {
  report(out + 28 * get_global_linear_id());
}

__kernel void workitem_3d(__global int *out) {
  report(out + 28 * get_global_linear_id());
}
