// A uniform chain broken by divergence (scenarios/uv_01_divergent_chain.yaml).
.kernel uv_chain
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  mov.b32 r1, 3
  mul.lo.u32 r1, r1, 5
  setp.lt.u32 p0, r0, 8
  @p0 add.u32 r1, r1, r0
  add.u32 r2, r1, 1
  shl.b32 r4, r0, 2
  add.u32 r5, r5, r4
  st.global.b32 [r5], r2
  exit
