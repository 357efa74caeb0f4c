// A non-uniform NDRange (OpenCL 2.0): global size 1000 with local size 64
// leaves a last work-group of 40; get_local_size reports the actual size of
// the executing group.  Also a work-group reduction that must cope with it.
__kernel void workitem_nonuniform(__global const int *in, __global int *out,
                                  __global int *sums) {
  __local int part[64];
  int gid = get_global_id(0);
  int lid = get_local_id(0);
  int ls = get_local_size(0);
  out[4 * gid + 0] = ls;
  out[4 * gid + 1] = lid;
  out[4 * gid + 2] = (int)get_group_id(0);
  out[4 * gid + 3] = (int)get_num_groups(0);
  part[lid] = in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    int s = 0;
    for (int k = 0; k < ls; k++)
      s += part[k];
    sums[get_group_id(0)] = s;
  }
}
