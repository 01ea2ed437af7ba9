// CUDA twin of workloads/kernels/dct8x8.s (workloads/dct8x8.cpp, docs/workloads/dct8x8.md):
// the CUDA SDK's CUDAkernel1DCT. One 8x8 block per 8x8 tile, one thread per coefficient: the
// tile goes to shared memory, is multiplied from the left by the DCT matrix (C * A, the 1D DCT
// of every column) into a second shared tile, then from the right ((C * A) * C^T) back into
// the first, which is written out. Three __syncthreads as the original.
// The pixel is a read-only global load (ld.global.nc, through __restrict__; a texture fetch in
// the SDK); the DCT matrix is the __constant__ array c_DCTv8matrix (the workload's buffer
// "dct"), as in the SDK. The DCT parameter stays for the parameter list of dct8x8.s; it is not
// read.
// Each sum is a chain of fused multiply-adds from 0, i = 0..7, as verify() (std::fma).
// Compile: nvcc -ptx -O3 -arch=compute_75 dct8x8.cu -o dct8x8.ptx

__constant__ float c_DCTv8matrix[64];  // DCTv8matrix[n*8+k] = c(k) cos((2n+1) k pi / 16)

extern "C" __global__ void dct8x8(const float* __restrict__ SRC, float* __restrict__ DST,
                                  const float* __restrict__ DCT, int WIDTH) {
  __shared__ float CurBlockLocal1[8][8];
  __shared__ float CurBlockLocal2[8][8];
  (void)DCT;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = (blockIdx.y << 3) + ty, col = (blockIdx.x << 3) + tx;
  const int idx = row * WIDTH + col;

  CurBlockLocal1[ty][tx] = SRC[idx];
  __syncthreads();

  float curelem = 0.0f;
#pragma unroll
  for (int i = 0; i < 8; i++) curelem = __fmaf_rn(c_DCTv8matrix[i * 8 + ty], CurBlockLocal1[i][tx], curelem);
  CurBlockLocal2[ty][tx] = curelem;
  __syncthreads();

  curelem = 0.0f;
#pragma unroll
  for (int i = 0; i < 8; i++) curelem = __fmaf_rn(CurBlockLocal2[ty][i], c_DCTv8matrix[i * 8 + tx], curelem);
  CurBlockLocal1[ty][tx] = curelem;
  __syncthreads();

  DST[idx] = CurBlockLocal1[ty][tx];
}
