// cl_khr_subgroup_clustered_reduce and cl_khr_subgroup_rotate (issue 20), on 1-D NDRanges:
// clustered reductions in the work-items of odd x only (o[g * 8 + k], k < 6), rotations in all
// (o[g * 4 + k]). Built by clang-15 + llvm-spirv-15 (the command is in README.md here).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void clustered(global const int *in, global const float *fin, global const double *din,
                      global int *o, global float *fo, global double *dout, global long *lo) {
  size_t g = get_global_id(0);
  int x = in[g];
  float f = fin[g];
  double d = din[g];
  long l = (long)x * 0x10001L;
  if (x & 1) {
    o[g * 8 + 0] = sub_group_clustered_reduce_add(x, 2);
    o[g * 8 + 1] = sub_group_clustered_reduce_min(x, 4);
    o[g * 8 + 2] = sub_group_clustered_reduce_max((uint)x, 4);
    o[g * 8 + 3] = sub_group_clustered_reduce_xor(x, 8);
    o[g * 8 + 4] = sub_group_clustered_reduce_logical_or(x & 2, 2);
    o[g * 8 + 5] = sub_group_clustered_reduce_mul(x, 1);
    fo[g] = sub_group_clustered_reduce_add(f, 4);
    dout[g] = sub_group_clustered_reduce_max(d, 2);
    lo[g] = sub_group_clustered_reduce_or(l, 4);
  }
}

kernel void rotate(global const int *in, global const float *fin, global const double *din,
                   global int *o, global float *fo, global double *dout, int delta) {
  size_t g = get_global_id(0);
  o[g * 4 + 0] = sub_group_rotate(in[g], 1);
  o[g * 4 + 1] = sub_group_rotate(in[g], delta);
  o[g * 4 + 2] = sub_group_clustered_rotate(in[g], -1, 4);
  o[g * 4 + 3] = sub_group_clustered_rotate(in[g], delta, 2);
  fo[g] = sub_group_rotate(fin[g], 3);
  dout[g] = sub_group_clustered_rotate(din[g], 1, 8);
}
