// CUDA twin of workloads/kernels/libor.s: the LIBOR Monte Carlo benchmark LIB of GPGPU-Sim
// (Giles' LIBOR market model), kernel Pathcalc_Portfolio_KernelGPU2 with path_calc and
// portfolio inlined: one path per thread, N = 80 forward rates, Nmat = 40 time steps, Nopt = 15
// swaptions, every Brownian increment z = 0.3 and L starting at 0.05 as the original. The
// per-thread arrays L, z, B, S are local arrays (local memory, indexed by loop counters and by
// the maturities); lambda, maturities and swaprates are the original's __constant__ arrays
// (c_lambda, c_maturities, c_swaprates, bound to the buffers "lambda", "maturities",
// "swaprates"); the pointer parameters are kept, unused, so that the parameters match the
// assembly twin. The loops are kept rolled (#pragma unroll 1), as in the assembly twin.
// __fdividef is an IEEE division here (div.rn.f32, as the assembly twin's div.f32), __expf(x)
// is exp2f(x * log2(e)) (ex2.approx.f32). Every float operation is an explicit intrinsic, in
// the original's order and with nvcc's contractions of the original.
// Compile: nvcc -ptx -O3 -arch=compute_75 libor.cu -o libor.ptx

#define N 80
#define NMAT 40
#define NOPT 15
#define DELTA 0.25f
#define LOG2E 1.44269504f

__constant__ float c_lambda[N];
__constant__ int c_maturities[NOPT];
__constant__ float c_swaprates[NOPT];

// Forward rates L over the first Nmat time steps, with increments z.
__device__ __forceinline__ void path_calc(float* L, const float* z) {
#pragma unroll 1
  for (int n = 0; n < NMAT; n++) {
    const float sqez = __fmul_rn(sqrtf(DELTA), z[n]);
    float v = 0.0f;
#pragma unroll 1
    for (int i = n + 1; i < N; i++) {
      const float lam = c_lambda[i - n - 1];
      const float con1 = __fmul_rn(DELTA, lam);
      // v += __fdividef(con1 * L[i], 1.0 + delta * L[i])
      v = __fadd_rn(v, __fmul_rn(con1, L[i]) / __fmaf_rn(DELTA, L[i], 1.0f));
      // vrat = __expf(con1 * v + lam * (sqez - 0.5 * con1))
      const float x = __fmaf_rn(con1, v, __fmul_rn(lam, __fmaf_rn(-0.5f, con1, sqez)));
      const float vrat = exp2f(__fmul_rn(x, LOG2E));
      L[i] = __fmul_rn(L[i], vrat);
    }
  }
}

// Discounted value of the swaption portfolio.
__device__ __forceinline__ float portfolio(const float* L) {
  float B[N - NMAT], S[N - NMAT];
  float b = 1.0f, s = 0.0f;
#pragma unroll 1
  for (int n = NMAT; n < N; n++) {
    b = b / __fmaf_rn(DELTA, L[n], 1.0f);  // b / (1.0 + delta * L[n])
    s = __fmaf_rn(DELTA, b, s);            // s + delta * b
    B[n - NMAT] = b;
    S[n - NMAT] = s;
  }
  float v = 0.0f;
#pragma unroll 1
  for (int i = 0; i < NOPT; i++) {
    const int m = c_maturities[i] - 1;
    // swapval = B[m] + swaprates[i] * S[m] - 1.0
    const float swapval = __fsub_rn(__fmaf_rn(c_swaprates[i], S[m], B[m]), 1.0f);
    // if (swapval < 0) v += -100.0 * swapval; as a select (nvcc: min.f32): fma(-100, +-0, v) = v
    // for every v but -0, and v starts at +0 and never becomes -0
    v = __fmaf_rn(-100.0f, (swapval < 0.0f) ? swapval : 0.0f, v);
  }
  // apply discount
  b = 1.0f;
#pragma unroll 1
  for (int n = 0; n < NMAT; n++) b = b / __fmaf_rn(DELTA, L[n], 1.0f);
  return __fmul_rn(b, v);
}

extern "C" __global__ void libor(const float* lambda, const int* maturities, const float* swaprates,
                                 float* d_v) {
  const int path = blockDim.x * blockIdx.x + threadIdx.x;
  float L[N], z[N];
  // initialise the data for the current thread
#pragma unroll 1
  for (int i = 0; i < N; i++) {
    // for real application, z should be randomly generated
    z[i] = 0.3f;
    L[i] = 0.05f;
  }
  path_calc(L, z);
  d_v[path] = portfolio(L);
}
