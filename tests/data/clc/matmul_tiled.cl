// 2-D tiled matrix multiply with local-memory tiles and barriers.
#define TS 16
kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void matmul_tiled(const int M, const int N, const int K,
                  global const float *A, global const float *B,
                  global float *C) {
  const int row = get_local_id(0);
  const int col = get_local_id(1);
  const int grow = TS * get_group_id(0) + row;
  const int gcol = TS * get_group_id(1) + col;
  local float As[TS][TS];
  local float Bs[TS][TS];
  float acc = 0.0f;
  const int ntiles = (K + TS - 1) / TS;
  for (int t = 0; t < ntiles; t++) {
    const int tr = TS * t + row;
    const int tc = TS * t + col;
    As[col][row] = (tc < K && grow < M) ? A[tc * M + grow] : 0.0f;
    Bs[col][row] = (tr < K && gcol < N) ? B[gcol * K + tr] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll 4
    for (int k = 0; k < TS; k++)
      acc += As[k][row] * Bs[col][k];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (grow < M && gcol < N)
    C[gcol * M + grow] = acc;
}
