// Transient values under BOW-WR's hints (scenarios/bow_03_transient_value.yaml): r0, r4, r1, r2
// and r3 are read only within the window and dead after it (hint Bypass); r5 = OUT + 4 x tid is
// read 4 instructions later (hint RegisterFile).
.kernel bow_transient
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  shl.b32 r4, r0, 2
  add.u32 r5, r5, r4
  add.u32 r1, r0, 7
  mul.lo.u32 r2, r1, r1
  add.u32 r3, r2, r1
  st.global.b32 [r5], r3
  exit
