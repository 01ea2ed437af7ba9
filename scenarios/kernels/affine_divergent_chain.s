// An affine chain broken by divergence (scenarios/affine_01_divergent_chain.yaml).
.kernel affine_divergent_chain
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  shl.b32 r4, r0, 2
  add.u32 r5, r5, r4
  mov.b32 r1, 100
  add.u32 r2, r0, 10
  setp.lt.u32 p0, r0, 8
  @p0 bra THEN
  add.u32 r1, r1, r0
  add.u32 r2, r2, 1
  bra JOIN
THEN:
  add.u32 r1, r1, 5
JOIN:
  add.u32 r3, r2, r1
  add.u32 r6, r0, 3
  add.u32 r3, r3, r6
  st.global.b32 [r5], r3
  exit
