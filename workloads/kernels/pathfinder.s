// PathFinder, as Rodinia's pathfinder.cu `dynproc_kernel` with BLOCK_SIZE = 1024 (DARSIE Table
// 1 "PT", block (1024,1)): the dynamic program down a rows x cols wall, each row's cost being
// the wall value plus the minimum of the three neighbours above. One launch advances
// `iteration` (the pyramid height) rows: block bx loads BLOCK_SIZE entries of the previous row
// (its small block of BLOCK_SIZE - 2*iteration columns plus a halo of `iteration` on each side)
// into prev[], then every iteration computes the still-valid range into result[], syncs, copies
// result[] back into prev[] and syncs again (the copy and second barrier skipped after the last
// iteration); the small block then writes gpuResults. Kept as in the original: the halo
// arithmetic (small_block_cols, blkX, validXmin/validXmax written as the equivalent max/min, W/E
// clamped), IN_RANGE tests (an unsigned compare for IN_RANGE(xidx, 0, cols-1)), isValid, the
// `computed` flag, the __syncthreads placement, int arithmetic. As nvcc compiles it: the
// gpuWall address `cols*(startStep+i) + xidx` strength-reduced to a pointer stepped by a row.
.kernel pathfinder
.regs 23
.shared 8192                      // int prev[BLOCK_SIZE], result[BLOCK_SIZE]
.param ITER          // iteration = MIN(pyramid_height, rows - t - 1)
.param WALL          // gpuWall: rows-1 rows of cols ints (wall rows 1..rows-1)
.param SRC           // gpuSrc: the row before this strip
.param RESULTS       // gpuResults: the last row of this strip
.param COLS          // cols
.param ROWS          // rows (unused, as in the original)
.param STARTSTEP     // startStep = t
.param BORDER        // border = pyramid_height * HALO
.const BLOCK 1024
.const RESULT_OFF 4096            // result[] after prev[]

  s2r r0, %ctaid.x                // bx
  s2r r1, %tid.x                  // tx
  ld.param.b32 r2, [ITER]
  shl.b32 r3, r2, 1
  mov.b32 r4, BLOCK
  sub.u32 r3, r4, r3              // small_block_cols = BLOCK_SIZE - iteration*HALO*2
  ld.param.b32 r4, [BORDER]
  mul.lo.u32 r5, r3, r0
  sub.u32 r5, r5, r4              // blkX = small_block_cols * bx - border
  add.u32 r6, r5, r1              // xidx = blkX + tx
  ld.param.b32 r7, [COLS]
  // validXmin = blkX < 0 ? -blkX : 0 = max(-blkX, 0)
  neg.s32 r8, r5
  max.s32 r8, r8, 0
  // validXmax = blkXmax > cols-1 ? BLOCK_SIZE-1-(blkXmax-cols+1) : BLOCK_SIZE-1
  //           = min(cols - 1 - blkX, BLOCK_SIZE - 1), blkXmax = blkX + BLOCK_SIZE - 1
  sub.u32 r9, r7, r5
  sub.u32 r9, r9, 1
  min.s32 r9, r9, 1023
  // W = max(tx - 1, validXmin), E = min(tx + 1, validXmax), as shared addresses
  sub.u32 r10, r1, 1
  max.s32 r10, r10, r8
  shl.b32 r10, r10, 2             // &prev[W]
  add.u32 r11, r1, 1
  min.s32 r11, r11, r9
  shl.b32 r11, r11, 2             // &prev[E]
  setp.ge.s32 p0, r1, r8
  setp.le.s32 p1, r1, r9
  pand p0, p0, p1                 // isValid = IN_RANGE(tx, validXmin, validXmax)
  shl.b32 r12, r1, 2              // &prev[tx]
  setp.lt.u32 p1, r6, r7          // IN_RANGE(xidx, 0, cols-1)
  shl.b32 r13, r6, 2              // xidx * 4
  ld.param.b32 r14, [SRC]
  add.u32 r14, r14, r13
  @p1 ld.global.b32 r15, [r14]
  @p1 st.shared.b32 [r12], r15    //   prev[tx] = gpuSrc[xidx]
  bar.sync 0
  setp.lt.s32 p3, r2, 1
  @p3 exit                        // no iteration: nothing is computed
  ld.param.b32 r16, [STARTSTEP]
  mad.lo.u32 r16, r16, r7, r6     // index = cols * startStep + xidx (i = 0)
  shl.b32 r16, r16, 2
  ld.param.b32 r17, [WALL]
  add.u32 r16, r17, r16           // &gpuWall[index]
  shl.b32 r17, r7, 2              // cols * 4: index += cols per iteration
  mov.b32 r18, 0                  // i = 0
  mov.b32 r19, 1022               // BLOCK_SIZE - i - 2

loop:                             // for (i = 0; i < iteration; i++)
  add.u32 r20, r18, 1
  setp.ge.s32 p2, r1, r20         // computed = IN_RANGE(tx, i+1, BLOCK_SIZE-i-2)
  setp.le.s32 p3, r1, r19
  pand p2, p2, p3
  pand p2, p2, p0                 //   && isValid
  @!p2 bra synced
  ld.shared.b32 r20, [r10]        // left = prev[W]
  ld.shared.b32 r21, [r12]        // up = prev[tx]
  ld.shared.b32 r22, [r11]        // right = prev[E]
  min.s32 r20, r20, r21           // shortest = MIN(left, up)
  min.s32 r20, r20, r22           // shortest = MIN(shortest, right)
  ld.global.b32 r21, [r16]        // gpuWall[index]
  add.u32 r20, r20, r21
  st.shared.b32 [r12+RESULT_OFF], r20   // result[tx] = shortest + gpuWall[index]
synced:
  bar.sync 0
  add.u32 r18, r18, 1
  setp.ge.s32 p3, r18, r2
  @p3 bra done                    // if (i == iteration - 1) break
  @p2 ld.shared.b32 r20, [r12+RESULT_OFF]
  @p2 st.shared.b32 [r12], r20    // if (computed) prev[tx] = result[tx]
  bar.sync 0
  sub.u32 r19, r19, 1
  add.u32 r16, r16, r17
  bra loop

done:
  @!p2 exit                       // if (computed) gpuResults[xidx] = result[tx]
  ld.shared.b32 r20, [r12+RESULT_OFF]
  ld.param.b32 r21, [RESULTS]
  add.u32 r21, r21, r13
  st.global.b32 [r21], r20
  exit
