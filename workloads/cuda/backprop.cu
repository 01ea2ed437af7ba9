// CUDA twins of workloads/kernels/backprop.s and backprop_adjust.s (workloads/backprop.cpp,
// docs/workloads/backprop.md): Rodinia backprop's bpnn_layerforward_CUDA and
// bpnn_adjust_weights_cuda, 16x16 blocks, grid (1, in / 16), with the parameters of the .s
// kernels (Rodinia's unused output_hidden_cuda and `in` are dropped).
// The reduction loop is Rodinia's (`i <= __log2f(HEIGHT)`, `power_two = __powf(2, i)`): nvcc
// folds both to constants (no lg2/ex2 in the PTX) and unrolls the 4 steps, each a rem.s32 by
// the folded constant, as backprop.s assumes. (Counting power_two = 2, 4, 8, 16 in integers
// instead makes nvcc test ty % 2 with a mov.pred / xor.pred pair.) ETA and MOMENTUM are floats
// (Rodinia's are double literals; simtlm has no double arithmetic). The float operations are
// written with explicit roundings in verify()'s order: products, tree sums,
// (ETA * delta) * ly, fma(oldw, MOMENTUM, .) and w + . .
// Compile: nvcc -ptx -O3 -arch=compute_75 backprop.cu -o backprop.ptx

#define HEIGHT 16
#define WIDTH 16
#define ETA 0.3f       // eta value (Rodinia: 0.3, a double)
#define MOMENTUM 0.3f  // momentum value (Rodinia: 0.3, a double)

extern "C" __global__ void bpnn_layerforward(float* input_cuda, float* input_hidden_cuda,
                                             float* hidden_partial_sum, int hid) {
  __shared__ float input_node[HEIGHT];
  __shared__ float weight_matrix[HEIGHT][WIDTH];
  const int by = blockIdx.y;
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  const int index_in = HEIGHT * by + ty + 1;

  if (tx == 0) input_node[ty] = input_cuda[index_in];
  __syncthreads();
  weight_matrix[ty][tx] = input_hidden_cuda[index];
  __syncthreads();
  weight_matrix[ty][tx] = __fmul_rn(weight_matrix[ty][tx], input_node[ty]);
  __syncthreads();
#pragma unroll
  for (int i = 1; i <= __log2f(HEIGHT); i++) {
    int power_two = __powf(2, i);
    if (ty % power_two == 0)
      weight_matrix[ty][tx] = __fadd_rn(weight_matrix[ty][tx], weight_matrix[ty + power_two / 2][tx]);
    __syncthreads();
  }
  input_hidden_cuda[index] = weight_matrix[ty][tx];
  __syncthreads();
  if (tx == 0) hidden_partial_sum[by * hid + ty] = weight_matrix[tx][ty];
}

extern "C" __global__ void bpnn_adjust_weights(float* delta, int hid, float* ly, float* w, float* oldw) {
  const int by = blockIdx.y;
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  const int index_y = HEIGHT * by + ty + 1;
  const int index_x = tx + 1;

  w[index] = __fadd_rn(w[index], __fmaf_rn(oldw[index], MOMENTUM, __fmul_rn(__fmul_rn(ETA, delta[index_x]), ly[index_y])));
  oldw[index] = __fmaf_rn(oldw[index], MOMENTUM, __fmul_rn(__fmul_rn(ETA, delta[index_x]), ly[index_y]));
  __syncthreads();
  if (ty == 0 && by == 0) {
    w[index_x] = __fadd_rn(w[index_x], __fmaf_rn(oldw[index_x], MOMENTUM, __fmul_rn(ETA, delta[index_x])));
    oldw[index_x] = __fmaf_rn(oldw[index_x], MOMENTUM, __fmul_rn(ETA, delta[index_x]));
  }
}
