// CUDA twin of workloads/kernels/vecadd.s (workloads/vecadd.cpp): c[i] = a[i] + b[i] for i < n,
// one thread per element, 1D blocks; as ../shared/reference/vecadd.cu.
// Compile: nvcc -ptx -O3 -arch=compute_75 vecadd.cu -o vecadd.ptx

extern "C" __global__ void vecadd(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = __fadd_rn(A[i], B[i]);
}
