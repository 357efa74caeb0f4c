// 5-point stencil on a 2-D row-major grid (one Jacobi step); the border is
// copied unchanged.
kernel void stencil(global const float *in, global float *out,
                    const uint width, const uint height, const float c0,
                    const float c1) {
  const uint x = get_global_id(0);
  const uint y = get_global_id(1);
  if (x >= width || y >= height)
    return;
  const size_t i = (size_t)y * width + x;
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = c0 * in[i] +
           c1 * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
}
