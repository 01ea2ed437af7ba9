// 3x3 median filter (Kim et al. ISCA 2013 "median", Table 1), after the textbook per-pixel
// median (docs/workloads/median.md): one thread per pixel of a width x height grey image
// (one 8-bit value per 32-bit word) in 16 x 16 blocks. A pixel on the image border keeps its
// value (a divergent branch along the border); an interior pixel gathers its 3x3 window into
// its own slots of a shared array (one slot per thread and window position, as the UV
// benchmark N-Queens keeps its stack, so that it does not go to local memory) and sorts them by
// insertion, whose inner loop runs as long as the data says (the divergent branch). The median
// is the sorted window's middle. CUDA-only.
// Compile: nvcc -ptx -O3 -arch=compute_75 median.cu -o median.ptx

#define BX 16  // block width and height (the launch must use them)
#define BY 16
#define THREADS (BX * BY)

extern "C" __global__ void median3x3(const unsigned int* __restrict__ in, unsigned int* out,
                                     int width, int height) {
  __shared__ unsigned int window[9 * THREADS];
  const int t = threadIdx.y * BX + threadIdx.x;
  const int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  if (x >= width || y >= height) return;
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
    out[y * width + x] = in[y * width + x];
    return;
  }
  for (int n = 0; n < 9; n++) {
    // insert pixel n of the window (row-major) into the sorted slots 0 .. n-1
    const unsigned int v = in[(y + n / 3 - 1) * width + x + n % 3 - 1];
    int s = n;
    while (s > 0 && window[(s - 1) * THREADS + t] > v) {
      window[s * THREADS + t] = window[(s - 1) * THREADS + t];
      s--;
    }
    window[s * THREADS + t] = v;
  }
  out[y * width + x] = window[4 * THREADS + t];
}
