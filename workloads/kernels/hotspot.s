// HotSpot (Rodinia hotspot.cu, calculate_temp) with BLOCK_SIZE = 16: 16x16 blocks, one launch
// running ITER (the pyramid height) Jacobi steps of the thermal stencil inside the block.
// Each block loads a 16x16 tile of temperature and power (its small block of 16 - 2*ITER cells
// plus a halo of ITER cells) into shared memory; every iteration computes the ring that is
// still valid into temp_t, synchronizes, copies temp_t back and synchronizes again (the
// original's two __syncthreads per iteration, the copy and second barrier skipped after the
// last). The cells of the small block then write temp_dst. Single precision throughout (the
// original's 2.0 and 80.0 are doubles); the products and sums are contracted to fma as nvcc
// does: T' = fma(sdc, fma(c, Rz_1, fma(b, Rx_1, fma(a, Ry_1, P))), T) with
// a = fma(-2, T, S + N), b = fma(-2, T, E + W), c = amb - T.
.kernel hotspot
.regs 40
.shared 3072
.param ITER          // iteration (pyramid height), 1..7
.param POWER         // power[grid_rows][grid_cols]
.param TSRC          // temp_src
.param TDST          // temp_dst
.param COLS          // grid_cols
.param ROWS          // grid_rows
.param BORDER_COLS   // border_cols = ITER
.param BORDER_ROWS   // border_rows = ITER
.param CAP           // Cap (f32)
.param RX            // Rx (f32)
.param RY            // Ry (f32)
.param RZ            // Rz (f32)
.param STEP          // step (f32)
.const BLOCK 16
.const POW_OFF 1024  // power_on_cuda[16][16] after temp_on_cuda[16][16] (at 0)
.const TT_OFF 2048   // temp_t[16][16]

  s2r r0, %tid.x                  // tx
  s2r r1, %tid.y                  // ty
  s2r r2, %ctaid.x                // bx
  s2r r3, %ctaid.y                // by
  ld.param.b32 r4, [STEP]
  ld.param.b32 r5, [CAP]
  div.f32 r4, r4, r5              // step_div_Cap = step / Cap
  ld.param.b32 r5, [RX]
  rcp.f32 r5, r5                  // Rx_1 = 1 / Rx
  ld.param.b32 r6, [RY]
  rcp.f32 r6, r6                  // Ry_1 = 1 / Ry
  ld.param.b32 r7, [RZ]
  rcp.f32 r7, r7                  // Rz_1 = 1 / Rz
  ld.param.b32 r8, [ITER]
  shl.b32 r9, r8, 1
  mov.b32 r10, BLOCK
  sub.u32 r9, r10, r9             // small_block_rows = small_block_cols = BLOCK - 2 * iteration
  ld.param.b32 r10, [BORDER_ROWS]
  mul.lo.u32 r11, r9, r3
  sub.u32 r11, r11, r10           // blkY = small_block_rows * by - border_rows
  ld.param.b32 r10, [BORDER_COLS]
  mul.lo.u32 r12, r9, r2
  sub.u32 r12, r12, r10           // blkX = small_block_cols * bx - border_cols
  add.u32 r13, r11, r1            // yidx = blkY + ty
  add.u32 r14, r12, r0            // xidx = blkX + tx
  ld.param.b32 r15, [COLS]
  ld.param.b32 r16, [ROWS]
  mad.lo.u32 r17, r15, r13, r14   // index = grid_cols * yidx + xidx
  shl.b32 r17, r17, 2             // (its byte offset; used only when in range)
  shl.b32 r18, r1, 6              // ty * 64: row ty of a 16x16 shared tile
  shl.b32 r19, r0, 2              // tx * 4
  add.u32 r20, r18, r19           // &temp_on_cuda[ty][tx]

  // if (IN_RANGE(yidx, 0, grid_rows-1) && IN_RANGE(xidx, 0, grid_cols-1)): load both tiles
  // (an unsigned compare tests both bounds of IN_RANGE)
  setp.lt.u32 p0, r13, r16
  setp.lt.u32 p1, r14, r15
  pand p0, p0, p1
  ld.param.b32 r21, [TSRC]
  add.u32 r21, r21, r17
  @p0 ld.global.b32 r22, [r21]
  @p0 st.shared.b32 [r20], r22            // temp_on_cuda[ty][tx] = temp_src[index]
  ld.param.b32 r21, [POWER]
  add.u32 r21, r21, r17
  @p0 ld.global.b32 r22, [r21]
  @p0 st.shared.b32 [r20+POW_OFF], r22    // power_on_cuda[ty][tx] = power[index]
  bar.sync 0

  // Valid range of the tile: validYmin = blkY < 0 ? -blkY : 0 = max(-blkY, 0);
  // validYmax = blkYmax > grid_rows-1 ? BLOCK-1-(blkYmax-grid_rows+1) : BLOCK-1
  //           = min(grid_rows - 1 - blkY, BLOCK - 1); the same along x.
  neg.s32 r21, r11
  max.s32 r21, r21, 0             // validYmin
  sub.u32 r22, r16, r11
  sub.u32 r22, r22, 1
  min.s32 r22, r22, 15            // validYmax
  neg.s32 r23, r12
  max.s32 r23, r23, 0             // validXmin
  sub.u32 r24, r15, r12
  sub.u32 r24, r24, 1
  min.s32 r24, r24, 15            // validXmax
  // N = max(ty-1, validYmin), S = min(ty+1, validYmax), W = max(tx-1, validXmin),
  // E = min(tx+1, validXmax), as shared addresses of the four neighbours
  sub.u32 r25, r1, 1
  max.s32 r25, r25, r21
  shl.b32 r25, r25, 6
  add.u32 r25, r25, r19           // &temp_on_cuda[N][tx]
  add.u32 r26, r1, 1
  min.s32 r26, r26, r22
  shl.b32 r26, r26, 6
  add.u32 r26, r26, r19           // &temp_on_cuda[S][tx]
  sub.u32 r27, r0, 1
  max.s32 r27, r27, r23
  shl.b32 r27, r27, 2
  add.u32 r27, r27, r18           // &temp_on_cuda[ty][W]
  add.u32 r28, r0, 1
  min.s32 r28, r28, r24
  shl.b32 r28, r28, 2
  add.u32 r28, r28, r18           // &temp_on_cuda[ty][E]
  // IN_RANGE(tx, validXmin, validXmax) && IN_RANGE(ty, validYmin, validYmax): loop-invariant
  setp.ge.s32 p1, r0, r23
  setp.le.s32 p2, r0, r24
  pand p1, p1, p2
  setp.ge.s32 p2, r1, r21
  pand p1, p1, p2
  setp.le.s32 p2, r1, r22
  pand p1, p1, p2
  mov.b32 r29, 80.0               // amb_temp
  mov.b32 r37, -2.0
  mov.b32 r30, 0                  // i = 0

