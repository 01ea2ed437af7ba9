// CUDA twin of workloads/kernels/convsep_rows.s and convsep_cols.s (docs/workloads/convsep.md):
// the CUDA SDK sample convolutionTexture's convolutionRowsKernel and convolutionColumnsKernel,
// KERNEL_RADIUS 8 (17 taps), one thread per pixel. The texture fetches are read-only loads
// (const __restrict__, ld.global.nc) with the texture's clamp addressing written out; the
// filter is the SDK's __constant__ c_Kernel (the KERNEL parameter is kept, unused, so that the
// parameters match the assembly twins; the simulator binds c_Kernel to the buffer "kernel").
// The taps are summed in the SDK template's order, c_Kernel[0] at offset +8 first, each step a
// single-rounding fma as nvcc contracts `tex * c_Kernel[i] + rest`.
// Compile: nvcc -ptx -O3 -arch=compute_75 convsep.cu -o convsep.ptx

#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)
#define IMAD(a, b, c) ((a) * (b) + (c))

__constant__ float c_Kernel[KERNEL_LENGTH];

// convolutionRowsKernel: src -> d_Dst, taps along x.
extern "C" __global__ void convsep_rows(float* d_Dst, int imageW, int imageH,
                                        const float* __restrict__ src, const float* kernel) {
  const int ix = IMAD(blockDim.x, blockIdx.x, threadIdx.x);
  const int iy = IMAD(blockDim.y, blockIdx.y, threadIdx.y);
  if (ix >= imageW || iy >= imageH) return;
  const int row = iy * imageW;  // the texture row y
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < KERNEL_LENGTH; ++i) {
    const int x = min(max(ix + (KERNEL_RADIUS - i), 0), imageW - 1);  // clamp addressing
    sum = __fmaf_rn(__ldg(&src[row + x]), c_Kernel[i], sum);
  }
  d_Dst[IMAD(iy, imageW, ix)] = sum;
}

// convolutionColumnsKernel: src (the row pass's output) -> d_Dst, taps along y.
extern "C" __global__ void convsep_cols(float* d_Dst, int imageW, int imageH,
                                        const float* __restrict__ src, const float* kernel) {
  const int ix = IMAD(blockDim.x, blockIdx.x, threadIdx.x);
  const int iy = IMAD(blockDim.y, blockIdx.y, threadIdx.y);
  if (ix >= imageW || iy >= imageH) return;
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < KERNEL_LENGTH; ++i) {
    const int y = min(max(iy + (KERNEL_RADIUS - i), 0), imageH - 1);  // clamp addressing
    sum = __fmaf_rn(__ldg(&src[IMAD(y, imageW, ix)]), c_Kernel[i], sum);
  }
  d_Dst[IMAD(iy, imageW, ix)] = sum;
}
