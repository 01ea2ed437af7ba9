// CUDA twin of workloads/kernels/fig3.s (workloads/fig3.cpp, DARSIE Fig. 3): every thread
// reads the word of the array BASE indexed by tid.x and stores it to
// OUT[tid.y * ntid.x + tid.x], so that the load is observable.
// Compile: nvcc -ptx -O3 -arch=compute_75 fig3.cu -o fig3.ptx

extern "C" __global__ void fig3(const unsigned* BASE, unsigned* OUT) {
  unsigned v = BASE[threadIdx.x];
  OUT[threadIdx.y * blockDim.x + threadIdx.x] = v;
}
