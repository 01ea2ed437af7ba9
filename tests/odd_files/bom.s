// A kernel whose file starts with a UTF-8 byte-order mark (as some Windows editors write it).
.kernel bom
.regs 2
.param OUT

  s2r r0, %tid.x
  shl.b32 r1, r0, 2
  ld.param.b32 r0, [OUT]
  add.u32 r1, r1, r0
  s2r r0, %tid.x
  st.global.b32 [r1], r0
  exit
