// Prefix sums in local memory: Hillis-Steele inclusive scan (double buffer,
// barrier per step) and Blelloch exclusive scan (up-sweep / down-sweep), both
// per work-group, integers so the result is exact.
__kernel void scan_hillis_steele(__global const int *in, __global int *out,
                                 __local int *buf) {
  int lid = get_local_id(0);
  int n = get_local_size(0);
  int gid = get_global_id(0);
  int src = 0;
  buf[lid] = in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < n; off <<= 1) {
    int v = buf[src * n + lid];
    if (lid >= off)
      v += buf[src * n + lid - off];
    buf[(1 - src) * n + lid] = v;
    src = 1 - src;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[gid] = buf[src * n + lid];
}

#define N 128
__kernel void scan_blelloch(__global const uint *in, __global uint *out,
                            __global uint *totals) {
  __local uint t[N];
  int lid = get_local_id(0);          // N / 2 work-items, two elements each
  int base = get_group_id(0) * N;
  t[2 * lid] = in[base + 2 * lid];
  t[2 * lid + 1] = in[base + 2 * lid + 1];
  int off = 1;
  for (int d = N >> 1; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      int ai = off * (2 * lid + 1) - 1;
      int bi = off * (2 * lid + 2) - 1;
      t[bi] += t[ai];
    }
    off <<= 1;
  }
  if (lid == 0) {
    totals[get_group_id(0)] = t[N - 1];
    t[N - 1] = 0;
  }
  for (int d = 1; d < N; d <<= 1) {
    off >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      int ai = off * (2 * lid + 1) - 1;
      int bi = off * (2 * lid + 2) - 1;
      uint x = t[ai];
      t[ai] = t[bi];
      t[bi] += x;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + 2 * lid] = t[2 * lid];
  out[base + 2 * lid + 1] = t[2 * lid + 1];
}
