// CUDA twin of workloads/kernels/hotspot.s (workloads/hotspot.cpp, docs/workloads/hotspot.md):
// Rodinia hotspot's calculate_temp with BLOCK_SIZE 16. One launch runs `iteration` (the
// pyramid height) Jacobi steps of the thermal stencil inside each 16x16 block: the block loads
// its tile of temperature and power into shared memory, every iteration computes the ring that
// is still valid into temp_t, synchronizes, copies temp_t back and synchronizes again (the
// copy and second barrier skipped after the last), and the cells of the small block write
// temp_dst. Same parameters as hotspot.s (Rodinia's unused time_elapsed is not one of them).
// Single precision throughout, with the fused multiply-adds of verify() written out:
// T' = fma(sdc, fma(c, Rz_1, fma(b, Rx_1, fma(a, Ry_1, P))), T),
// a = fma(-2, T, S + N), b = fma(-2, T, E + W), c = amb - T.
// Compile: nvcc -ptx -O3 -arch=compute_75 hotspot.cu -o hotspot.ptx

#define BLOCK_SIZE 16
#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))

extern "C" __global__ void hotspot(int iteration, float* power, float* temp_src, float* temp_dst,
                                   int grid_cols, int grid_rows, int border_cols, int border_rows,
                                   float Cap, float Rx, float Ry, float Rz, float step) {
  __shared__ float temp_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float power_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float temp_t[BLOCK_SIZE][BLOCK_SIZE];

  const float amb_temp = 80.0f;
  const int bx = blockIdx.x, by = blockIdx.y;
  const int tx = threadIdx.x, ty = threadIdx.y;

  const float step_div_Cap = step / Cap;  // div.rn.f32
  const float Rx_1 = 1.0f / Rx, Ry_1 = 1.0f / Ry, Rz_1 = 1.0f / Rz;  // rcp.rn.f32

  // Each block finally computes its small block of the output; the halo around it is
  // recomputed by neighbouring blocks.
  const int small_block_rows = BLOCK_SIZE - iteration * 2;
  const int small_block_cols = BLOCK_SIZE - iteration * 2;
  const int blkY = small_block_rows * by - border_rows;
  const int blkX = small_block_cols * bx - border_cols;
  const int blkYmax = blkY + BLOCK_SIZE - 1;
  const int blkXmax = blkX + BLOCK_SIZE - 1;
  const int yidx = blkY + ty, xidx = blkX + tx;
  const int index = grid_cols * yidx + xidx;

  if (IN_RANGE(yidx, 0, grid_rows - 1) && IN_RANGE(xidx, 0, grid_cols - 1)) {
    temp_on_cuda[ty][tx] = temp_src[index];
    power_on_cuda[ty][tx] = power[index];
  }
  __syncthreads();

  // The valid part of the tile (cells past the chip's edges were not loaded).
  const int validYmin = (blkY < 0) ? -blkY : 0;
  const int validYmax = (blkYmax > grid_rows - 1) ? BLOCK_SIZE - 1 - (blkYmax - grid_rows + 1) : BLOCK_SIZE - 1;
  const int validXmin = (blkX < 0) ? -blkX : 0;
  const int validXmax = (blkXmax > grid_cols - 1) ? BLOCK_SIZE - 1 - (blkXmax - grid_cols + 1) : BLOCK_SIZE - 1;

  int N = ty - 1, S = ty + 1, W = tx - 1, E = tx + 1;
  N = (N < validYmin) ? validYmin : N;
  S = (S > validYmax) ? validYmax : S;
  W = (W < validXmin) ? validXmin : W;
  E = (E > validXmax) ? validXmax : E;

  // The conditions are combined with & (not &&) so that nvcc computes `computed` as one
  // predicate instead of branching (which would give a 16-bit or predicate-constant phi).
  const bool valid = IN_RANGE(tx, validXmin, validXmax) & IN_RANGE(ty, validYmin, validYmax);
  bool computed = false;
  for (int i = 0; i < iteration; i++) {
    computed = IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) & IN_RANGE(ty, i + 1, BLOCK_SIZE - i - 2) & valid;
    if (computed) {
      const float T = temp_on_cuda[ty][tx];
      const float a = __fmaf_rn(-2.0f, T, __fadd_rn(temp_on_cuda[S][tx], temp_on_cuda[N][tx]));
      const float b = __fmaf_rn(-2.0f, T, __fadd_rn(temp_on_cuda[ty][E], temp_on_cuda[ty][W]));
      const float c = __fsub_rn(amb_temp, T);
      float acc = __fmaf_rn(a, Ry_1, power_on_cuda[ty][tx]);
      acc = __fmaf_rn(b, Rx_1, acc);
      acc = __fmaf_rn(c, Rz_1, acc);
      temp_t[ty][tx] = __fmaf_rn(step_div_Cap, acc, T);
    }
    __syncthreads();
    if (i == iteration - 1) break;
    if (computed) temp_on_cuda[ty][tx] = temp_t[ty][tx];
    __syncthreads();
  }
  if (computed) temp_dst[index] = temp_t[ty][tx];
}
