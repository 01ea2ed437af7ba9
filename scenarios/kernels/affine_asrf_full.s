// An affine chain longer than a three-entry ASRF (scenarios/affine_05_asrf_full.yaml).
.kernel affine_asrf_full
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  shl.b32 r4, r0, 2
  add.u32 r1, r0, 100
  add.u32 r2, r1, 5
  add.u32 r5, r5, r4
  add.u32 r3, r2, r0
  st.global.b32 [r5], r3
  exit
