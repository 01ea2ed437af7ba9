// Reuse inside BOW's window (scenarios/bow_01_reuse_in_window.yaml): every source but r5 is read
// within IW - 1 = 2 instructions of its last access.
.kernel bow_reuse
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  shl.b32 r4, r0, 2
  add.u32 r5, r5, r4
  add.u32 r1, r0, 7
  mul.lo.u32 r2, r1, r0
  add.u32 r3, r2, r1
  st.global.b32 [r5], r3
  exit
