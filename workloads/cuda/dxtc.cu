// DXT1 texture compression (the UV paper's "DT", Table 3), after the CUDA SDK sample dxtc's
// cluster-fit compressor (docs/workloads/dxtc.md). One block of 64 threads per 4x4 pixel block:
// threads 0..15 load a pixel each; the block sums the colours and their covariance in shared
// memory; every thread then finds the principal axis by power iteration (block-uniform work),
// the 16 colours are ranked along it; each thread evaluates 16 of the 1024 orderings
// (`permutations`: a cluster 0..3 per ranked colour, 2 bits each) by least squares for the two
// 565 end points, keeping its best; a tree in shared memory picks the block's best (lowest
// error, then lowest thread) and that thread writes the 64-bit DXT1 block.
// Changed from the SDK: four-colour mode only, unit colour metric, our own ordering table (every
// split of the ranked colours into four consecutive clusters, padded), and every float
// operation an explicit intrinsic so that the C++ reference repeats each rounding. CUDA-only.
// Compile: nvcc -ptx -O3 -arch=compute_75 dxtc.cu -o dxtc.ptx

#define NUM_THREADS 64
#define PERMS_PER_THREAD 16  // 1024 orderings per block

// Sums rows [0, rows) of s[.][16] into s[.][0]: a tree with a barrier before each level.
__device__ __forceinline__ void sum16(float (*s)[16], int rows, int idx) {
  for (int n = 8; n > 0; n >>= 1) {
    __syncthreads();
    if (idx < n)
      for (int k = 0; k < rows; k++) s[k][idx] = __fadd_rn(s[k][idx], s[k][idx + n]);
  }
  __syncthreads();
}

__device__ __forceinline__ float dot3(float ax, float ay, float az, float bx, float by, float bz) {
  return __fadd_rn(__fadd_rn(__fmul_rn(ax, bx), __fmul_rn(ay, by)), __fmul_rn(az, bz));
}

// Quantizes to `levels` (31 or 63) clamped to [0, levels] (the same as clamping v to [0, 1]
// first; written on the integer so that nvcc does not use cvt.sat, which simtlm refuses), and
// expands back as the decoder does.
__device__ __forceinline__ int quantize(float& v, float levels, int bits) {
  const int q = min(max(__float2int_rn(__fmul_rn(v, levels)), 0), (int)levels);
  v = __fmul_rn((float)((q << (8 - bits)) | (q >> (2 * bits - 8))), 1.0f / 255.0f);
  return q;
}

// Per channel: |a alpha + b beta - x|^2 summed over the colours, expanded in the sums.
__device__ __forceinline__ float channelError(float a, float b, float a2, float b2, float ab,
                                              float ax, float bx) {
  const float quad = __fadd_rn(__fmul_rn(__fmul_rn(a, a), a2), __fmul_rn(__fmul_rn(b, b), b2));
  const float lin =
      __fsub_rn(__fsub_rn(__fmul_rn(__fmul_rn(a, b), ab), __fmul_rn(a, ax)), __fmul_rn(b, bx));
  return __fadd_rn(quad, __fmul_rn(2.0f, lin));
}

