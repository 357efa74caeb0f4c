// Early returns: some work-items return before writing, others after one or
// two outputs; returns from inside a loop.
__kernel void cf_early_return(__global const int *a, __global int *out) {
  int i = get_global_id(0);
  int x = a[i];
  if (x < 0)
    return;
  out[3 * i] = x * 2;
  if ((x & 3) == 1)
    return;
  for (int k = 0; k < 32; k++) {
    if (((x >> k) & 7) == 7) {
      out[3 * i + 1] = k;
      return;
    }
  }
  out[3 * i + 2] = x ^ 0x1234;
}
