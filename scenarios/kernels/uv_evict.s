// Six inter-warp uniform instructions, more than a two-entry IRB holds
// (scenarios/uv_05_irb_replacement.yaml).
.kernel uv_evict
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  mov.b32 r1, 9
  mul.lo.u32 r2, r1, 7
  add.u32 r2, r2, 1
  xor.b32 r2, r2, 5
  shl.b32 r2, r2, 3
  sub.u32 r2, r2, 11
  s2r r3, %ctaid.x
  shl.b32 r4, r3, 5
  add.u32 r4, r4, r0
  shl.b32 r4, r4, 2
  add.u32 r5, r5, r4
  add.u32 r2, r2, r0
  st.global.b32 [r5], r2
  exit
