// 3D Laplace solver (Kim et al. ISCA 2013 "lps", Table 1/2, the GPGPU-Sim/ISPASS-2009 LPS; the
// BOW paper's LPS), after the public Jacobi sweep of that benchmark (Mike Giles' laplace3d,
// docs/workloads/lps.md): one sweep replaces every interior point of an NX x NY x NZ grid by
// the mean of its six neighbours and copies the boundary points. Blocks of 32 x 4 threads tile
// the x-y plane; each thread walks its column up the z axis. Per plane, the block stages the
// plane's tile and its one-point halo in shared memory (the threads of the first rows load the
// halo: a second, divergent load), waits at a barrier, and each thread takes its x and y
// neighbours from the tile and its z neighbours from global memory. The boundary test (`i == 0
// || ... || k == NZ - 1`) and the halo and edge tests are the divergent branches.
// The sum is written with __fadd_rn in the original's order so that the C++ reference repeats
// every rounding. CUDA-only.
// Compile: nvcc -ptx -O3 -arch=compute_75 lps.cu -o lps.ptx

#define BX 32  // block width (the launch must use it)
#define BY 4   // block height
#define TX (BX + 2)
#define HALO (2 * (BX + BY + 2) - 4)  // halo points of a tile, corners left out (not read)

extern "C" __global__ void laplace3d(int nx, int ny, int nz, const float* __restrict__ u1,
                                     float* __restrict__ u2) {
  __shared__ float tile[TX * (BY + 2)];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.x * BX + tx, j = blockIdx.y * BY + ty;
  const bool active = i < nx && j < ny;
  const int plane = nx * ny;

  // This thread's halo point, if any: threads 0 .. HALO-1 (in row-major order) take the top
  // and bottom rows (BX each), then the left and right columns (BY each).
  const int t = ty * BX + tx;
  int hx = -1, hy = -1;
  if (t < 2 * BX) {
    hx = t % BX;
    hy = t < BX ? -1 : BY;
  } else if (t < HALO) {
    hx = (t - 2 * BX) % 2 == 0 ? -1 : BX;
    hy = (t - 2 * BX) / 2;
  }
  const int gi = blockIdx.x * BX + hx, gj = blockIdx.y * BY + hy;
  const bool halo = t < HALO && gi >= 0 && gi < nx && gj >= 0 && gj < ny;

  int ind = i + j * nx;
  for (int k = 0; k < nz; k++) {
    if (active) tile[(ty + 1) * TX + tx + 1] = u1[ind];
    if (halo) tile[(hy + 1) * TX + hx + 1] = u1[gi + gj * nx + k * plane];
    __syncthreads();
    if (active) {
      const float centre = tile[(ty + 1) * TX + tx + 1];
      float v;
      if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1 || k == 0 || k == nz - 1) {
        v = centre;
      } else {
        v = __fadd_rn(tile[(ty + 1) * TX + tx], tile[(ty + 1) * TX + tx + 2]);
        v = __fadd_rn(v, tile[ty * TX + tx + 1]);
        v = __fadd_rn(v, tile[(ty + 2) * TX + tx + 1]);
        v = __fadd_rn(v, u1[ind - plane]);
        v = __fadd_rn(v, u1[ind + plane]);
        v = __fmul_rn(v, 1.0f / 6.0f);
      }
      u2[ind] = v;
    }
    ind += plane;
    __syncthreads();  // the tile is rewritten for the next plane
  }
}
