// Private arrays with run-time indices (allocas in SPIR-V): a lookup table
// filled in a loop, a sliding window, a 2-D private array and an insertion
// sort of 16 elements.
__kernel void private_arrays(__global const int *in, __global int *out,
                             __global int *sorted) {
  int i = get_global_id(0);
  int lut[16];
  for (int k = 0; k < 16; k++)
    lut[k] = (k * 37 + i) & 63;
  int x = in[i];
  int a = lut[x & 15] + lut[(x >> 4) & 15];
  int win[4] = {0, 0, 0, 0};
  int best = 0;
  for (int k = 0; k < 16; k++) {
    win[k & 3] = in[(i + k) & 255];
    int s = win[0] + win[1] + win[2] + win[3];
    best = max(best, s);
  }
  int m[3][3];
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      m[r][c] = in[(i + 3 * r + c) & 255] & 15;
  int det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
            m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
            m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  out[3 * i + 0] = a;
  out[3 * i + 1] = best;
  out[3 * i + 2] = det;
  int v[16];
  for (int k = 0; k < 16; k++)
    v[k] = in[(i * 16 + k) & 255];
  for (int k = 1; k < 16; k++) {
    int key = v[k];
    int j = k - 1;
    while (j >= 0 && v[j] > key) {
      v[j + 1] = v[j];
      j--;
    }
    v[j + 1] = key;
  }
  for (int k = 0; k < 16; k++)
    sorted[16 * i + k] = v[k];
}
