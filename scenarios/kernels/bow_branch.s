// A divergent branch inside BOW's window (scenarios/bow_04_branch_in_window.yaml): r1 and r0
// are read across the branch and the join; both paths write r1 in part of the warp's lanes.
.kernel bow_branch
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  shl.b32 r4, r0, 2
  add.u32 r5, r5, r4
  add.u32 r1, r0, 100
  setp.lt.u32 p0, r0, 8
  @p0 bra THEN
  add.u32 r1, r1, r0
  bra JOIN
THEN:
  add.u32 r1, r1, 5
JOIN:
  add.u32 r3, r1, r0
  st.global.b32 [r5], r3
  exit
