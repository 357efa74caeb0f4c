// Work-group exclusive prefix sum: Blelloch up-sweep / down-sweep in __local
// memory (GPU Gems 3, ch. 39). A work-group of L items (L a power of two)
// scans 2*L elements held in tmp (a __local argument of 2*L ints); it writes
// the scanned block to out and the block's total to block_sums[group] (the
// input of the next level of a full scan).
kernel void prefix_sum(global const int *in, global int *out,
                       global int *block_sums, local int *tmp) {
  const uint lid = get_local_id(0);
  const uint grp = get_group_id(0);
  const uint lsz = get_local_size(0);
  const size_t base = (size_t)grp * (2 * lsz);
  tmp[2 * lid] = in[base + 2 * lid];
  tmp[2 * lid + 1] = in[base + 2 * lid + 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint offset = 1;
  for (uint d = lsz; d > 0; d >>= 1) {  // up-sweep: partial sums in place
    if (lid < d) {
      const uint ai = offset * (2 * lid + 1) - 1;
      const uint bi = offset * (2 * lid + 2) - 1;
      tmp[bi] += tmp[ai];
    }
    offset <<= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    block_sums[grp] = tmp[2 * lsz - 1];
    tmp[2 * lsz - 1] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = 1; d <= lsz; d <<= 1) {  // down-sweep
    offset >>= 1;
    if (lid < d) {
      const uint ai = offset * (2 * lid + 1) - 1;
      const uint bi = offset * (2 * lid + 2) - 1;
      const int t = tmp[ai];
      tmp[ai] = tmp[bi];
      tmp[bi] += t;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[base + 2 * lid] = tmp[2 * lid];
  out[base + 2 * lid + 1] = tmp[2 * lid + 1];
}
