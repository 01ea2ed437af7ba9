// CUDA twin of workloads/kernels/pathfinder.s (docs/workloads/pathfinder.md): Rodinia
// pathfinder's dynproc_kernel with BLOCK_SIZE 1024 (DARSIE Table 1 "PT"), as in the original:
// one launch advances `iteration` rows of the dynamic program; block bx loads its BLOCK_SIZE
// entries of the previous row (a small block plus a halo of `iteration` on each side) into
// prev[], each iteration computes the still-valid range into result[] and copies it back, with
// the original's __syncthreads placement; the small block then writes gpuResults.
// Int arithmetic only. `computed` starts false (the original leaves it unset when iteration is
// 0, which the workload never launches).
// Compile: nvcc -ptx -O3 -arch=compute_75 pathfinder.cu -o pathfinder.ptx

#define BLOCK_SIZE 1024
#define HALO 1
#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

extern "C" __global__ void pathfinder(int iteration, int* gpuWall, int* gpuSrc, int* gpuResults,
                                      int cols, int rows, int startStep, int border) {
  __shared__ int prev[BLOCK_SIZE];
  __shared__ int result[BLOCK_SIZE];

  const int bx = blockIdx.x;
  const int tx = threadIdx.x;

  // each block finally computes result for a small block after N iterations; it is the
  // non-overlapping small blocks that cover all the input data

  // calculate the small block size
  const int small_block_cols = BLOCK_SIZE - iteration * HALO * 2;

  // calculate the boundary for the block according to the boundary of its small block
  const int blkX = small_block_cols * bx - border;
  const int blkXmax = blkX + BLOCK_SIZE - 1;

  // calculate the global thread coordination
  const int xidx = blkX + tx;

  // effective range within this block that falls within the valid range of the input data,
  // used to rule out computation outside the boundary.
  const int validXmin = (blkX < 0) ? -blkX : 0;
  const int validXmax =
      (blkXmax > cols - 1) ? BLOCK_SIZE - 1 - (blkXmax - cols + 1) : BLOCK_SIZE - 1;

  int W = tx - 1;
  int E = tx + 1;
  W = (W < validXmin) ? validXmin : W;
  E = (E > validXmax) ? validXmax : E;

  const bool isValid = IN_RANGE(tx, validXmin, validXmax);

  if (IN_RANGE(xidx, 0, cols - 1)) prev[tx] = gpuSrc[xidx];
  __syncthreads();   // [Ronny] Added sync to avoid race on prev Aug. 14 2012
  int computed = 0;  // a bool in the original: an int keeps nvcc from a 16-bit flag register
  for (int i = 0; i < iteration; i++) {
    computed = 0;
    if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && isValid) {
      computed = 1;
      const int left = prev[W];
      const int up = prev[tx];
      const int right = prev[E];
      int shortest = MIN(left, up);
      shortest = MIN(shortest, right);
      const int index = cols * (startStep + i) + xidx;
      result[tx] = shortest + gpuWall[index];
    }
    __syncthreads();
    if (i == iteration - 1) break;
    if (computed)  // Assign the computation range
      prev[tx] = result[tx];
    __syncthreads();  // [Ronny] Added sync to avoid race on prev Aug. 14 2012
  }

  // update the global memory: after the last iteration, only threads coordinated within the
  // small block perform the calculation and switch on ``computed''
  if (computed) gpuResults[xidx] = result[tx];
}
