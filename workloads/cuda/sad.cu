// Sum of absolute differences (BOW's "SAD", Table III, from Parboil), after Parboil's sad
// benchmark, the motion-estimation step of an H.264 encoder (docs/workloads/sad.md): for every
// 16 x 16 macroblock of the current frame and every displacement (dx, dy) in a search window of
// +-range pixels in the reference frame, the SADs of the macroblock's 16 4 x 4 sub-blocks, then
// of the larger partitions H.264 uses (8x4, 4x8, 8x8, 16x8, 8x16, 16x16) summed from those.
// mb_sad_calc: one block per macroblock, a thread per (4 x 4 sub-block, run of POS_PER_THREAD
// displacements); the thread keeps its sub-block's 16 current pixels in registers and, per
// displacement, reads the 16 reference pixels (coordinates clamped to the frame, as the
// original's clamped texture reads) and accumulates |cur - ref|: register-heavy, as the
// original. larger_sad_calc: a thread per (macroblock, displacement) reads the 16 4 x 4 SADs
// and writes the 25 larger ones (the original splits this into an 8- and a 16-pixel kernel).
// Changed: pixels and SADs are 32-bit words (the translation refuses sub-word accesses),
// read-only global arrays instead of a texture. Integers only. CUDA-only.
// Compile: nvcc -ptx -O3 -arch=compute_75 sad.cu -o sad.ptx

#define POS_PER_THREAD 18  // displacements per thread in mb_sad_calc (the original's value)
#define SHAPES 41          // SADs per macroblock and displacement: 16 4x4 + 25 larger

// sads[((mb * SHAPES) + shape) * npos + pos]; mb = mby * mbw + mbx; pos = (dy + range) *
// (2 range + 1) + (dx + range). Launch: grid (mbw, mbh), block 16 * ceil(npos / POS_PER_THREAD).
extern "C" __global__ void mb_sad_calc(unsigned int* sads, const unsigned int* __restrict__ cur,
                                       const unsigned int* __restrict__ ref, int width, int height,
                                       int range) {
  const int side = 2 * range + 1;
  const int npos = side * side;
  const int sub = threadIdx.x & 15;   // the 4 x 4 sub-block, row-major in the macroblock
  const int run = threadIdx.x >> 4;   // which run of displacements
  const int mb = blockIdx.y * gridDim.x + blockIdx.x;
  const int x0 = blockIdx.x * 16 + (sub & 3) * 4;
  const int y0 = blockIdx.y * 16 + (sub >> 2) * 4;

  unsigned int c[16];  // the sub-block's current pixels
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) c[i * 4 + j] = cur[(y0 + i) * width + x0 + j];

  unsigned int* out = sads + (mb * SHAPES + sub) * npos;
  const int first = run * POS_PER_THREAD;
  const int last = min(first + POS_PER_THREAD, npos);
  for (int pos = first; pos < last; ++pos) {
    const int dy = pos / side - range;
    const int dx = pos % side - range;
    int sad = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int ry = min(max(y0 + dy + i, 0), height - 1);
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int rx = min(max(x0 + dx + j, 0), width - 1);
        sad += abs((int)c[i * 4 + j] - (int)ref[ry * width + rx]);
      }
    }
    out[pos] = sad;
  }
}

// Launch: grid (mbw, mbh), any 1D block; the block's threads stride over the displacements.
extern "C" __global__ void larger_sad_calc(unsigned int* sads, int range) {
  const int side = 2 * range + 1;
  const int npos = side * side;
  const int mb = blockIdx.y * gridDim.x + blockIdx.x;
  unsigned int* base = sads + mb * SHAPES * npos;
  for (int pos = threadIdx.x; pos < npos; pos += blockDim.x) {
    unsigned int s[16];
#pragma unroll
    for (int k = 0; k < 16; ++k) s[k] = base[k * npos + pos];
    int shape = 16;
    // 8 wide x 4 tall: horizontal pairs, row by row.
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int h = 0; h < 2; ++h) base[(shape++) * npos + pos] = s[r * 4 + 2 * h] + s[r * 4 + 2 * h + 1];
    // 4 wide x 8 tall: vertical pairs.
#pragma unroll
    for (int v = 0; v < 2; ++v)
#pragma unroll
      for (int col = 0; col < 4; ++col) base[(shape++) * npos + pos] = s[8 * v + col] + s[8 * v + 4 + col];
    // 8 x 8 quadrants.
    unsigned int q[4];
#pragma unroll
    for (int v = 0; v < 2; ++v)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int k = 8 * v + 2 * h;
        q[v * 2 + h] = s[k] + s[k + 1] + s[k + 4] + s[k + 5];
        base[(shape++) * npos + pos] = q[v * 2 + h];
      }
    // 16 wide x 8 tall (top, bottom), 8 wide x 16 tall (left, right), 16 x 16.
    base[(shape++) * npos + pos] = q[0] + q[1];
    base[(shape++) * npos + pos] = q[2] + q[3];
    base[(shape++) * npos + pos] = q[0] + q[2];
    base[(shape++) * npos + pos] = q[1] + q[3];
    base[(shape++) * npos + pos] = q[0] + q[1] + q[2] + q[3];
  }
}
