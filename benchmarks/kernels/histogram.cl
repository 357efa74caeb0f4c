// 256-bin histogram of bytes.
//
// histogram:       every byte is counted with atomic_inc on the global bins.
// histogram_local: each work-group counts into a __local histogram
//                  (atomic_inc), then merges it into the global bins with
//                  atomic_add.
kernel void histogram(global const uchar *data, const uint n,
                      global uint *bins) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_inc(&bins[data[i]]);
}

kernel void histogram_local(global const uchar *data, const uint n,
                            global uint *bins) {
  local uint lbins[256];
  const uint lid = get_local_id(0);
  const uint lsz = get_local_size(0);
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
