// CUDA twin of workloads/kernels/floydwarshall.s (workloads/floydwarshall.cpp,
// docs/workloads/floydwarshall.md): Pannotia's naive Floyd-Warshall kernel, one launch per
// intermediate vertex k, (16,16) blocks, one thread per matrix entry with i on x and j on y as
// the original; dist is updated in place (plain pointers: plain ld.global). The addresses of
// dist[i][j] and next[i][j] are taken before the update test (the original indexes both
// inside it), so that nvcc forms both with mul.wide.s32 instead of reusing a sign-extended
// index with shl.b64 in the update block.
// Compile: nvcc -ptx -O3 -arch=compute_75 floydwarshall.cu -o floydwarshall.ptx

extern "C" __global__ void floydwarshall(int* dist, int* next, int dim, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < dim && j < dim) {
    int* dij = &dist[i * dim + j];
    int* nij = &next[i * dim + j];
    if (dist[i * dim + k] + dist[k * dim + j] < *dij) {
      *dij = dist[i * dim + k] + dist[k * dim + j];
      *nij = k;
    }
  }
}
