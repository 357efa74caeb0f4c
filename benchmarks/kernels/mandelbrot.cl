// Mandelbrot escape-time iteration counts, iteration cap 256.
#define MAX_ITER 256
kernel void mandelbrot(global uint *out, const uint width, const uint height,
                       const float x0, const float y0, const float dx,
                       const float dy) {
  const uint px = get_global_id(0);
  const uint py = get_global_id(1);
  if (px >= width || py >= height)
    return;
  const float cr = x0 + px * dx;
  const float ci = y0 + py * dy;
  float zr = 0.0f, zi = 0.0f;
  uint it = 0;
  while (it < MAX_ITER && zr * zr + zi * zi <= 4.0f) {
    const float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    it++;
  }
  out[py * width + px] = it;
}
