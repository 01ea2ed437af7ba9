// CUDA twin of workloads/kernels/fwt.s (docs/workloads/fwt.md): the CUDA SDK sample
// fastWalshTransform's fwtBatch1Kernel: block b transforms the N = 2^log2N floats at b * N of
// d_Input into d_Output in shared memory, with blockDim.x = N / 4 threads: the strided copy in,
// the radix-4 butterfly stages (stride = N/4, N/16, ..., 1) with a __syncthreads at the top of
// each, the extra radix-2 stage when log2N is odd, the final __syncthreads and the copy out.
// The butterflies' adds and subtracts in the original's order (no products: nothing to
// contract). The shared array is static (N <= 1024) instead of `extern __shared__`.
// Compile: nvcc -ptx -O3 -arch=compute_75 fwt.cu -o fwt.ptx

#define MAX_N 1024

extern "C" __global__ void fwt(float* d_Output, float* d_Input, int log2N) {
  __shared__ float s_data[MAX_N];
  const int N = 1 << log2N;
  const int base = blockIdx.x << log2N;

  for (int pos = threadIdx.x; pos < N; pos += blockDim.x) s_data[pos] = d_Input[base + pos];

  // Main radix-4 stages
  const int pos = threadIdx.x;
  for (int stride = N >> 2; stride > 0; stride >>= 2) {
    const int lo = pos & (stride - 1);
    const int i0 = ((pos - lo) << 2) + lo;
    const int i1 = i0 + stride;
    const int i2 = i1 + stride;
    const int i3 = i2 + stride;

    __syncthreads();
    float D0 = s_data[i0];
    float D1 = s_data[i1];
    float D2 = s_data[i2];
    float D3 = s_data[i3];

    float T;
    T = D0;
    D0 = __fadd_rn(D0, D2);
    D2 = __fsub_rn(T, D2);
    T = D1;
    D1 = __fadd_rn(D1, D3);
    D3 = __fsub_rn(T, D3);
    T = D0;
    s_data[i0] = __fadd_rn(D0, D1);
    s_data[i1] = __fsub_rn(T, D1);
    T = D2;
    s_data[i2] = __fadd_rn(D2, D3);
    s_data[i3] = __fsub_rn(T, D3);
  }

  // Do single radix-2 stage for odd power of two (log2N & 1 in the original; this spelling keeps
  // nvcc from a predicate xor/not sequence)
  if ((log2N >> 1) << 1 != log2N) {
    __syncthreads();
    for (int pos = threadIdx.x; pos < N / 2; pos += blockDim.x) {
      const int i0 = pos << 1;
      const int i1 = i0 + 1;
      const float D0 = s_data[i0];
      const float D1 = s_data[i1];
      s_data[i0] = __fadd_rn(D0, D1);
      s_data[i1] = __fsub_rn(D0, D1);
    }
  }

  __syncthreads();
  for (int pos = threadIdx.x; pos < N; pos += blockDim.x) d_Output[base + pos] = s_data[pos];
}
