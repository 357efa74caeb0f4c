// Tiled matrix multiply, row-major: C (MxN) = A (MxK) * B (KxN), with 16x16
// tiles of A and B staged in __local memory between two barriers.
#define TS 16
kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void matmul_tiled(const uint M, const uint N, const uint K,
                  global const float *A, global const float *B,
                  global float *C) {
  const uint lx = get_local_id(0);
  const uint ly = get_local_id(1);
  const uint col = get_global_id(0);
  const uint row = get_global_id(1);
  local float As[TS][TS];
  local float Bs[TS][TS];
  float acc = 0.0f;
  for (uint t = 0; t < K; t += TS) {
    As[ly][lx] = (row < M && t + lx < K) ? A[row * K + t + lx] : 0.0f;
    Bs[ly][lx] = (t + ly < K && col < N) ? B[(t + ly) * N + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < TS; k++)
      acc += As[ly][k] * Bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
