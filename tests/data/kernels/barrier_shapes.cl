// Barrier placement: after divergent-but-reconverged code, several barriers
// per kernel rotating data through local memory, a barrier inside a loop
// whose trip count is uniform but loaded from memory, and both fence flags.
__kernel void barrier_after_divergence(__global const int *in, __global int *out) {
  __local int tile[64];
  int lid = get_local_id(0);
  int gid = get_global_id(0);
  int v = in[gid];
  if (lid & 1) {
    for (int k = 0; k < (v & 7); k++)
      v = v * 3 + k;
  } else if (lid % 3 == 0) {
    v = -v;
  } else {
    v ^= 0xff;
  }
  tile[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = tile[63 - lid] + tile[(lid + 1) & 63];
}

__kernel void barrier_many(__global const int *in, __global int *out,
                           __local int *a, __local int *b) {
  int lid = get_local_id(0);
  int n = get_local_size(0);
  int gid = get_global_id(0);
  a[lid] = in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  b[lid] = a[(lid + 1) % n] + lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  a[lid] = b[(lid + n - 3) % n] * 2;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  int t = a[lid] - b[lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  b[n - 1 - lid] = t;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = b[lid] ^ a[(lid * 5) % n];
}

__kernel void barrier_loop_uniform(__global const int *in, __global const int *rounds,
                                   __global int *out) {
  __local int cur[32];
  __local int nxt[32];
  int lid = get_local_id(0);
  int gid = get_global_id(0);
  cur[lid] = in[gid];
  int r = rounds[get_group_id(0)];      // the same for the whole group
  for (int k = 0; k < r; k++) {
    barrier(CLK_LOCAL_MEM_FENCE);
    nxt[lid] = cur[(lid + 31) & 31] + cur[(lid + 1) & 31] - cur[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    cur[lid] = nxt[lid] >> 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = cur[lid];
}
