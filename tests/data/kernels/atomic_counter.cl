// Global counters with the OpenCL 1.x atomics: atomic_inc / atomic_dec /
// atomic_add / atomic_sub; only final values (order-independent) are checked,
// plus the sum of the values atomic_inc returned (a permutation of 0..n-1).
__kernel void atomic_counter(__global const int *in, __global int *counters,
                             __global uint *ucounters) {
  int i = get_global_id(0);
  int v = in[i];
  int ticket = atomic_inc(&counters[0]);
  atomic_add(&counters[1], ticket);             // sum of 0..n-1
  atomic_dec(&counters[2]);
  if (v > 0)
    atomic_add(&counters[3], v);
  else
    atomic_sub(&counters[4], v);
  if ((v & 7) == 3)
    atomic_inc(&ucounters[0]);
  atomic_add(&ucounters[1], (uint)v);
  atomic_sub(&ucounters[2], 3u);
}
