// 256-bin histogram: local atomics, barriers, then merge with global atomics.
kernel void histogram(global const uchar *data, uint n, global uint *bins) {
  local uint lbins[256];
  uint lid = get_local_id(0);
  uint lsz = get_local_size(0);
  for (uint b = lid; b < 256; b += lsz)
    lbins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_inc(&lbins[data[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < 256; b += lsz)
    if (lbins[b])
      atomic_add(&bins[b], lbins[b]);
}
