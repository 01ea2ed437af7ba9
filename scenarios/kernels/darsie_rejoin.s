// DARSIE scenario 4 (scenarios/darsie_04_barrier_rejoin.yaml): warp 2 of a 32x4 block leaves the
// majority path at a per-warp branch (as in darsie_warp_split.s), then bar.sync brings every
// warp back: warp 2 rejoins, adopts the majority's versions of the registers that are
// TB-redundant at the barrier, and skips again afterwards.
//
// TB-redundant (skippable) instructions for a 32x4 block:
//   before the branch (4 warps): s2r tid.x, ld.param FLAGS, ld.param OUT, mul r5          4
//   fall-through (warps 0, 1, 3): add r6                                                 1
//   after bar.sync (4 warps again): mul r12, shl r11                                     2
// Registers TB-redundant at bar.sync: r0, r2, r9, r5 (r6 merges both paths: vector).
.kernel darsie_rejoin
.regs 13
.param FLAGS
.param OUT

  s2r r0, %tid.x                  // affine 0..31
  s2r r1, %tid.y                  // vector: the warp number
  ld.param.b32 r2, [FLAGS]        // uniform
  ld.param.b32 r9, [OUT]          // uniform
  shl.b32 r3, r1, 2
  add.u32 r3, r2, r3
  ld.global.b32 r4, [r3]          // FLAGS[tid.y]
  mul.lo.u32 r5, r0, 3            // affine 3x
  setp.eq.b32 p0, r4, 12
  @p0 bra ODD                     // warp 2 (FLAGS[2] == 12) jumps and leaves the majority path
  add.u32 r6, r5, 100
  bra JOIN
ODD:
  add.u32 r6, r5, 200
JOIN:
  bar.sync 0                      // every warp back on the majority path
  mul.lo.u32 r12, r5, r0          // redundant 3x*x (unstructured): warp 2 reads adopted r5, r0
  shl.b32 r11, r0, 2              // redundant 4x (affine)
  shl.b32 r10, r1, 7              // vector 128*y
  add.u32 r10, r10, r11
  add.u32 r10, r9, r10            // warp 2 reads the adopted r9
  add.u32 r8, r6, r12
  st.global.b32 [r10], r8         // OUT[32y+x] = 3x + (y == 2 ? 200 : 100) + 3x*x
  exit
