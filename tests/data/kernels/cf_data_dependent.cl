// Loops whose trip counts depend on the data: Collatz step counts (capped),
// a linear search with early exit, a gcd loop, and a bubble sort of a private
// array with a data-dependent number of passes.
__kernel void cf_collatz(__global const uint *a, __global uint *steps) {
  int i = get_global_id(0);
  uint x = a[i] + 1u;
  uint n = 0;
  while (x != 1u && n < 500u) {
    x = (x & 1u) ? 3u * x + 1u : x >> 1;
    n++;
  }
  steps[i] = n;
}

__kernel void cf_search_gcd(__global const int *hay, __global const int *needle,
                            __global int *pos, __global uint *g) {
  int i = get_global_id(0);
  int want = needle[i];
  int found = -1;
  for (int k = 0; k < 256; k++) {
    if (hay[k] == want) {
      found = k;
      break;
    }
  }
  pos[i] = found;
  uint p = (uint)abs(want) + 1u, q = (uint)abs(hay[i & 255]) + 1u;
  while (q != 0u) {
    uint t = p % q;
    p = q;
    q = t;
  }
  g[i] = p;
}

__kernel void cf_bubble_sort(__global const int *a, __global int *out,
                             __global int *passes) {
  int i = get_global_id(0);
  int v[8];
  for (int k = 0; k < 8; k++)
    v[k] = a[8 * i + k];
  int n = 0;
  int swapped = 1;
  while (swapped) {
    swapped = 0;
    for (int k = 0; k < 7; k++) {
      if (v[k] > v[k + 1]) {
        int t = v[k];
        v[k] = v[k + 1];
        v[k + 1] = t;
        swapped = 1;
      }
    }
    n++;
  }
  for (int k = 0; k < 8; k++)
    out[8 * i + k] = v[k];
  passes[i] = n;
}
