// issue 14, found by the long seed range: seed 1257 (grid 3, block 114, warps of 5), reduced. Under darsie and
// darsie-no-cf-sync (default sizes) OUT[10] of some threads holds 33 (the mov into r23) instead of SEED:
// a follower's r24 maps the wrong version. Baseline and darsie-ignore-store pass.
.kernel random_1257
.shared 1664
.param IN
.param OUT
.param ATOM
.param TRIP
.param SEED
  s2r r0, %tid.z
  s2r r10, %ntid.y
  s2r r11, %tid.y
  mad.lo.u32 r0, r0, r10, r11
  s2r r10, %ntid.x
  s2r r11, %tid.x
  mad.lo.u32 r0, r0, r10, r11
  s2r r1, %ctaid.z
  s2r r10, %nctaid.y
  s2r r11, %ctaid.y
  mad.lo.u32 r1, r1, r10, r11
  s2r r10, %nctaid.x
  s2r r11, %ctaid.x
  mad.lo.u32 r1, r1, r10, r11
  mul.lo.u32 r1, r1, 114
  add.u32 r1, r1, r0
  ld.param.b32 r2, [OUT]
  mul.lo.u32 r10, r1, 52
  add.u32 r2, r2, r10
  ld.param.b32 r3, [IN]
  ld.param.b32 r13, [ATOM]
  s2r r5, %laneid
  shl.b32 r10, r10, 2
  add.u32 r10, r10, r3
  and.b32 r10, r0, 4095
  shl.b32 r10, r10, 2
  add.u32 r10, r10, r3
  ld.global.b32 r17, [r10]
  and.b32 r10, r1, 4095
  shl.b32 r10, r10, 2
  add.u32 r10, r10, r3
  mov.b32 r21, 91
  mov.b32 r23, 33
  ld.param.b32 r24, [SEED]
  s2r r10, %ctaid.x
  and.b32 r10, r10, 1
  cvt.s32.f32 r22, 1.5
  max.u32 r23, r24, 1551
  @!p1 sqrt.f32 r14, -0
  mov.b32 r20, r20
  st.global.b32 [r2+40], r24
  exit


