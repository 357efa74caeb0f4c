// Histograms: atomic_add straight into global bins, and per-work-group
// __local bins (kernel-scope array) merged into global with atomic_add after
// a barrier.  Bin counts do not depend on the order of the updates.
#define BINS 32

__kernel void hist_global(__global const uint *data, int n,
                          __global uint *bins) {
  for (int k = get_global_id(0); k < n; k += get_global_size(0))
    atomic_add(&bins[data[k] % BINS], 1u);
}

__kernel void hist_local(__global const uint *data, int n,
                         __global uint *bins) {
  __local uint lbins[BINS];
  int lid = get_local_id(0);
  for (int b = lid; b < BINS; b += get_local_size(0))
    lbins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = get_global_id(0); k < n; k += get_global_size(0))
    atomic_inc(&lbins[(data[k] >> 3) % BINS]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = lid; b < BINS; b += get_local_size(0))
    atomic_add(&bins[b], lbins[b]);
}

// The same with the local bins passed as a __local argument and weighted
// counts.
__kernel void hist_local_arg(__global const uchar *data, __global int *bins,
                             __local int *lbins, int nbins) {
  int lid = get_local_id(0);
  for (int b = lid; b < nbins; b += get_local_size(0))
    lbins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uchar v = data[get_global_id(0)];
  atomic_add(&lbins[v % nbins], (int)(v >> 4) + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = lid; b < nbins; b += get_local_size(0))
    atomic_add(&bins[b], lbins[b]);
}
