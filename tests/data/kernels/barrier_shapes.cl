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

// Inner loops of a barrier kernel that the executor runs "inside out" (implicit loop cuts):
// a grid-stride loop whose trip count differs by one between work-items, a loop whose start
// depends on the work-item (trip counts from 0 to 14), a nested loop (only the inner one is
// cut) and a loop with two exits (not cut). Then the values are exchanged through __local
// memory across a barrier, so a cut that released the barrier early would show.
__kernel void barrier_loop_cuts(__global const int *in, const int n, __global int *out) {
  __local int share[64];
  const int lid = get_local_id(0);
  const int gid = get_global_id(0);
  const int gsize = get_global_size(0);
  int sum = 0;
  for (int i = gid; i < n; i += gsize)
    sum += in[i];
  int acc = 0;
  for (int j = lid; j < 42; j += 3)
    acc = acc * 31 + j;
  for (int a = 0; a < 3; a++)
    for (int b = lid & 7; b < 9; b++)
      acc += a * b;
  int k = 0;
  while (k < 100) {
    if (in[(gid + k) % n] == 7)
      break;
    k += 1 + (lid & 1);
  }
  share[lid] = sum + acc + k;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = share[(lid + 1) % get_local_size(0)] - share[lid];
}
