// Two blocks' warps run the same uniform chain (scenarios/uv_02_reuse_buffer.yaml).
.kernel uv_reuse
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  mov.b32 r1, 9
  mul.lo.u32 r2, r1, 7
  s2r r3, %ctaid.x
  add.u32 r2, r2, r3
  shl.b32 r4, r3, 5
  add.u32 r4, r4, r0
  shl.b32 r4, r4, 2
  add.u32 r5, r5, r4
  add.u32 r2, r2, r0
  st.global.b32 [r5], r2
  exit
