// Affine and uniform branches (scenarios/affine_03_affine_branch.yaml).
.kernel affine_branch
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  shl.b32 r4, r0, 2
  add.u32 r5, r5, r4
  mov.b32 r1, 0
  setp.lt.u32 p0, r0, 64
  @p0 bra A
  mov.b32 r1, 1000
A:
  add.u32 r1, r1, 1
  setp.ge.u32 p1, r0, 16
  @p1 bra B
  add.u32 r1, r1, 10
B:
  mov.b32 r2, 7
  setp.eq.b32 p2, r2, 7
  @!p2 bra C
  add.u32 r1, r1, 100
C:
  st.global.b32 [r5], r1
  exit