extern "C" __global__ void compress(const unsigned int* __restrict__ permutations,
                                    const unsigned int* __restrict__ image, unsigned int* result) {
  __shared__ float s_red[6][16];  // reduction rows
  __shared__ float s_col[3][16];  // colours in rank order
  __shared__ float s_dps[16];
  __shared__ int s_xref[16];
  __shared__ float s_err[NUM_THREADS];
  __shared__ int s_idx[NUM_THREADS];
  const int idx = threadIdx.x;
  const int width = gridDim.x * 4;

  // Load: thread i < 16 takes pixel (i & 3, i >> 2) of the block, RGBA8 to floats.
  float r = 0.0f, g = 0.0f, b = 0.0f;
  if (idx < 16) {
    const unsigned int c =
        image[(blockIdx.y * 4 + (idx >> 2)) * width + blockIdx.x * 4 + (idx & 3)];
    r = __fmul_rn((float)(c & 0xff), 1.0f / 255.0f);
    g = __fmul_rn((float)((c >> 8) & 0xff), 1.0f / 255.0f);
    b = __fmul_rn((float)((c >> 16) & 0xff), 1.0f / 255.0f);
    s_red[0][idx] = r;
    s_red[1][idx] = g;
    s_red[2][idx] = b;
  }
  sum16(s_red, 3, idx);
  const float sr = s_red[0][0], sg = s_red[1][0], sb = s_red[2][0];
  __syncthreads();

  // Covariance about the mean.
  if (idx < 16) {
    const float dr = __fsub_rn(r, __fmul_rn(sr, 0.0625f));
    const float dg = __fsub_rn(g, __fmul_rn(sg, 0.0625f));
    const float db = __fsub_rn(b, __fmul_rn(sb, 0.0625f));
    s_red[0][idx] = __fmul_rn(dr, dr);
    s_red[1][idx] = __fmul_rn(dr, dg);
    s_red[2][idx] = __fmul_rn(dr, db);
    s_red[3][idx] = __fmul_rn(dg, dg);
    s_red[4][idx] = __fmul_rn(dg, db);
    s_red[5][idx] = __fmul_rn(db, db);
  }
  sum16(s_red, 6, idx);
  const float m0 = s_red[0][0], m1 = s_red[1][0], m2 = s_red[2][0];
  const float m3 = s_red[3][0], m4 = s_red[4][0], m5 = s_red[5][0];

  // Principal axis: power iteration from (1, 1, 1), normalized by the largest component.
  float vx = 1.0f, vy = 1.0f, vz = 1.0f;
  for (int i = 0; i < 8; i++) {
    const float x = dot3(vx, vy, vz, m0, m1, m2);
    const float y = dot3(vx, vy, vz, m1, m3, m4);
    const float z = dot3(vx, vy, vz, m2, m4, m5);
    const float m = fmaxf(x, fmaxf(y, z));
    if (m > 0.0f) {
      const float iv = __frcp_rn(m);
      vx = __fmul_rn(x, iv);
      vy = __fmul_rn(y, iv);
      vz = __fmul_rn(z, iv);
    }
  }

  // Rank the colours along the axis (ties by pixel index) and store them in rank order.
  if (idx < 16) s_dps[idx] = dot3(r, g, b, vx, vy, vz);
  __syncthreads();
  if (idx < 16) {
    const float d = s_dps[idx];
    int rank = 0;
    for (int j = 0; j < 16; j++) rank += (s_dps[j] < d || (s_dps[j] == d && j < idx)) ? 1 : 0;
    s_xref[idx] = rank;
    s_col[0][rank] = r;
    s_col[1][rank] = g;
    s_col[2][rank] = b;
  }
  __syncthreads();

  // This thread's orderings: least-squares end points, quantized, and their error.
  float bestErr = 3.0e38f;
  unsigned int bestStart = 0, bestEnd = 0, bestPerm = 0;
  for (int p = 0; p < PERMS_PER_THREAD; p++) {
    const unsigned int perm = permutations[idx + NUM_THREADS * p];
    float a2 = 0.0f, b2 = 0.0f, ab = 0.0f, axr = 0.0f, axg = 0.0f, axb = 0.0f;
    for (int k = 0; k < 16; k++) {
      const float beta = __fmul_rn((float)((perm >> (2 * k)) & 3), 1.0f / 3.0f);
      const float alpha = __fsub_rn(1.0f, beta);
      a2 = __fadd_rn(a2, __fmul_rn(alpha, alpha));
      b2 = __fadd_rn(b2, __fmul_rn(beta, beta));
      ab = __fadd_rn(ab, __fmul_rn(alpha, beta));
      axr = __fadd_rn(axr, __fmul_rn(alpha, s_col[0][k]));
      axg = __fadd_rn(axg, __fmul_rn(alpha, s_col[1][k]));
      axb = __fadd_rn(axb, __fmul_rn(alpha, s_col[2][k]));
    }
    const float bxr = __fsub_rn(sr, axr), bxg = __fsub_rn(sg, axg), bxb = __fsub_rn(sb, axb);
    const float factor = __frcp_rn(__fsub_rn(__fmul_rn(a2, b2), __fmul_rn(ab, ab)));
    float ar = __fmul_rn(__fsub_rn(__fmul_rn(axr, b2), __fmul_rn(bxr, ab)), factor);
    float ag = __fmul_rn(__fsub_rn(__fmul_rn(axg, b2), __fmul_rn(bxg, ab)), factor);
    float ab_ = __fmul_rn(__fsub_rn(__fmul_rn(axb, b2), __fmul_rn(bxb, ab)), factor);
    float br = __fmul_rn(__fsub_rn(__fmul_rn(bxr, a2), __fmul_rn(axr, ab)), factor);
    float bg = __fmul_rn(__fsub_rn(__fmul_rn(bxg, a2), __fmul_rn(axg, ab)), factor);
    float bb = __fmul_rn(__fsub_rn(__fmul_rn(bxb, a2), __fmul_rn(axb, ab)), factor);
    const unsigned int start =
        (quantize(ar, 31.0f, 5) << 11) | (quantize(ag, 63.0f, 6) << 5) | quantize(ab_, 31.0f, 5);
    const unsigned int end =
        (quantize(br, 31.0f, 5) << 11) | (quantize(bg, 63.0f, 6) << 5) | quantize(bb, 31.0f, 5);
    const float err = __fadd_rn(__fadd_rn(channelError(ar, br, a2, b2, ab, axr, bxr),
                                          channelError(ag, bg, a2, b2, ab, axg, bxg)),
                                channelError(ab_, bb, a2, b2, ab, axb, bxb));
    if (err < bestErr) {
      bestErr = err;
      bestStart = start;
      bestEnd = end;
      bestPerm = perm;
    }
  }

  // The block's best: lowest error, then lowest thread.
  s_err[idx] = bestErr;
  s_idx[idx] = idx;
  for (int n = NUM_THREADS / 2; n > 0; n >>= 1) {
    __syncthreads();
    if (idx < n) {
      const float e = s_err[idx + n];
      const int i = s_idx[idx + n];
      if (e < s_err[idx] || (e == s_err[idx] && i < s_idx[idx])) {
        s_err[idx] = e;
        s_idx[idx] = i;
      }
    }
  }
  __syncthreads();

  if (idx == s_idx[0]) {
    // Four-colour mode wants start > end; swapping the end points maps cluster q to 3 - q.
    unsigned int start = bestStart, end = bestEnd, perm = bestPerm;
    if (start < end) {
      start = bestEnd;
      end = bestStart;
      perm = ~perm;
    }
    unsigned int indices = 0;
    for (int i = 0; i < 16; i++) {
      const unsigned int q = (perm >> (2 * s_xref[i])) & 3;
      indices |= ((0x78u >> (2 * q)) & 3)
                 << (2 * i);  // cluster 0, 1, 2, 3 -> DXT1 index 0, 2, 3, 1
    }
    const int block = blockIdx.y * gridDim.x + blockIdx.x;
    result[2 * block] = start | (end << 16);
    result[2 * block + 1] = indices;
  }
}