loop:                             // for (i = 0; i < iteration; i++)
  add.u32 r31, r30, 1             // i + 1
  mov.b32 r32, 14
  sub.u32 r32, r32, r30           // BLOCK - i - 2
  setp.ge.s32 p3, r0, r31         // computed = IN_RANGE(tx, i+1, BLOCK-i-2)
  setp.le.s32 p4, r0, r32
  pand p3, p3, p4
  setp.ge.s32 p4, r1, r31         //   && IN_RANGE(ty, i+1, BLOCK-i-2)
  pand p3, p3, p4
  setp.le.s32 p4, r1, r32
  pand p3, p3, p4
  pand p3, p3, p1                 //   && in the valid range
  @!p3 bra synced
  ld.shared.b32 r33, [r20]        // T = temp_on_cuda[ty][tx]
  ld.shared.b32 r34, [r20+POW_OFF]  // power_on_cuda[ty][tx]
  ld.shared.b32 r35, [r26]        // temp_on_cuda[S][tx]
  ld.shared.b32 r36, [r25]        // temp_on_cuda[N][tx]
  add.f32 r35, r35, r36
  fma.f32 r35, r37, r33, r35      // a = S + N - 2 T
  ld.shared.b32 r36, [r28]        // temp_on_cuda[ty][E]
  ld.shared.b32 r38, [r27]        // temp_on_cuda[ty][W]
  add.f32 r36, r36, r38
  fma.f32 r36, r37, r33, r36      // b = E + W - 2 T
  sub.f32 r38, r29, r33           // c = amb_temp - T
  fma.f32 r34, r35, r6, r34       // power + a * Ry_1
  fma.f32 r34, r36, r5, r34       //       + b * Rx_1
  fma.f32 r34, r38, r7, r34       //       + c * Rz_1
  fma.f32 r34, r4, r34, r33       // T + step_div_Cap * (...)
  st.shared.b32 [r20+TT_OFF], r34   // temp_t[ty][tx]
synced:
  bar.sync 0
  add.u32 r30, r30, 1
  setp.ge.s32 p4, r30, r8
  @p4 bra done                    // if (i == iteration - 1) break
  @p3 ld.shared.b32 r33, [r20+TT_OFF]
  @p3 st.shared.b32 [r20], r33    // if (computed) temp_on_cuda[ty][tx] = temp_t[ty][tx]
  bar.sync 0
  bra loop

done:
  @!p3 exit                       // if (computed) temp_dst[index] = temp_t[ty][tx]
  ld.shared.b32 r33, [r20+TT_OFF]
  ld.param.b32 r21, [TDST]
  add.u32 r21, r21, r17
  st.global.b32 [r21], r33
  exit
