// Reuse at distance IW and IW - 1 (scenarios/bow_02_reuse_outside_window.yaml): r1 and r3 are
// read 2 instructions after their last access (bypassed at IW 3), r0, r2 and r4 3 or more
// (read from the banks at IW 3).
.kernel bow_distance
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  shl.b32 r4, r0, 2
  mov.b32 r1, 11
  mov.b32 r2, 22
  add.u32 r3, r1, r0
  add.u32 r5, r5, r4
  add.u32 r3, r3, r2
  st.global.b32 [r5], r3
  exit
