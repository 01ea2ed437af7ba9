// Needleman-Wunsch (BOW's "NW", Table III, from Rodinia), after Rodinia's nw: the global
// alignment score matrix of two sequences of n residues (docs/workloads/nw.md).
// score[i][j] = max(score[i-1][j-1] + ref[i][j], score[i][j-1] - penalty,
//                   score[i-1][j] - penalty), on an (n + 1) x (n + 1) matrix whose first row and
// column the host fills. The matrix is cut into 16 x 16 tiles; a launch takes one anti-diagonal
// of tiles, so that every tile's north, west and north-west neighbours are done: the first
// kernel sweeps the upper-left triangle of tiles (diagonals 1 .. n/16), the second the
// lower-right one. A block of 16 threads loads its tile's reference scores and the borders it
// depends on into shared memory, then walks the tile's 31 cell anti-diagonals (thread tx takes
// column tx), a __syncthreads after each, and writes the tile back. Integers only. CUDA-only.
// Compile: nvcc -ptx -O3 -arch=compute_75 nw.cu -o nw.ptx

#define TILE 16

__device__ __forceinline__ int best3(int diag, int west, int north) {
  return max(max(diag, west), north);
}

// The tile whose top-left cell (after the border row and column) is (1 + TILE*by, 1 + TILE*bx).
__device__ __forceinline__ void tile(const int* __restrict__ ref, int* score, int cols, int penalty,
                                     int bx, int by) {
  __shared__ int s_score[TILE + 1][TILE + 1];  // the tile with its north and west borders
  __shared__ int s_ref[TILE][TILE];
  const int tx = threadIdx.x;
  const int corner = cols * TILE * by + TILE * bx;  // the north-west neighbour cell
  const int first = corner + cols + 1;              // the tile's first cell

  for (int r = 0; r < TILE; ++r) s_ref[r][tx] = ref[first + r * cols + tx];
  if (tx == 0) s_score[0][0] = score[corner];
  s_score[tx + 1][0] = score[corner + cols * (tx + 1)];  // west border
  s_score[0][tx + 1] = score[corner + 1 + tx];           // north border
  __syncthreads();

  // Cell anti-diagonal d holds the cells (row, col) with row + col = d (0-based in the tile);
  // thread tx computes column tx where it lies on the diagonal.
  for (int d = 0; d < 2 * TILE - 1; ++d) {
    const int row = d - tx;
    if (row >= 0 && row < TILE) {
      const int i = row + 1, j = tx + 1;
      s_score[i][j] = best3(s_score[i - 1][j - 1] + s_ref[row][tx], s_score[i][j - 1] - penalty,
                            s_score[i - 1][j] - penalty);
    }
    __syncthreads();
  }

  for (int r = 0; r < TILE; ++r) score[first + r * cols + tx] = s_score[r + 1][tx + 1];
}

// Tile diagonal `diag` (1 .. tiles) of the upper-left triangle: grid diag blocks.
extern "C" __global__ void nw_upper(const int* __restrict__ ref, int* score, int cols, int penalty,
                                    int diag) {
  tile(ref, score, cols, penalty, blockIdx.x, diag - 1 - blockIdx.x);
}

// Tile diagonal `diag` (tiles - 1 .. 1 blocks) of the lower-right triangle: the blocks take the
// tiles (bx, by) with bx + by = 2 tiles - 1 - diag, bx from tiles - diag.
extern "C" __global__ void nw_lower(const int* __restrict__ ref, int* score, int cols, int penalty,
                                    int diag, int tiles) {
  const int bx = tiles - diag + blockIdx.x;
  tile(ref, score, cols, penalty, bx, 2 * tiles - 1 - diag - bx);
}
