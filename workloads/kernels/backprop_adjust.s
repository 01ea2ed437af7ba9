// Rodinia backprop (backprop_cuda_kernel.cu), kernel bpnn_adjust_weights_cuda: the weight update
// of the input -> hidden layer, run after bpnn_layerforward_CUDA with the same 16x16 blocks and
// grid (1, in / 16). Thread (tx, ty) of block by updates weight `index` (row index_y =
// HEIGHT*by + ty + 1, column index_x = tx + 1) and its previous change:
//   w[index]   += ETA * delta[index_x] * ly[index_y] + MOMENTUM * oldw[index];
//   oldw[index] =  ETA * delta[index_x] * ly[index_y] + MOMENTUM * oldw[index];
// then __syncthreads, and the threads ty == 0 of block by == 0 update the bias row 0 likewise
// (without ly). ETA = MOMENTUM = 0.3, in single precision here (Rodinia's are double constants,
// so the original computes the update in FP64; docs/workloads/backprop.md). As nvcc compiles it: (ETA * delta) * ly in two
// multiplies, the momentum product contracted into an fma, and, since w and oldw may alias
// (no __restrict__), the operands of the oldw expression loaded again after the store to w.
// Dropped: the unused parameter `in`.
.kernel bpnn_adjust_weights
.regs 16
.param DELTA                      // delta[hid + 1] (hidden_delta)
.param HID                        // hid = 16
.param LY                         // ly[in + 1] (input units)
.param W                          // w[(in + 1) * (hid + 1)] (input_hidden weights)
.param OLDW                       // oldw[(in + 1) * (hid + 1)] (input_prev_weights)
.const ETA 0.3
.const MOMENTUM 0.3

  s2r r0, %ctaid.y                // by
  s2r r1, %tid.x                  // tx
  s2r r2, %tid.y                  // ty
  shl.b32 r3, r0, 4
  add.u32 r3, r3, r2
  add.u32 r3, r3, 1               // index_y = HEIGHT * by + ty + 1
  ld.param.b32 r4, [HID]
  add.u32 r4, r4, 1
  mad.lo.u32 r5, r4, r3, r1
  add.u32 r5, r5, 1               // index = (hid + 1) * index_y + tx + 1
  ld.param.b32 r6, [DELTA]
  shl.b32 r14, r1, 2
  add.u32 r6, r6, r14             // &delta[tx]; delta[index_x] at +4
  ld.param.b32 r7, [LY]
  shl.b32 r15, r3, 2
  add.u32 r7, r7, r15             // &ly[index_y]
  ld.param.b32 r8, [OLDW]
  shl.b32 r9, r5, 2
  add.u32 r10, r8, r9             // &oldw[index]
  ld.param.b32 r11, [W]
  add.u32 r12, r11, r9            // &w[index]
  mov.b32 r13, MOMENTUM
  // w[index] += ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));
  ld.global.b32 r14, [r6+4]
  mul.f32 r14, r14, ETA
  ld.global.b32 r15, [r7]
  mul.f32 r14, r14, r15
  ld.global.b32 r15, [r10]
  fma.f32 r14, r15, r13, r14
  ld.global.b32 r15, [r12]
  add.f32 r15, r15, r14
  st.global.b32 [r12], r15
  // oldw[index] = ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));
  ld.global.b32 r14, [r6+4]
  mul.f32 r14, r14, ETA
  ld.global.b32 r15, [r7]
  mul.f32 r14, r14, r15
  ld.global.b32 r15, [r10]
  fma.f32 r14, r15, r13, r14
  st.global.b32 [r10], r14
  bar.sync 0
  // if (ty == 0 && by == 0)
  or.b32 r3, r2, r0
  setp.ne.b32 p0, r3, 0
  @p0 exit
  shl.b32 r14, r1, 2
  add.u32 r8, r8, r14             // &oldw[tx]; oldw[index_x] at +4
  add.u32 r11, r11, r14           // &w[tx]; w[index_x] at +4
  // w[index_x] += ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
  ld.global.b32 r14, [r6+4]
  mul.f32 r14, r14, ETA
  ld.global.b32 r15, [r8+4]
  fma.f32 r14, r15, r13, r14
  ld.global.b32 r15, [r11+4]
  add.f32 r15, r15, r14
  st.global.b32 [r11+4], r15
  // oldw[index_x] = ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
  ld.global.b32 r14, [r6+4]
  mul.f32 r14, r14, ETA
  ld.global.b32 r15, [r8+4]
  fma.f32 r14, r15, r13, r14
  st.global.b32 [r8+4], r14
  exit
