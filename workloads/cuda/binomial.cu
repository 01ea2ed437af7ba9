// CUDA twin of workloads/kernels/binomial.s (docs/workloads/binomial.md): the CUDA SDK sample
// binomialOptions' binomialOptionsKernel (float version, the CACHE_DELTA tiling): one block of
// CACHE_SIZE = 256 threads per option, NUM_STEPS time steps (a kernel parameter here, a
// compile-time constant in the SDK). The option data {S, X, vDt, puByDf, pdByDf} per option is
// the SDK's __constant__ array (c_OptionData, bound to the buffer "option_data"); the
// OPTION_DATA parameter is kept, unused, so that the parameters match the assembly twin.
// expf is __expf, written as exp2f(x * log2(e)) (ex2.approx.f32). Every float operation is an
// explicit intrinsic in the original's order, with nvcc's contractions of the original
// (S * e - X and puByDf * A[t+1] + pdByDf * A[t] as fma).
// Compile: nvcc -ptx -O3 -arch=compute_75 binomial.cu -o binomial.ptx

#define CACHE_SIZE 256
#define CACHE_DELTA 32
#define CACHE_STEP (CACHE_SIZE - CACHE_DELTA)
#define MAX_OPTIONS 1024  // as the SDK; the buffer behind c_OptionData holds one entry per block
#define LOG2E 1.44269504f

__constant__ float c_OptionData[MAX_OPTIONS * 5];  // {S, X, vDt, puByDf, pdByDf} per option

// Call value at period t: max(S * expf(vDt * (2t - N)) - X, 0)
__device__ __forceinline__ float expiryCallValue(float S, float X, float vDt, int i, int N) {
  const float fi = (float)i;
  const float t = __fsub_rn(__fadd_rn(fi, fi), (float)N);  // 2.0f * i - N
  const float e = exp2f(__fmul_rn(__fmul_rn(vDt, t), LOG2E));
  const float d = __fmaf_rn(S, e, -X);
  return (d > 0.0f) ? d : 0.0f;
}

extern "C" __global__ void binomialOptionsKernel(float* d_CallValue, float* d_CallBuffer,
                                                 const float* d_OptionData, int NUM_STEPS) {
  __shared__ float callA[CACHE_SIZE + 1];
  __shared__ float callB[CACHE_SIZE + 1];
  // Global memory frame for current option: d_Call = &d_CallBuffer[frame] (a 32-bit index)
  const int frame = blockIdx.x * (NUM_STEPS + 16);

  const int tid = threadIdx.x;
  const float S = c_OptionData[blockIdx.x * 5 + 0];
  const float X = c_OptionData[blockIdx.x * 5 + 1];
  const float vDt = c_OptionData[blockIdx.x * 5 + 2];
  const float puByDf = c_OptionData[blockIdx.x * 5 + 3];
  const float pdByDf = c_OptionData[blockIdx.x * 5 + 4];

  // Compute values at expiry date
  for (int i = tid; i <= NUM_STEPS; i += CACHE_SIZE)
    d_CallBuffer[frame + i] = expiryCallValue(S, X, vDt, i, NUM_STEPS);

  // Walk down binomial tree
  // So double-buffer and synchronize to avoid read-after-write hazards.
  for (int i = NUM_STEPS; i > 0; i -= CACHE_DELTA)
    for (int c_base = 0; c_base < i; c_base += CACHE_STEP) {
      // Start and end positions within shared memory cache
      const int c_start = min(CACHE_SIZE - 1, i - c_base);
      const int c_end = c_start - CACHE_DELTA;

      // Read data(with apron) to shared memory
      __syncthreads();
      if (tid <= c_start) callA[tid] = d_CallBuffer[frame + c_base + tid];

      // Calculations within shared memory
      for (int k = c_start - 1; k >= c_end;) {
        // Compute discounted expected value
        __syncthreads();
        callB[tid] = __fmaf_rn(puByDf, callA[tid + 1], __fmul_rn(pdByDf, callA[tid]));
        k--;

        // Compute discounted expected value
        __syncthreads();
        callA[tid] = __fmaf_rn(puByDf, callB[tid + 1], __fmul_rn(pdByDf, callB[tid]));
        k--;
      }

      // Flush shared memory cache
      __syncthreads();
      if (tid <= c_end) d_CallBuffer[frame + c_base + tid] = callA[tid];
    }

  // Write the value at the top of the tree to destination buffer
  if (threadIdx.x == 0) d_CallValue[blockIdx.x] = callA[0];
}
