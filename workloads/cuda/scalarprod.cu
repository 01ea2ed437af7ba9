// ScalarProduct (the UV paper's "SP", Table 3), after the CUDA SDK sample scalarProd's
// scalarProdGPU (docs/workloads/scalarprod.md): dot products of `vectorN` pairs of vectors of
// `elementN` floats. A block takes vectors blockIdx.x, + gridDim.x, ...; its threads first fold
// each vector into ACCUM_N partial sums (partial i adds elements i, i + ACCUM_N, ...) in
// shared memory, then halve the partials in a tree (a __syncthreads per level) and thread 0
// writes the sum. CUDA-only: there is no hand-written assembly twin.
// The SDK's `sum += d_A[pos] * d_B[pos]` is written as the fma nvcc contracts it to, and the
// tree's adds as __fadd_rn, so that the C++ reference can repeat every rounding.
// Compile: nvcc -ptx -O3 -arch=compute_75 scalarprod.cu -o scalarprod.ptx

#define ACCUM_N 1024  // partial sums per vector (the SDK's value; a power of two)

extern "C" __global__ void scalarProdGPU(float* d_C, const float* __restrict__ d_A,
                                         const float* __restrict__ d_B, int vectorN, int elementN) {
  __shared__ float accumResult[ACCUM_N];

  for (int vec = blockIdx.x; vec < vectorN; vec += gridDim.x) {
    const int vectorBase = elementN * vec;
    const int vectorEnd = vectorBase + elementN;

    // Each thread folds the elements iAccum, iAccum + ACCUM_N, ... of the vector pair.
    for (int iAccum = threadIdx.x; iAccum < ACCUM_N; iAccum += blockDim.x) {
      float sum = 0.0f;
      for (int pos = vectorBase + iAccum; pos < vectorEnd; pos += ACCUM_N)
        sum = __fmaf_rn(d_A[pos], d_B[pos], sum);
      accumResult[iAccum] = sum;
    }

    // Tree reduction of the partials; the barrier orders each level after the previous one.
    for (int stride = ACCUM_N / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      for (int iAccum = threadIdx.x; iAccum < stride; iAccum += blockDim.x)
        accumResult[iAccum] = __fadd_rn(accumResult[iAccum], accumResult[stride + iAccum]);
    }

    __syncthreads();
    // No barrier after this read: only thread 0 writes accumResult[0] next (as in the SDK).
    if (threadIdx.x == 0) d_C[vec] = accumResult[0];
  }
}
