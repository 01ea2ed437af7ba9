// CUDA twin of workloads/kernels/srad.s: Rodinia srad_v1's kernel `srad` (srad_kernel.cu),
// NUMBER_THREADS 512, one thread per element ei of the column-major Nr x Nc image: the four
// directional derivatives through the neighbour tables iN/iS/jW/jE, the normalized gradient G2
// and laplacian L, qsqr, and the diffusion coefficient saturated to [0, 1]. Single precision
// throughout (the original's 0.5, 1.0/16.0, 0.25 and 1.0 are doubles), d_Ne an int (a long in
// the original); every float operation an explicit intrinsic in the original's order, the sum
// of squares and 1 + 0.25 * L contracted to fma as nvcc contracts them.
// Compile: nvcc -ptx -O3 -arch=compute_75 srad.cu -o srad.ptx

#define NUMBER_THREADS 512

extern "C" __global__ void srad(float d_lambda, int d_Nr, int d_Nc, int d_Ne, int* d_iN, int* d_iS,
                                int* d_jE, int* d_jW, float* d_dN, float* d_dS, float* d_dE,
                                float* d_dW, float d_q0sqr, float* d_c, float* d_I) {
  // indexes
  const int bx = blockIdx.x;                // get current horizontal block index
  const int tx = threadIdx.x;               // get current horizontal thread index
  const int ei = bx * NUMBER_THREADS + tx;  // more threads than actual elements !!!
  int row = (ei + 1) % d_Nr - 1;            // (0-n) row
  int col = (ei + 1) / d_Nr + 1 - 1;        // (0-n) column
  if ((ei + 1) % d_Nr == 0) {
    row = d_Nr - 1;
    col = col - 1;
  }

  if (ei < d_Ne) {  // make sure that only threads matching jobs run
    // directional derivatives, ICOV, diffusion coefficent
    const float d_Jc = d_I[ei];  // get value of the current element

    // directional derivates (every element of IMAGE) (try to copy to shared memory or temp files)
    const float d_dN_loc =
        __fsub_rn(d_I[d_iN[row] + d_Nr * col], d_Jc);  // north direction derivative
    const float d_dS_loc =
        __fsub_rn(d_I[d_iS[row] + d_Nr * col], d_Jc);  // south direction derivative
    const float d_dW_loc =
        __fsub_rn(d_I[row + d_Nr * d_jW[col]], d_Jc);  // west direction derivative
    const float d_dE_loc =
        __fsub_rn(d_I[row + d_Nr * d_jE[col]], d_Jc);  // east direction derivative

    // normalized discrete gradient mag squared (equ 52,53)
    float d_G2 = __fmul_rn(d_dN_loc, d_dN_loc);
    d_G2 = __fmaf_rn(d_dS_loc, d_dS_loc, d_G2);
    d_G2 = __fmaf_rn(d_dW_loc, d_dW_loc, d_G2);
    d_G2 = __fmaf_rn(d_dE_loc, d_dE_loc, d_G2);
    d_G2 = d_G2 / __fmul_rn(d_Jc, d_Jc);  // gradient (based on derivatives)

    // normalized discrete laplacian (equ 54)
    const float d_L = __fadd_rn(__fadd_rn(__fadd_rn(d_dN_loc, d_dS_loc), d_dW_loc), d_dE_loc) /
                      d_Jc;  // laplacian

    // ICOV (equ 31/35)
    const float d_num =
        __fsub_rn(__fmul_rn(d_G2, 0.5f), __fmul_rn(__fmul_rn(d_L, d_L), 0.0625f));  // num
    float d_den = __fmaf_rn(d_L, 0.25f, 1.0f);                                      // den 1
    const float d_qsqr = d_num / __fmul_rn(d_den, d_den);                           // qsqr

    // diffusion coefficent (equ 33) (every element of IMAGE)
    d_den = __fsub_rn(d_qsqr, d_q0sqr) / __fmul_rn(d_q0sqr, __fadd_rn(d_q0sqr, 1.0f));  // den
    float d_c_loc = 1.0f / __fadd_rn(d_den, 1.0f);  // diffusion coefficient (based on den)

    // saturate diffusion coefficent to 0-1 range
    if (d_c_loc < 0.0f) {         // if diffusion coefficient < 0
      d_c_loc = 0.0f;             // ... set to 0
    } else if (d_c_loc > 1.0f) {  // if diffusion coefficient > 1
      d_c_loc = 1.0f;             // ... set to 1
    }

    // save data to global memory
    d_dN[ei] = d_dN_loc;
    d_dS[ei] = d_dS_loc;
    d_dW[ei] = d_dW_loc;
    d_dE[ei] = d_dE_loc;
    d_c[ei] = d_c_loc;
  }
}
