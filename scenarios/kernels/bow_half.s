// More registers in the window than bow-wr-half's BOC holds (scenarios/bow_05_half_eviction.yaml):
// two mads bring 8 registers into a 6-entry BOC, and r4, still dirty and read again, is pushed out.
.kernel bow_half
.regs 12
.param OUT
  ld.param.b32 r9, [OUT]
  s2r r0, %tid.x
  shl.b32 r10, r0, 2
  add.u32 r9, r9, r10
  add.u32 r1, r0, 1
  add.u32 r2, r0, 2
  add.u32 r3, r0, 3
  add.u32 r5, r0, 5
  add.u32 r6, r0, 6
  add.u32 r7, r0, 7
  mad.lo.u32 r4, r1, r2, r3
  mad.lo.u32 r8, r5, r6, r7
  add.u32 r11, r4, r8
  add.u32 r10, r11, r8
  add.u32 r11, r4, r10
  st.global.b32 [r9], r11
  exit
