// Rodinia backprop (backprop_cuda_kernel.cu), kernel bpnn_layerforward_CUDA: the input ->
// hidden layer's weighted sums, 16x16 blocks, grid (1, in / 16). Block `by` takes the 16 input
// units 16*by+1 .. 16*by+16 and their 16x17-word rows of input_hidden_cuda (a row per input
// unit, hid + 1 = 17 columns, column 0 the bias, skipped); threads with tx == 0 load the 16
// input units into shared input_node, every thread its weight into weight_matrix[ty][tx],
// multiplies it by input_node[ty], and the block sums the 16 rows in a log2(16) = 4-step tree
// over ty (`if (ty % power_two == 0)`), a __syncthreads after each step. Every weight is
// written back (input_hidden_cuda[index] = weight_matrix[ty][tx]) and, after a last
// __syncthreads, threads tx == 0 write row 0 (the column sums) to hidden_partial_sum.
// As nvcc compiles it: the reduction loop is fully unrolled (nvcc folds __log2f(HEIGHT) = 4
// and __powf(2, i) = 2, 4, 8, 16), so `ty % power_two` is a remainder by a constant power of
// two, an `and` since ty >= 0 (ptxas's folding; nvcc's PTX keeps a rem.s32 of the folded
// constant), and `weight_matrix[ty + power_two/2][tx]` a constant shared-memory offset. index = (hid+1)*index_in + tx + 1 with index_in = HEIGHT*by + ty + 1 (the
// original's (hid+1)*HEIGHT*by + (hid+1)*ty + tx + 1 + (hid+1), factored). Dropped: the
// unused parameters output_hidden_cuda and in.
.kernel bpnn_layerforward
.regs 16
.shared 1088                      // input_node[16] at 0, weight_matrix[16][16] at 64
.param INPUT                      // input_cuda[in + 1]
.param WEIGHTS                    // input_hidden_cuda[(in + 1) * (hid + 1)]
.param PARTIAL                    // hidden_partial_sum[num_blocks * hid]
.param HID                        // hid = 16
.const WM 64                      // weight_matrix's byte offset in shared memory

  s2r r0, %ctaid.y                // by
  s2r r1, %tid.x                  // tx
  s2r r2, %tid.y                  // ty
  shl.b32 r3, r0, 4
  add.u32 r3, r3, r2
  add.u32 r3, r3, 1               // index_in = HEIGHT * by + ty + 1
  ld.param.b32 r4, [HID]
  add.u32 r5, r4, 1               // hid + 1
  mad.lo.u32 r6, r5, r3, r1
  add.u32 r6, r6, 1               // index = (hid + 1) * index_in + tx + 1
  shl.b32 r7, r2, 2               // &input_node[ty]
  // if (tx == 0) input_node[ty] = input_cuda[index_in];
  setp.ne.b32 p0, r1, 0
  @p0 bra loaded
  ld.param.b32 r8, [INPUT]
  shl.b32 r9, r3, 2
  add.u32 r8, r8, r9
  ld.global.b32 r8, [r8]
  st.shared.b32 [r7], r8
loaded:
  bar.sync 0
  // weight_matrix[ty][tx] = input_hidden_cuda[index];
  ld.param.b32 r8, [WEIGHTS]
  shl.b32 r9, r6, 2
  add.u32 r8, r8, r9              // &input_hidden_cuda[index], kept for the write-back
  ld.global.b32 r9, [r8]
  shl.b32 r10, r2, 6
  shl.b32 r11, r1, 2
  add.u32 r10, r10, r11           // ty * 64 + tx * 4: weight_matrix[ty][tx] at WM + r10
  st.shared.b32 [r10+WM], r9
  bar.sync 0
  // weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
  ld.shared.b32 r9, [r10+WM]
  ld.shared.b32 r11, [r7]
  mul.f32 r9, r9, r11
  st.shared.b32 [r10+WM], r9
  bar.sync 0
  // for (int i = 1; i <= __log2f(HEIGHT); i++), fully unrolled: power_two = 2, 4, 8, 16
  and.b32 r14, r2, 1              // ty % 2 (ty >= 0)
  setp.ne.b32 p0, r14, 0
  @p0 bra step2_done              // if (ty % power_two == 0), power_two = 2
  ld.shared.b32 r15, [r10+WM]
  ld.shared.b32 r14, [r10+128]    // weight_matrix[ty + 1][tx]
  add.f32 r15, r15, r14
  st.shared.b32 [r10+WM], r15
step2_done:
  bar.sync 0
  and.b32 r14, r2, 3              // ty % 4 (ty >= 0)
  setp.ne.b32 p0, r14, 0
  @p0 bra step4_done              // if (ty % power_two == 0), power_two = 4
  ld.shared.b32 r15, [r10+WM]
  ld.shared.b32 r14, [r10+192]    // weight_matrix[ty + 2][tx]
  add.f32 r15, r15, r14
  st.shared.b32 [r10+WM], r15
step4_done:
  bar.sync 0
  and.b32 r14, r2, 7              // ty % 8 (ty >= 0)
  setp.ne.b32 p0, r14, 0
  @p0 bra step8_done              // if (ty % power_two == 0), power_two = 8
  ld.shared.b32 r15, [r10+WM]
  ld.shared.b32 r14, [r10+320]    // weight_matrix[ty + 4][tx]
  add.f32 r15, r15, r14
  st.shared.b32 [r10+WM], r15
step8_done:
  bar.sync 0
  and.b32 r14, r2, 15             // ty % 16 (ty >= 0)
  setp.ne.b32 p0, r14, 0
  @p0 bra step16_done             // if (ty % power_two == 0), power_two = 16
  ld.shared.b32 r15, [r10+WM]
  ld.shared.b32 r14, [r10+576]    // weight_matrix[ty + 8][tx]
  add.f32 r15, r15, r14
  st.shared.b32 [r10+WM], r15
step16_done:
  bar.sync 0
  // input_hidden_cuda[index] = weight_matrix[ty][tx];
  ld.shared.b32 r9, [r10+WM]
  st.global.b32 [r8], r9
  bar.sync 0
  // if (tx == 0) hidden_partial_sum[by * hid + ty] = weight_matrix[tx][ty];
  setp.ne.b32 p0, r1, 0
  @p0 exit
  ld.shared.b32 r9, [r7+WM]       // weight_matrix[0][ty]
  mad.lo.u32 r4, r0, r4, r2       // by * hid + ty
  shl.b32 r4, r4, 2
  ld.param.b32 r12, [PARTIAL]
  add.u32 r12, r12, r4
  st.global.b32 [r12], r9
  exit
