// Uniform inner loops run inside out with their induction variable shared by the group: some
// work-items return before the loops, a loop with per-item trip counts runs first, and the
// uniform loop's counter is used after the loop.
__kernel void loop_cuts_uniform(__global const int *in, const int n, __global int *out) {
  const int gid = get_global_id(0);
  const int lid = get_local_id(0);
  if (lid % 5 == 3) {
    out[gid] = -1;
    return;
  }
  int s = 0;
  for (int j = lid; j < 37; j += 4)
    s += in[j % n];
  int k;
  int acc = 0;
  for (k = 0; k < n; k += 3)
    acc += in[k] * (gid + 1);
  out[gid] = s * 1000 + acc + k;
}
