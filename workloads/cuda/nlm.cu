// CUDA twin of workloads/kernels/nlm.s (docs/workloads/nlm.md): the CUDA SDK sample
// imageDenoising's NLM kernel (imageDenoising_nlm_kernel.cuh), NLM_WINDOW_RADIUS 3 and
// NLM_BLOCK_RADIUS 3 (a 7x7 window of 7x7 patches), one thread per pixel, on a single-channel
// float image (vecLen's squared channel differences become one, the colour accumulators one,
// make_color a plain float store). Texture fetches are read-only loads (const __restrict__,
// ld.global.nc) with the texture's clamp addressing written out. __expf(x) is written as
// exp2f(x * log2(e)) (ex2.approx.f32, what __expf compiles to), with the negation folded into
// the constant. Every float operation is an explicit intrinsic, in the original's order and with
// nvcc's contractions of the original (fma where it contracts, separate roundings elsewhere).
// Compile: nvcc -ptx -O3 -arch=compute_75 nlm.cu -o nlm.ptx

#define NLM_WINDOW_RADIUS 3
#define NLM_BLOCK_RADIUS 3
#define INV_NLM_WINDOW_AREA (1.0f / 49.0f)
#define NLM_WEIGHT_THRESHOLD 0.10f
#define NLM_LERP_THRESHOLD 0.10f
#define NEG_LOG2E (-1.44269504f)  // __expf(-x) = ex2(x * -log2(e))

// tex2D(texImage, x + 0.5f, y + 0.5f) with clamp addressing: the texel itself.
__device__ __forceinline__ float tex(const float* __restrict__ src, int x, int y, int imageW,
                                     int imageH) {
  x = min(max(x, 0), imageW - 1);
  y = min(max(y, 0), imageH - 1);
  return __ldg(&src[y * imageW + x]);
}

extern "C" __global__ void nlm(float* dst, int imageW, int imageH, float Noise, float lerpC,
                               const float* __restrict__ src) {
  const int ix = blockDim.x * blockIdx.x + threadIdx.x;
  const int iy = blockDim.y * blockIdx.y + threadIdx.y;
  if (ix < imageW && iy < imageH) {
    float fCount = 0.0f, sumWeights = 0.0f, clr = 0.0f;
    for (int i = -NLM_WINDOW_RADIUS; i <= NLM_WINDOW_RADIUS; i++) {
      for (int j = -NLM_WINDOW_RADIUS; j <= NLM_WINDOW_RADIUS; j++) {
        float weightIJ = 0.0f;
        for (int n = -NLM_BLOCK_RADIUS; n <= NLM_BLOCK_RADIUS; n++)
          for (int m = -NLM_BLOCK_RADIUS; m <= NLM_BLOCK_RADIUS; m++) {
            const float d = __fsub_rn(tex(src, ix + m, iy + n, imageW, imageH),
                                      tex(src, ix + j + m, iy + i + n, imageW, imageH));
            weightIJ = __fmaf_rn(d, d, weightIJ);  // weightIJ += vecLen(...)
          }
        // __expf(-(weightIJ * Noise + (i * i + j * j) * INV_NLM_WINDOW_AREA))
        const float fi = (float)i, fj = (float)j;
        float arg = __fmul_rn(__fmaf_rn(fj, fj, __fmul_rn(fi, fi)), INV_NLM_WINDOW_AREA);
        arg = __fmul_rn(__fmaf_rn(weightIJ, Noise, arg), NEG_LOG2E);
        weightIJ = exp2f(arg);
        clr = __fmaf_rn(tex(src, ix + j, iy + i, imageW, imageH), weightIJ,
                        clr);  // clr += clrIJ * weightIJ
        sumWeights = __fadd_rn(sumWeights, weightIJ);
        // fCount += (weightIJ > NLM_WEIGHT_THRESHOLD) ? INV_NLM_WINDOW_AREA : 0 (fCount >= +0,
        // so adding +0 leaves it unchanged, as the reference's conditional add)
        fCount = __fadd_rn(fCount, (weightIJ > NLM_WEIGHT_THRESHOLD) ? INV_NLM_WINDOW_AREA : 0.0f);
      }
    }
    sumWeights = 1.0f / sumWeights;
    clr = __fmul_rn(clr, sumWeights);
    const float lerpQ = (fCount > NLM_LERP_THRESHOLD) ? lerpC : __fsub_rn(1.0f, lerpC);
    // lerpf(clr, clr00, lerpQ) = clr + (clr00 - clr) * lerpQ, contracted
    clr = __fmaf_rn(__fsub_rn(tex(src, ix, iy, imageW, imageH), clr), lerpQ, clr);
    dst[imageW * iy + ix] = clr;
  }
}
