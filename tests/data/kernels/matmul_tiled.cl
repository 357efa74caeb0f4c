// Tiled matrix multiply: kernel-scope __local tiles, two barriers per
// iteration of the tile loop.  C = A (M x K) * B (K x N), row-major, TILE
// divides M, N, K.  No contraction, so the sum order is fixed by the source.
#pragma OPENCL FP_CONTRACT OFF
#define TILE 8

__kernel void matmul_tiled(__global const float *A, __global const float *B,
                           __global float *C, int M, int N, int K) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  int row = get_global_id(1), col = get_global_id(0);
  int ly = get_local_id(1), lx = get_local_id(0);
  float acc = 0.0f;
  for (int t = 0; t < K; t += TILE) {
    As[ly][lx] = A[row * K + t + lx];
    Bs[ly][lx] = B[(t + ly) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; k++)
      acc += As[ly][k] * Bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
}

// Integer variant, tiles passed as __local kernel arguments and a
// tile size taken from get_local_size.
__kernel void matmul_tiled_int(__global const int *A, __global const int *B,
                               __global int *C, int N, __local int *As,
                               __local int *Bs) {
  int ts = get_local_size(0);
  int row = get_global_id(1), col = get_global_id(0);
  int ly = get_local_id(1), lx = get_local_id(0);
  int acc = 0;
  for (int t = 0; t < N; t += ts) {
    As[ly * ts + lx] = A[row * N + t + lx];
    Bs[ly * ts + lx] = B[(t + ly) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < ts; k++)
      acc += As[ly * ts + k] * Bs[k * ts + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
}
