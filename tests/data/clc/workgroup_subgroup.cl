// OpenCL 2.0 work-group collective functions and cl_khr_subgroups builtins.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void collectives(global const int *in, global int *out,
                        global float *fout) {
  size_t i = get_global_id(0);
  int x = in[i];
  float f = (float)x * 0.5f;
  int a = work_group_reduce_add(x);
  int b = work_group_scan_inclusive_max(x);
  int c = work_group_scan_exclusive_min(x);
  int d = work_group_broadcast(x, 0);
  int e = work_group_all(x > 0) + work_group_any(x < 0);
  float g = work_group_reduce_max(f);
  uint sgs = get_sub_group_size();
  uint sgid = get_sub_group_id();
  uint sglid = get_sub_group_local_id();
  int h = sub_group_reduce_add(x) + sub_group_scan_inclusive_add(x) +
          sub_group_scan_exclusive_max(x) + sub_group_broadcast(x, 0) +
          sub_group_all(x != 0) + sub_group_any(x == 3);
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = a + b + c + d + e + h + (int)(sgs + sgid + sglid +
           get_num_sub_groups() + get_max_sub_group_size());
  fout[i] = g + sub_group_reduce_min(f);
}
