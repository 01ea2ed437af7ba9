// An affine/uniform chain led by warp 0 and removed for warp 1 (scenarios/dac_01_affine_chain.yaml).
.kernel dac_chain
.regs 8
.param OUT
  s2r r6, %warpid
  setp.ne.b32 p0, r6, 0
  and.b32 r7, r6, 0
  @!p0 bra START
DELAY:
  add.u32 r7, r7, 1
  setp.lt.u32 p1, r7, 40
  @p1 bra DELAY
START:
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  s2r r1, %tid.y
  s2r r2, %ntid.x
  mad.lo.u32 r3, r1, r2, r0
  s2r r4, %ctaid.x
  add.u32 r4, r4, 7
  shl.b32 r6, r3, 2
  add.u32 r5, r5, r6
  mul.lo.u32 r2, r3, r3
  add.u32 r7, r7, r2
  add.u32 r7, r7, r4
  st.global.b32 [r5], r7
  exit
