// CUDA twin of workloads/kernels/cp.s (workloads/cp.cpp, docs/workloads/cp.md): Parboil CP's
// cenergy kernel (cuenergy_pre8_coalesce.cu). Coulombic potential on one z-slice of a lattice:
// 16x8 blocks (BLOCKSIZEX x BLOCKSIZEY), UNROLLX = 8 points of one row per thread, 16 points
// apart; for every atom (x, y, dz^2, charge) each point adds charge * rsqrtf(dx^2 + dy^2 + dz^2),
// and the sums are added into the grid (+=) at the end.
// The atoms are the __constant__ array atominfo, as in Parboil (the workload's buffer "atoms");
// the ATOMS parameter stays for the parameter list of cp.s and is not read. __umul24 is a plain
// multiply here (the indices are far below 2^24; mul24 is outside the PTX simtlm translates).
// The float operations are written with explicit roundings in verify()'s order: dy*dy + z,
// dx*dx + dyz2 and the accumulation as fused multiply-adds, the dx chain and the final += as
// separate adds; rsqrtf is PTX rsqrt.approx.f32 (simtlm's rsqrt.f32: 1/sqrt, two roundings, as
// verify() computes).
// Compile: nvcc -ptx -O3 -arch=compute_75 cp.cu -o cp.ptx

#define BLOCKSIZEX 16
#define BLOCKSIZEY 8
#define UNROLLX 8
#define MAXATOMS 4000

__constant__ float4 atominfo[MAXATOMS];  // x, y, dz^2 (precomputed by the host), charge

extern "C" __global__ void cp(const float* atoms, int numatoms, float gridspacing, float* energygrid) {
  (void)atoms;
  const unsigned int xindex = (blockIdx.x * blockDim.x) * UNROLLX + threadIdx.x;
  const unsigned int yindex = blockIdx.y * blockDim.y + threadIdx.y;
  const unsigned int outaddr = (gridDim.x * blockDim.x * UNROLLX) * yindex + xindex;

  const float coory = __fmul_rn(gridspacing, yindex);
  const float coorx = __fmul_rn(gridspacing, xindex);

  float energyvalx1 = 0.0f;
  float energyvalx2 = 0.0f;
  float energyvalx3 = 0.0f;
  float energyvalx4 = 0.0f;
  float energyvalx5 = 0.0f;
  float energyvalx6 = 0.0f;
  float energyvalx7 = 0.0f;
  float energyvalx8 = 0.0f;

  const float gridspacing_coalesce = __fmul_rn(gridspacing, (float)BLOCKSIZEX);

  for (int atomid = 0; atomid < numatoms; atomid++) {
    const float dy = __fsub_rn(coory, atominfo[atomid].y);
    const float dyz2 = __fmaf_rn(dy, dy, atominfo[atomid].z);

    const float dx1 = __fsub_rn(coorx, atominfo[atomid].x);
    const float dx2 = __fadd_rn(dx1, gridspacing_coalesce);
    const float dx3 = __fadd_rn(dx2, gridspacing_coalesce);
    const float dx4 = __fadd_rn(dx3, gridspacing_coalesce);
    const float dx5 = __fadd_rn(dx4, gridspacing_coalesce);
    const float dx6 = __fadd_rn(dx5, gridspacing_coalesce);
    const float dx7 = __fadd_rn(dx6, gridspacing_coalesce);
    const float dx8 = __fadd_rn(dx7, gridspacing_coalesce);

    const float w = atominfo[atomid].w;
    energyvalx1 = __fmaf_rn(w, rsqrtf(__fmaf_rn(dx1, dx1, dyz2)), energyvalx1);
    energyvalx2 = __fmaf_rn(w, rsqrtf(__fmaf_rn(dx2, dx2, dyz2)), energyvalx2);
    energyvalx3 = __fmaf_rn(w, rsqrtf(__fmaf_rn(dx3, dx3, dyz2)), energyvalx3);
    energyvalx4 = __fmaf_rn(w, rsqrtf(__fmaf_rn(dx4, dx4, dyz2)), energyvalx4);
    energyvalx5 = __fmaf_rn(w, rsqrtf(__fmaf_rn(dx5, dx5, dyz2)), energyvalx5);
    energyvalx6 = __fmaf_rn(w, rsqrtf(__fmaf_rn(dx6, dx6, dyz2)), energyvalx6);
    energyvalx7 = __fmaf_rn(w, rsqrtf(__fmaf_rn(dx7, dx7, dyz2)), energyvalx7);
    energyvalx8 = __fmaf_rn(w, rsqrtf(__fmaf_rn(dx8, dx8, dyz2)), energyvalx8);
  }

  energygrid[outaddr] = __fadd_rn(energygrid[outaddr], energyvalx1);
  energygrid[outaddr + 1 * BLOCKSIZEX] = __fadd_rn(energygrid[outaddr + 1 * BLOCKSIZEX], energyvalx2);
  energygrid[outaddr + 2 * BLOCKSIZEX] = __fadd_rn(energygrid[outaddr + 2 * BLOCKSIZEX], energyvalx3);
  energygrid[outaddr + 3 * BLOCKSIZEX] = __fadd_rn(energygrid[outaddr + 3 * BLOCKSIZEX], energyvalx4);
  energygrid[outaddr + 4 * BLOCKSIZEX] = __fadd_rn(energygrid[outaddr + 4 * BLOCKSIZEX], energyvalx5);
  energygrid[outaddr + 5 * BLOCKSIZEX] = __fadd_rn(energygrid[outaddr + 5 * BLOCKSIZEX], energyvalx6);
  energygrid[outaddr + 6 * BLOCKSIZEX] = __fadd_rn(energygrid[outaddr + 6 * BLOCKSIZEX], energyvalx7);
  energygrid[outaddr + 7 * BLOCKSIZEX] = __fadd_rn(energygrid[outaddr + 7 * BLOCKSIZEX], energyvalx8);
}
