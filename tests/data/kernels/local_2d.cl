// 2-D work-groups over local memory: a tiled transpose through a padded
// kernel-scope __local tile, and a 1-D stencil that loads a halo into a
// __local argument.
#pragma OPENCL FP_CONTRACT OFF
#define T 8

__kernel void transpose_local(__global const float *in, __global float *out,
                              int width, int height) {
  __local float tile[T][T + 1];
  int x = get_global_id(0), y = get_global_id(1);
  int lx = get_local_id(0), ly = get_local_id(1);
  tile[ly][lx] = in[y * width + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  int ox = get_group_id(1) * T + lx;
  int oy = get_group_id(0) * T + ly;
  out[oy * height + ox] = tile[lx][ly];
}

__kernel void stencil_halo(__global const float *in, __global float *out,
                           __local float *halo, int n) {
  int lid = get_local_id(0);
  int ls = get_local_size(0);
  int gid = get_global_id(0);
  halo[lid + 2] = in[gid];
  if (lid < 2) {
    int l = gid - 2;
    int r = gid + ls;
    halo[lid] = l >= 0 ? in[l] : 0.0f;
    halo[ls + 2 + lid] = r < n ? in[r] : 0.0f;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = 0.0625f * halo[lid] + 0.25f * halo[lid + 1] + 0.375f * halo[lid + 2] +
             0.25f * halo[lid + 3] + 0.0625f * halo[lid + 4];
}
