// DARSIE scenario 1 (scenarios/darsie_01_warp_split.yaml): a data-dependent branch splits a
// 32x4 block's four warps 3:1. Each warp loads FLAGS[tid.y] (one word per warp, the same in
// all its lanes), so the branch never diverges inside a warp; FLAGS = [10, 11, 12, 13] and the
// test FLAGS[y] == 12 send warp 2 to ODD while warps 0, 1 and 3 fall through.
//
// TB-redundant (skippable) instructions for a 32x4 block (tid.x promoted: 32 divides the warp):
//   before the branch: s2r tid.x, ld.param FLAGS, ld.param OUT, mul r5      4 (all 4 warps)
//   majority path:     add r6, mul r7                                       2 (warps 0, 1, 3)
//   after JOIN:        add r8, shl r11                                      2 (warps 0, 1, 3)
// Both parameter loads sit before the branch, so the store at the end never clears a load
// entry some warp still has to skip.
.kernel darsie_warp_split
.regs 12
.param FLAGS
.param OUT

  s2r r0, %tid.x                  // affine 0..31
  s2r r1, %tid.y                  // vector: the warp number here
  ld.param.b32 r2, [FLAGS]        // uniform
  ld.param.b32 r9, [OUT]          // uniform
  shl.b32 r3, r1, 2
  add.u32 r3, r2, r3
  ld.global.b32 r4, [r3]          // FLAGS[tid.y]: vector (its address depends on tid.y)
  mul.lo.u32 r5, r0, 3            // affine 3*x
  setp.eq.b32 p0, r4, 12
  @p0 bra ODD                     // guarded: a DARSIE branch barrier; warp 2 jumps
  add.u32 r6, r5, 100             // affine 3x+100
  mul.lo.u32 r7, r0, r0           // unstructured x*x
  bra JOIN
ODD:
  add.u32 r6, r5, 200             // warp 2 only, executed from its private copies
  mul.lo.u32 r7, r0, 5
JOIN:
  add.u32 r8, r6, r7              // majority: 3x+100+x*x (unstructured); warp 2: 8x+200
  shl.b32 r11, r0, 2              // affine 4x
  shl.b32 r10, r1, 7              // vector: 128*y
  add.u32 r10, r10, r11
  add.u32 r10, r9, r10
  add.u32 r8, r8, r4              // vector (r4 is): + the warp's flag
  st.global.b32 [r10], r8         // OUT[32*y + x]
  exit
