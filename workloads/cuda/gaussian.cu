// Gaussian elimination (BOW's "Gaussian", Table III, from Rodinia), after Rodinia's gaussian:
// the forward elimination of a dense system A x = b of `size` unknowns, two kernels launched
// once per pivot t = 0 .. size - 2 (docs/workloads/gaussian.md). fan1 computes the multipliers
// of column t, m[i][t] = a[i][t] / a[t][t] for the rows i > t, one thread per row (blocks of
// 512, as the original); fan2 subtracts m[i][t] times row t from every row i > t, columns t ..
// size - 1, and from b[i], one thread per element (2D blocks of 4 x 4, x the row, y the column,
// as the original). Pivots are not exchanged (the host's matrix is diagonally dominant). The
// back substitution runs on the host in the original and is not part of the kernels.
// The update a - m * a' is written as the fma nvcc contracts it to, so that the C++ reference
// repeats its rounding; the division is IEEE (div.rn). CUDA-only.
// Compile: nvcc -ptx -O3 -arch=compute_75 gaussian.cu -o gaussian.ptx

extern "C" __global__ void fan1(float* m, const float* a, int size, int t) {
  const int row = t + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= size) return;
  m[row * size + t] = a[row * size + t] / a[t * size + t];
}

extern "C" __global__ void fan2(const float* m, float* a, float* b, int size, int t) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // row t + 1 + i
  const int j = blockIdx.y * blockDim.y + threadIdx.y;  // column t + j
  if (i >= size - 1 - t || j >= size - t) return;
  const int row = t + 1 + i;
  const float mult = m[row * size + t];
  a[row * size + t + j] = __fmaf_rn(-mult, a[t * size + t + j], a[row * size + t + j]);
  if (j == 0) b[row] = __fmaf_rn(-mult, b[t], b[row]);
}
