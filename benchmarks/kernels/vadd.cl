// Vector addition: c = a + b (memory bound: two loads, one store per item).
kernel void vadd(global const float *a, global const float *b,
                 global float *c, const uint n) {
  size_t i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}
