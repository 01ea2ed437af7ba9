// Fast Walsh transform, as the CUDA SDK sample fastWalshTransform, kernel fwtBatch1Kernel
// (fastWalshTransform_kernel.cuh): block b transforms the N = 2^log2N floats at b * N of d_Src
// into d_Dst, entirely in shared memory, with blockDim.x = N / 4 threads (256 for N = 1024).
// Kept as in the original: the strided copy loops in and out, the radix-4 butterfly stages
// (stride = N/4, N/16, ..., 1) with one bar.sync at the top of each stage, the extra radix-2
// stage when log2N is odd, and the final bar.sync before the copy out. The butterflies'
// adds and subtracts are in the original's order. Simplified: the shared array is static
// (.shared 4096, N <= 1024) instead of `extern __shared__` sized at launch.
.kernel fwt
.regs 26
.shared 4096                      // s_data[N], N <= 1024
.param DST
.param SRC
.param LOG2N

  s2r r0, %tid.x                  // threadIdx.x (pos)
  s2r r1, %ntid.x                 // blockDim.x
  s2r r2, %ctaid.x
  ld.param.b32 r3, [LOG2N]
  mov.b32 r4, 1
  shl.b32 r4, r4, r3              // N = 1 << log2N
  shl.b32 r5, r2, r3              // base = blockIdx.x << log2N
  shl.b32 r5, r5, 2
  ld.param.b32 r6, [SRC]
  add.u32 r6, r6, r5              // d_Src = d_Input + base
  ld.param.b32 r7, [DST]
  add.u32 r7, r7, r5              // d_Dst = d_Output + base
  shl.b32 r8, r1, 2               // blockDim.x * 4: the copy loops' step in bytes
  shl.b32 r9, r4, 2               // N * 4
  // for (pos = threadIdx.x; pos < N; pos += blockDim.x) s_data[pos] = d_Src[pos];
  shl.b32 r10, r0, 2
  setp.ge.u32 p0, r10, r9
  @p0 bra load_done
load_loop:
  add.u32 r11, r6, r10
  ld.global.b32 r12, [r11]
  st.shared.b32 [r10], r12
  add.u32 r10, r10, r8
  setp.lt.u32 p0, r10, r9
  @p0 bra load_loop
load_done:
  // for (stride = N >> 2; stride > 0; stride >>= 2): the radix-4 stages
  shr.u32 r13, r4, 2
  setp.eq.b32 p0, r13, 0
  @p0 bra radix2
stage:
  sub.u32 r14, r13, 1
  and.b32 r14, r0, r14            // lo = pos & (stride - 1)
  sub.u32 r15, r0, r14
  shl.b32 r15, r15, 2
  add.u32 r15, r15, r14           // i0 = ((pos - lo) << 2) + lo
  shl.b32 r15, r15, 2             // &s_data[i0]
  shl.b32 r16, r13, 2             // stride * 4
  add.u32 r17, r15, r16           // &s_data[i1], i1 = i0 + stride
  add.u32 r18, r17, r16           // &s_data[i2]
  add.u32 r19, r18, r16           // &s_data[i3]
  bar.sync 0                      // __syncthreads() at the top of every stage
  ld.shared.b32 r20, [r15]        // D0
  ld.shared.b32 r21, [r17]        // D1
  ld.shared.b32 r22, [r18]        // D2
  ld.shared.b32 r23, [r19]        // D3
  add.f32 r24, r20, r22           // D0' = D0 + D2
  sub.f32 r22, r20, r22           // D2' = D0 - D2
  add.f32 r25, r21, r23           // D1' = D1 + D3
  sub.f32 r23, r21, r23           // D3' = D1 - D3
  add.f32 r20, r24, r25
  st.shared.b32 [r15], r20        // s_data[i0] = D0' + D1'
  sub.f32 r20, r24, r25
  st.shared.b32 [r17], r20        // s_data[i1] = D0' - D1'
  add.f32 r20, r22, r23
  st.shared.b32 [r18], r20        // s_data[i2] = D2' + D3'
  sub.f32 r20, r22, r23
  st.shared.b32 [r19], r20        // s_data[i3] = D2' - D3'
  shr.u32 r13, r13, 2             // stride >>= 2
  setp.ne.b32 p0, r13, 0
  @p0 bra stage
radix2:
  // if (log2N & 1): one radix-2 stage, for (pos = threadIdx.x; pos < N / 2; pos += blockDim.x)
  and.b32 r14, r3, 1
  setp.eq.b32 p0, r14, 0
  @p0 bra copy_out
  bar.sync 0
  shr.u32 r14, r4, 1              // N / 2
  mov.b32 r15, r0                 // pos
  setp.ge.u32 p1, r15, r14
  @p1 bra copy_out
radix2_loop:
  shl.b32 r16, r15, 3             // &s_data[i0], i0 = pos << 1
  ld.shared.b32 r20, [r16]        // D0
  ld.shared.b32 r21, [r16+4]      // D1 = s_data[i0 + 1]
  add.f32 r22, r20, r21
  st.shared.b32 [r16], r22        // s_data[i0] = D0 + D1
  sub.f32 r22, r20, r21
  st.shared.b32 [r16+4], r22      // s_data[i1] = D0 - D1
  add.u32 r15, r15, r1
  setp.lt.u32 p1, r15, r14
  @p1 bra radix2_loop
copy_out:
  bar.sync 0
  // for (pos = threadIdx.x; pos < N; pos += blockDim.x) d_Dst[pos] = s_data[pos];
  shl.b32 r10, r0, 2
  setp.ge.u32 p0, r10, r9
  @p0 bra store_done
store_loop:
  ld.shared.b32 r12, [r10]
  add.u32 r11, r7, r10
  st.global.b32 [r11], r12
  add.u32 r10, r10, r8
  setp.lt.u32 p0, r10, r9
  @p0 bra store_loop
store_done:
  exit
