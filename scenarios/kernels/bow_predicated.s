// A guarded write over a value BOW-WR holds dirty (scenarios/bow_06_predicated_write.yaml): lanes
// whose guard is false keep r1's older value, which lives only in the BOC.
.kernel bow_predicated
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  shl.b32 r4, r0, 2
  add.u32 r5, r5, r4
  setp.lt.u32 p0, r0, 40
  add.u32 r1, r0, 100
  @p0 add.u32 r1, r1, 7
  add.u32 r3, r1, r0
  st.global.b32 [r5], r3
  exit
