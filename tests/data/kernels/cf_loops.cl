// Loop shapes: nested for loops with break and continue at both levels, a
// do-while, a while with a data-dependent exit, a countdown loop.
__kernel void cf_nested_loops(__global const int *a, __global int *out) {
  int i = get_global_id(0);
  int x = a[i];
  int acc = 0;
  for (int p = 0; p < 8; p++) {
    if (p == (x & 7))
      continue;
    for (int q = 0; q < 8; q++) {
      if (q > p)
        break;
      if (((p * q) ^ x) & 1)
        continue;
      acc += p * 8 + q;
      if (acc > (x & 255))
        goto outer_done;
    }
    acc ^= p;
  }
outer_done:
  out[2 * i] = acc;
  int n = 0;
  for (int p = 0; p < 4; p++)
    for (int q = p; q < 6; q++)
      for (int r = 0; r < q; r++)
        n += (p + q + r + x) % 5;
  out[2 * i + 1] = n;
}

__kernel void cf_do_while(__global const uint *a, __global uint *out) {
  int i = get_global_id(0);
  uint x = a[i];
  uint digits = 0, sum = 0;
  do {
    uint q = x / 10u;               // (not x % 10 next to x / 10: that pair
    sum += x - q * 10u;             //  becomes `freeze`, which llvm-spirv-15 rejects)
    x = q;
    digits++;
  } while (x != 0);
  uint y = a[i] | 1u;
  uint steps = 0;
  while (y > 1u && steps < 1000u) {
    y = (y & 1u) ? y - 1u : y / 2u;
    steps++;
  }
  uint c = 0;
  for (int k = 31; k >= 0; k -= 3)
    c += (a[i] >> k) & 1u;
  out[4 * i + 0] = digits;
  out[4 * i + 1] = sum;
  out[4 * i + 2] = steps;
  out[4 * i + 3] = c;
}
