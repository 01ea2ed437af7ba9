// CUDA twin of workloads/kernels/matmul_tiled.s (TILE 32, the one workloads/matmul.cpp runs)
// and workloads/kernels/matmul_tiled16.s (TILE 16): C[M x N] = A[M x K] * B[K x N], row-major,
// tiled with shared memory, as ../shared/reference/matmul_tiled.cu. The accumulation is one
// fused multiply-add per k, in ascending order, as matmul.cpp's verify() (std::fma).
// A and B are plain pointers (no __restrict__), as in the reference: plain ld.global.
// Compile: nvcc -ptx -O3 -arch=compute_75 matmul.cu -o matmul.ptx

template <int TILE>
__device__ __forceinline__ void matmulTiled(const float* A, const float* B, float* C, int M, int N,
                                            int K, float (*As)[TILE], float (*Bs)[TILE]) {
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; t++) {
    int ac = t * TILE + tx, br = t * TILE + ty;
    As[ty][tx] = (row < M && ac < K) ? A[row * K + ac] : 0.0f;
    Bs[ty][tx] = (br < K && col < N) ? B[br * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; k++) acc = __fmaf_rn(As[ty][k], Bs[k][tx], acc);
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[32][32];
  __shared__ float Bs[32][32];
  matmulTiled<32>(A, B, C, M, N, K, As, Bs);
}

extern "C" __global__ void matmul_tiled16(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  matmulTiled<16>(A, B, C, M, N, K, As, Bs);
}
