// DARSIE scenario 2 (scenarios/darsie_02_simd_divergence.yaml): SIMD divergence inside one
// warp of a 32x4 block. The branch is taken by the odd lanes of warp 1 (tid.y == 1) only:
// warps 0, 2 and 3 all fall through as whole warps, warp 1 splits into its odd lanes (ODD,
// run first) and its even lanes (the fall-through), which reconverge at JOIN.
//
// TB-redundant (skippable) instructions for a 32x4 block:
//   before the branch (4 warps): s2r tid.x, ld.param OUT, and r2          3
//   fall-through path:           mul r3                                    1
//   after JOIN:                  shl r4                                    1
.kernel darsie_simd_divergence
.regs 8
.param OUT

  s2r r0, %tid.x                  // affine 0..31
  s2r r1, %tid.y                  // vector: the warp number
  ld.param.b32 r7, [OUT]          // uniform
  and.b32 r2, r0, 1               // x & 1: 0,1,0,1,... (unstructured)
  setp.eq.b32 p0, r1, 1
  setp.eq.b32 p1, r2, 1
  pand p0, p0, p1                 // odd lanes of warp 1
  @p0 bra ODD                     // a DARSIE branch barrier; warp 1 diverges
  mul.lo.u32 r3, r0, 7            // affine 7x
  bra JOIN
ODD:
  mul.lo.u32 r3, r0, 9            // odd lanes of warp 1 only
JOIN:
  shl.b32 r4, r0, 2               // affine 4x
  shl.b32 r5, r1, 7               // vector 128*y
  add.u32 r5, r5, r4
  add.u32 r5, r7, r5
  add.u32 r3, r3, r1              // vector: + y
  st.global.b32 [r5], r3          // OUT[32*y + x] = (x odd and y == 1 ? 9x : 7x) + y
  exit
