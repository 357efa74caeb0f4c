// Naive matrix multiply, row-major: C (MxN) = A (MxK) * B (KxN).
// Dimension 0 runs along the columns of C so that neighbouring work-items
// read neighbouring elements of B.
kernel void matmul_naive(const uint M, const uint N, const uint K,
                         global const float *A, global const float *B,
                         global float *C) {
  const uint col = get_global_id(0);
  const uint row = get_global_id(1);
  if (row >= M || col >= N)
    return;
  float acc = 0.0f;
  for (uint k = 0; k < K; k++)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}
