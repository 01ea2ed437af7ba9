// DARSIE scenario 10c (scenarios/darsie_10c_block_3d.yaml): a 3D block 8 x 4 x 2 with 32-thread
// warps. Warp w holds tid.z = w and all 32 (x, y) pairs: with darsie.tid_yz, tid.x (8 divides
// 32) and tid.y (8*4 divides 32) repeat in every warp and are TB-redundant, tid.z is not.
.kernel darsie_3d
.regs 10
.param OUT

  s2r r0, %tid.x                  // redundant: lanes 0..7, 0..7, ...
  s2r r1, %tid.y                  // redundant (tid_yz): lanes 0 x8, 1 x8, 2 x8, 3 x8
  s2r r2, %tid.z                  // vector: the warp number
  s2r r3, %ntid.x                 // redundant, uniform
  ld.param.b32 r9, [OUT]          // redundant, uniform
  mad.lo.u32 r4, r1, r3, r0       // redundant: y*8 + x = the lane number (affine)
  mul.lo.u32 r5, r1, r1           // redundant: y*y
  add.u32 r5, r5, r4              // redundant: y*y + 8y + x
  shl.b32 r6, r2, 5               // vector: 32z
  add.u32 r6, r6, r4
  shl.b32 r6, r6, 2
  add.u32 r6, r9, r6
  add.u32 r5, r5, r2              // vector
  st.global.b32 [r6], r5          // OUT[32z + 8y + x] = y*y + 8y + x + z
  exit
