// Simplest possible kernel: element-wise float addition with a bounds check.
kernel void vector_add(global const float *a, global const float *b,
                       global float *c, uint n) {
  size_t i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}
