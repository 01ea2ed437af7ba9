// Fast Fourier Transform (the UV paper's "FFT", Table 3: 128 x 128, from the CUDA SDK), after
// the radix-2 shared-memory FFT of the SDK era (docs/workloads/fft.md): a forward 2D complex FFT
// of `images` N x N images as two launches of one kernel, every row, then every column. Each
// line (row or column) is one threadIdx.y slice of a block: its N/2 threads load the line in
// bit-reversed order into shared memory, run the log2(N) butterfly stages (a __syncthreads
// before each, one butterfly per thread per stage, twiddles from a read-only table), and store
// it back in place. Complex values are float2, as cufftComplex.
// Every float operation is an explicit intrinsic (no contraction), so that the C++ reference
// repeats each rounding. CUDA-only.
// Compile: nvcc -ptx -O3 -arch=compute_75 fft.cu -o fft.ptx

#define FFT_SHARED 1024  // complex values per block: blockDim.y lines of N

extern "C" __global__ void fft_radix2(float2* data, const float2* __restrict__ twiddle, int log2N,
                                      int lineStride, int elemStride) {
  __shared__ float s_re[FFT_SHARED];
  __shared__ float s_im[FFT_SHARED];
  const int n = 1 << log2N;
  const int halfN = n >> 1;
  const int t = threadIdx.x;

  // Line `line` of image line / N starts at its first element; rows: lineStride N, elemStride
  // 1; columns: lineStride 1, elemStride N.
  const int line = blockIdx.x * blockDim.y + threadIdx.y;
  const int base = (line >> log2N) * (n << log2N) + (line & (n - 1)) * lineStride;
  float* re = s_re + threadIdx.y * n;
  float* im = s_im + threadIdx.y * n;

  // Load in bit-reversed order (decimation in time).
  for (int k = t; k < n; k += halfN) {
    const float2 v = data[base + k * elemStride];
    const int r = __brev(k) >> (32 - log2N);
    re[r] = v.x;
    im[r] = v.y;
  }

  // Stage s combines pairs `half` = 2^s apart with twiddle W_N^(pos * N / (2 half)).
  for (int s = 0; s < log2N; s++) {
    const int half = 1 << s;
    __syncthreads();
    const int pos = t & (half - 1);
    const int i0 = ((t - pos) << 1) + pos;
    const int i1 = i0 + half;
    const float2 w = twiddle[pos << (log2N - 1 - s)];
    const float br = re[i1], bi = im[i1];
    const float tr = __fsub_rn(__fmul_rn(w.x, br), __fmul_rn(w.y, bi));
    const float ti = __fadd_rn(__fmul_rn(w.x, bi), __fmul_rn(w.y, br));
    const float ar = re[i0], ai = im[i0];
    re[i0] = __fadd_rn(ar, tr);
    im[i0] = __fadd_rn(ai, ti);
    re[i1] = __fsub_rn(ar, tr);
    im[i1] = __fsub_rn(ai, ti);
  }

  __syncthreads();
  for (int k = t; k < n; k += halfN) data[base + k * elemStride] = make_float2(re[k], im[k]);
}
