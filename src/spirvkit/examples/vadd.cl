// The README's example kernel: c = a + b, one element per work-item.
kernel void vadd(global const float *a, global const float *b, global float *c) {
  const size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
