// issue 14, found by the long seed range: seed 1037 (grid (1,2,2), block 52, warps of 16), reduced. Under darsie
// (default sizes) warp 2 stores to shared word 800 and reloads it (TB-redundant); its value differs from the
// leader's, so it leaves the majority path; at bar.sync it rejoined and adopted the majority's r10 while its
// selp reading r10 still waited in an operand collector: OUT held the leader's 0 instead of 2.
.kernel random_1037
.shared 896
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
  mul.lo.u32 r1, r1, 52
  add.u32 r1, r1, r0
  ld.param.b32 r2, [OUT]
  mul.lo.u32 r10, r1, 52
  add.u32 r2, r2, r10
  ld.param.b32 r3, [IN]
  ld.param.b32 r13, [ATOM]
  s2r r4, %warpid
  s2r r5, %laneid
  and.b32 r10, r1, 4095
  shl.b32 r10, r10, 2
  add.u32 r10, r10, r3
  ld.global.b32 r14, [r10]
  add.u32 r15, r0, 0
  and.b32 r10, r1, 4095
  shl.b32 r10, r10, 2
  add.u32 r10, r10, r3
  ld.global.b32 r16, [r10]
  and.b32 r10, r1, 4095
  shl.b32 r10, r10, 2
  add.u32 r10, r10, r3
  ld.global.b32 r17, [r10]
  and.b32 r10, r0, 4095
  shl.b32 r10, r10, 2
  add.u32 r10, r10, r3
  ld.param.b32 r20, [SEED]
  and.b32 r10, r1, 4095
  shl.b32 r10, r10, 2
  add.u32 r10, r10, r3
  ld.global.b32 r21, [r10]
  add.u32 r22, r0, 5
  mov.b32 r23, 47
  ld.param.b32 r24, [SEED]
  mad.lo.u32 r21, r24, r0, r23
  @!p4 selp.b32 r18, r23, r5, p3
  setp.eq.b32 p5, r4, 2
  @p5 st.shared.b32 [800], r15
  ld.shared.b32 r10, [800]
  selp.b32 r23, r10, r23, p5
  bar.sync 6
LOOP0:
JOIN2:
LOOP3:
END4:
END1:
ELSE6:
JOIN5:
  st.global.b32 [r2+36], r23
  exit
