// A guarded write to an affine register (scenarios/affine_02_predicated_write.yaml).
.kernel affine_predicated
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  shl.b32 r4, r0, 2
  add.u32 r5, r5, r4
  add.u32 r1, r0, 100
  setp.lt.u32 p0, r0, 40
  @p0 add.u32 r1, r1, 7
  st.global.b32 [r5], r1
  exit
