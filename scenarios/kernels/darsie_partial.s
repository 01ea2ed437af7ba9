// DARSIE scenario 9 (scenarios/darsie_09_partial_warps.yaml): blocks 16 threads wide, so tid.x
// repeats in every warp of 32 (16 divides 32) and tid.x-derived values are TB-redundant; the
// block's last warp is partial (48 or 80 threads = 1 or 2 full warps + 16 threads).
// TB-redundant: s2r tid.x, ld.param OUT, mul 3x, add 3x+1, s2r ntid.x (5 per warp).
.kernel darsie_partial
.regs 8
.param OUT

  s2r r0, %tid.x                  // redundant
  s2r r1, %tid.y                  // vector (16*ntid.y does not divide 32)
  ld.param.b32 r7, [OUT]          // redundant
  mul.lo.u32 r2, r0, 3            // redundant
  add.u32 r3, r2, 1               // redundant
  s2r r4, %ntid.x                 // redundant (uniform)
  mad.lo.u32 r5, r1, r4, r0       // linear thread index y*16 + x: vector
  shl.b32 r5, r5, 2
  add.u32 r5, r7, r5
  add.u32 r3, r3, r1
  st.global.b32 [r5], r3          // OUT[16y + x] = 3x + 1 + y
  exit
