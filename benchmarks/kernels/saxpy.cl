// SAXPY, in place: y = a * x + y.
kernel void saxpy(const float a, global const float *x, global float *y,
                  const uint n) {
  size_t i = get_global_id(0);
  if (i < n)
    y[i] = a * x[i] + y[i];
}
