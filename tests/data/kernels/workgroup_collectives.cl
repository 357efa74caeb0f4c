// Work-group collective functions (OpenCL C 2.0 §6.13.15): reductions, scans, broadcast and
// votes, over int, uint, long, ulong and float, in 1-D and 2-D groups, and inside a loop with a
// barrier. PoCL 3.0's CPU device does not link these functions, so the tests compare with Python
// models (tests/jit/collective_oracles.py).

kernel void wg_int(global const int *in, global int *out) {
  const size_t g = get_global_id(0), n = get_global_size(0);
  const int x = in[g];
  out[g] = work_group_reduce_add(x);
  out[n + g] = work_group_scan_inclusive_max(x);
  out[2 * n + g] = work_group_scan_exclusive_min(x);
  out[3 * n + g] = work_group_broadcast(x, get_local_size(0) / 2);
  out[4 * n + g] = work_group_all(x > -90) + 2 * work_group_any(x > 90);
}

kernel void wg_wide(global const uint *in, global const long *lin, global ulong *out) {
  const size_t g = get_global_id(0), n = get_global_size(0);
  const uint u = in[g];
  const long l = lin[g];
  out[g] = work_group_reduce_min(u);
  out[n + g] = work_group_scan_exclusive_max(u);
  out[2 * n + g] = (ulong)work_group_scan_inclusive_add(l);
  out[3 * n + g] = work_group_reduce_max((ulong)l);
  out[4 * n + g] = (ulong)work_group_scan_exclusive_add(l);
}

kernel void wg_float_2d(global const float *in, global float *out) {
  const size_t w = get_global_size(0), n = w * get_global_size(1);
  const size_t g = get_global_id(1) * w + get_global_id(0);
  const float x = in[g];
  out[g] = work_group_reduce_add(x);
  out[n + g] = work_group_scan_inclusive_min(x);
  out[2 * n + g] = work_group_scan_exclusive_max(x);
  out[3 * n + g] = work_group_broadcast(x, 1, get_local_size(1) - 1);
}

// A collective inside a loop whose iterations also pass a barrier: each round scans the
// running values, then shifts them by one work-item through __local memory.
kernel void wg_loop(global const int *in, global int *out, const int rounds) {
  local int share[64];
  const size_t lid = get_local_id(0), size = get_local_size(0), g = get_global_id(0);
  int v = in[g];
  for (int r = 0; r < rounds; r++) {
    v = work_group_scan_inclusive_add(v) & 1023;
    share[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = share[(lid + 1) % size] - r;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[g] = v + work_group_reduce_max(v);
}
