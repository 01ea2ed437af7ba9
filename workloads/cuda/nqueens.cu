// N-Queens (the UV paper's "NQU", Table 3, from GPGPU-Sim's ISPASS-2009 benchmarks), after the
// public bitmask backtracking solver those benchmarks use (docs/workloads/nqueens.md): the host
// places queens on the first rows of the board in every legal way; each thread takes one such
// partial board (its columns and both diagonals as bitmasks) and counts the completions of the
// remaining `levels` rows by iterative backtracking, its stack held in shared memory with one
// slot per thread and level (as the original, which keeps it out of local memory). A block then
// sums its threads' counts in shared memory and thread 0 writes the block's total.
// Changed: no symmetry halving of the first row (every prefix is enumerated), so that each
// block's total is a plain count. 32-bit integers only. CUDA-only.
// Compile: nvcc -ptx -O3 -arch=compute_75 nqueens.cu -o nqueens.ptx

#define BLOCK 64       // threads per block (the launch must use it)
#define MAX_LEVELS 12  // rows left to each thread, at most

extern "C" __global__ void nqueen(int* d_total, const unsigned int* __restrict__ d_cols,
                                  const unsigned int* __restrict__ d_left,
                                  const unsigned int* __restrict__ d_right, int prefixes,
                                  int levels, unsigned int all) {
  __shared__ unsigned int s_cols[MAX_LEVELS * BLOCK];
  __shared__ unsigned int s_left[MAX_LEVELS * BLOCK];
  __shared__ unsigned int s_right[MAX_LEVELS * BLOCK];
  __shared__ unsigned int s_used[MAX_LEVELS * BLOCK];  // columns tried or blocked at each level
  __shared__ int s_sum[BLOCK];
  const int t = threadIdx.x;
  const int idx = blockIdx.x * BLOCK + t;

  int count = 0;
  if (idx < prefixes) {
    s_cols[t] = d_cols[idx];
    s_left[t] = d_left[idx];
    s_right[t] = d_right[idx];
    s_used[t] = d_cols[idx] | d_left[idx] | d_right[idx];
    int i = 0;
    while (i >= 0) {
      const unsigned int used = s_used[i * BLOCK + t];
      if ((used & all) == all) {  // every column of this row tried: back up
        i--;
        continue;
      }
      const unsigned int bit = (used + 1) & ~used;  // the lowest free column
      s_used[i * BLOCK + t] = used | bit;
      if (i + 1 == levels) {  // the last row: a solution
        count++;
        continue;
      }
      const unsigned int cols = s_cols[i * BLOCK + t] | bit;
      const unsigned int left = (s_left[i * BLOCK + t] | bit) << 1;
      const unsigned int right = (s_right[i * BLOCK + t] | bit) >> 1;
      i++;
      s_cols[i * BLOCK + t] = cols;
      s_left[i * BLOCK + t] = left;
      s_right[i * BLOCK + t] = right;
      s_used[i * BLOCK + t] = cols | left | right;
    }
  }

  // The block's total: a tree over s_sum.
  s_sum[t] = count;
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    if (t < stride) s_sum[t] += s_sum[t + stride];
  }
  if (t == 0) d_total[blockIdx.x] = s_sum[0];
}
