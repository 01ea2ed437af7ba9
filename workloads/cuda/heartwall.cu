// Heart wall tracking (the UV paper's "HT", Table 3, from Rodinia's heartwall), after Rodinia's
// kernel (docs/workloads/heartwall.md): sample points of the inner and outer heart wall are
// tracked across the frames of an ultrasound sequence, one launch per frame, one thread block per
// point. A block loads the point's template (frame 0: cuts it from the frame) and the search
// window of the frame around the point's last position into shared memory, sums the template's
// pixels and squares with a tree reduction, then its threads take the candidate displacements
// (a strided loop, as the original's) and compute each one's normalized cross-correlation
// with the template; a tree reduction finds the best (largest correlation, the lowest
// displacement on a tie), thread 0 moves the point there and records it, and on update frames
// the block blends the template towards the frame's pixels at the new position (Rodinia's
// moving average, alpha 7/8 here). Changed: pixels are 32-bit integers (the translation refuses
// sub-word accesses), the sums are exact integer sums computed directly (the original uses
// float convolution and cumulative sums), and only the final normalization is float, with
// explicit intrinsics (no contraction, IEEE sqrt and division) so that the C++ reference repeats
// each rounding. CUDA-only.
// Compile: nvcc -ptx -O3 -arch=compute_75 heartwall.cu -o heartwall.ptx

#define MAX_T 5                      // template half-size: templates up to 11 x 11
#define MAX_S 8                      // search radius: displacements up to +-8
#define MAX_THREADS 256              // block size, a power of two
#define TSIDE (2 * MAX_T + 1)
#define WSIDE (2 * (MAX_T + MAX_S) + 1)

// frame: this launch's frame (width x height). tmpl: the points' templates, tside^2 each.
// rows, cols: the points' positions, moved in place. track: (row, col) per frame and point;
// score: the best correlation per frame and point. tsize, ssize: template half-size and search
// radius; update: blend the template on frames that are multiples of it (0: never).
extern "C" __global__ void heartwall_track(const int* __restrict__ frame, int* tmpl, int* rows,
                                           int* cols, int* track, float* score, int width,
                                           int height, int tsize, int ssize, int frame_no,
                                           int update) {
  __shared__ int s_win[WSIDE * WSIDE];  // the search window around the point
  __shared__ int s_tmpl[TSIDE * TSIDE];
  __shared__ int s_sum[MAX_THREADS], s_sq[MAX_THREADS];
  __shared__ float s_corr[MAX_THREADS];
  __shared__ int s_pos[MAX_THREADS];

  const int tx = threadIdx.x, nt = blockDim.x, point = blockIdx.x;
  const int tside = 2 * tsize + 1, n = tside * tside;
  const int sside = 2 * ssize + 1, npos = sside * sside;
  const int wside = tside + sside - 1;
  const int row = rows[point], col = cols[point];
  const int top = row - ssize - tsize, left = col - ssize - tsize;

  for (int k = tx; k < wside * wside; k += nt) {
    const int i = k / wside, j = k - i * wside;
    s_win[k] = frame[(top + i) * width + left + j];
  }
  __syncthreads();
  int tsum = 0, tsq = 0;
  for (int k = tx; k < n; k += nt) {
    const int i = k / tside, j = k - i * tside;
    const int t = frame_no == 0 ? s_win[(ssize + i) * wside + ssize + j] : tmpl[point * n + k];
    s_tmpl[k] = t;
    tsum += t;
    tsq += t * t;
  }
  s_sum[tx] = tsum;
  s_sq[tx] = tsq;
  __syncthreads();
  for (int s = nt / 2; s > 0; s >>= 1) {
    if (tx < s) {
      s_sum[tx] += s_sum[tx + s];
      s_sq[tx] += s_sq[tx + s];
    }
    __syncthreads();
  }
  const int sumT = s_sum[0];
  const int varT = n * s_sq[0] - sumT * sumT;

  // Each thread's displacements, in increasing order: the first best is kept.
  float best = -3.0f;
  int bestPos = npos;
  for (int p = tx; p < npos; p += nt) {
    const int dy = p / sside, dx = p - dy * sside;
    int sumI = 0, sumI2 = 0, sumTI = 0;
    for (int i = 0; i < tside; ++i)
      for (int j = 0; j < tside; ++j) {
        const int a = s_win[(dy + i) * wside + dx + j];
        sumI += a;
        sumI2 += a * a;
        sumTI += a * s_tmpl[i * tside + j];
      }
    const int varI = n * sumI2 - sumI * sumI;
    const int num = n * sumTI - sumT * sumI;
    float corr = -2.0f;  // a flat window or template: no match
    if (varI > 0 && varT > 0)
      corr = __fdiv_rn((float)num, __fsqrt_rn(__fmul_rn((float)varT, (float)varI)));
    if (corr > best) {
      best = corr;
      bestPos = p;
    }
  }
  s_corr[tx] = best;
  s_pos[tx] = bestPos;
  __syncthreads();
  for (int s = nt / 2; s > 0; s >>= 1) {
    if (tx < s) {
      const float c = s_corr[tx + s];
      const int q = s_pos[tx + s];
      if (c > s_corr[tx] || (c == s_corr[tx] && q < s_pos[tx])) {
        s_corr[tx] = c;
        s_pos[tx] = q;
      }
    }
    __syncthreads();
  }
  const int p = s_pos[0];
  const int dy = p / sside, dx = p - dy * sside;

  if (tx == 0) {
    const int margin = ssize + tsize;
    const int r = min(max(row + dy - ssize, margin), height - 1 - margin);
    const int c = min(max(col + dx - ssize, margin), width - 1 - margin);
    rows[point] = r;
    cols[point] = c;
    const int slot = frame_no * gridDim.x + point;
    track[2 * slot] = r;
    track[2 * slot + 1] = c;
    score[slot] = s_corr[0];
  }
  // The template: cut from frame 0, blended towards the best match on update frames.
  if (frame_no == 0 || (update > 0 && frame_no % update == 0))
    for (int k = tx; k < n; k += nt) {
      const int i = k / tside, j = k - i * tside;
      const int a = s_win[(dy + i) * wside + dx + j];
      tmpl[point * n + k] = frame_no == 0 ? s_tmpl[k] : (7 * s_tmpl[k] + a + 4) >> 3;
    }
}
