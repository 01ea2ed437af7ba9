// MersenneTwister (the UV paper's "MT", Table 3), after the CUDA SDK sample MersenneTwister
// (docs/workloads/mersenne.md): RandomGPU runs one small Mersenne Twister per generator (the
// dcmt-style parameter sets of MT_NN = 19 words, MT_MM = 9), each thread taking generators
// tid, tid + THREAD_N, ...; its state lives in a per-thread local array. Output j of generator
// g goes to d_Random[g + j * rngCount] as a float in (0, 1]. BoxMullerGPU then turns each pair
// of outputs (j, j + 1) of a generator into two normal deviates in place.
// Kept: the memory spaces (state in .local, the parameter sets read-only from global memory, as
// the SDK's ds_MT), the loop structure and the bit operations. Changed: MT_RNG_COUNT (4096 in
// the SDK) is a parameter, so that small tests can shrink it; logf is __logf (lg2.approx), as
// -use_fast_math would make it, so that the C++ reference can repeat it bit for bit; every float
// operation is an explicit intrinsic in the original's order. CUDA-only.
// Compile: nvcc -ptx -O3 -arch=compute_75 mersenne.cu -o mersenne.ptx

#define MT_MM 9
#define MT_NN 19
#define MT_WMASK 0xFFFFFFFFU
#define MT_UMASK 0xFFFFFFFEU
#define MT_LMASK 0x1U
#define MT_SHIFT0 12
#define MT_SHIFTB 7
#define MT_SHIFTC 15
#define MT_SHIFT1 18
#define PI 3.14159265358979f

// One generator's parameters, as the SDK's mt_struct_stripped.
struct mt_struct_stripped {
  unsigned int matrix_a;
  unsigned int mask_b;
  unsigned int mask_c;
  unsigned int seed;
};

extern "C" __global__ void RandomGPU(float* d_Random, const mt_struct_stripped* __restrict__ d_MT,
                                     int NPerRng, int rngCount) {
  const int tid = blockDim.x * blockIdx.x + threadIdx.x;
  const int THREAD_N = blockDim.x * gridDim.x;
  unsigned int mt[MT_NN];

  for (int iRng = tid; iRng < rngCount; iRng += THREAD_N) {
    // Load the generator's parameters and seed its state (Knuth's initialization).
    const unsigned int matrix_a = d_MT[iRng].matrix_a;
    const unsigned int mask_b = d_MT[iRng].mask_b;
    const unsigned int mask_c = d_MT[iRng].mask_c;
    mt[0] = d_MT[iRng].seed;
    for (int iState = 1; iState < MT_NN; iState++)
      mt[iState] = (1812433253U * (mt[iState - 1] ^ (mt[iState - 1] >> 30)) + iState) & MT_WMASK;

    int iState = 0;
    unsigned int mti1 = mt[0];
    for (int iOut = 0; iOut < NPerRng; iOut++) {
      // The state words i, i + 1 and i + MT_MM, wrapped around MT_NN.
      int iState1 = iState + 1;
      int iStateM = iState + MT_MM;
      if (iState1 >= MT_NN) iState1 -= MT_NN;
      if (iStateM >= MT_NN) iStateM -= MT_NN;
      const unsigned int mti = mti1;
      mti1 = mt[iState1];
      const unsigned int mtiM = mt[iStateM];

      unsigned int x = (mti & MT_UMASK) | (mti1 & MT_LMASK);
      x = mtiM ^ (x >> 1) ^ ((x & 1) ? matrix_a : 0);
      mt[iState] = x;
      iState = iState1;

      // Tempering.
      x ^= (x >> MT_SHIFT0);
      x ^= (x << MT_SHIFTB) & mask_b;
      x ^= (x << MT_SHIFTC) & mask_c;
      x ^= (x >> MT_SHIFT1);

      // Convert to (0, 1] float: (x + 1) / 2^32 (a power of two: the multiply is exact).
      d_Random[iRng + iOut * rngCount] = __fmul_rn(__fadd_rn((float)x, 1.0f), 1.0f / 4294967296.0f);
    }
  }
}

// Box-Muller: (u1, u2) -> (r cos(phi), r sin(phi)), r = sqrt(-2 ln u1), phi = 2 pi u2.
__device__ __forceinline__ void BoxMuller(float& u1, float& u2) {
  const float r = __fsqrt_rn(__fmul_rn(-2.0f, __fmul_rn(__log2f(u1), 0.693147182f)));
  const float phi = __fmul_rn(2.0f * PI, u2);
  u1 = __fmul_rn(r, __cosf(phi));
  u2 = __fmul_rn(r, __sinf(phi));
}

extern "C" __global__ void BoxMullerGPU(float* d_Random, int NPerRng, int rngCount) {
  const int tid = blockDim.x * blockIdx.x + threadIdx.x;
  const int THREAD_N = blockDim.x * gridDim.x;

  for (int iRng = tid; iRng < rngCount; iRng += THREAD_N)
    for (int iOut = 0; iOut < NPerRng; iOut += 2)
      BoxMuller(d_Random[iRng + (iOut + 0) * rngCount], d_Random[iRng + (iOut + 1) * rngCount]);
}
