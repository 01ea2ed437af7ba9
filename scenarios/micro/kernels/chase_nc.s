// chase.s with its loads made by ld.global.nc (cached in the L1 even with l1.enabled=false).
.kernel chase_nc
.param START
.param STEPS
.param PASSES
.param OUT
  ld.param.b32 r1, [START]
  ld.param.b32 r3, [PASSES]
  ld.param.b32 r4, [OUT]
pass:
  mov.b32 r5, r1
  ld.param.b32 r2, [STEPS]
step:
  ld.global.nc.b32 r5, [r5]
  ld.global.nc.b32 r5, [r5]
  ld.global.nc.b32 r5, [r5]
  ld.global.nc.b32 r5, [r5]
  sub.u32 r2, r2, 4
  setp.ne.b32 p0, r2, 0
  @p0 bra step
  sub.u32 r3, r3, 1
  setp.ne.b32 p1, r3, 0
  @p1 bra pass
  st.global.b32 [r4], r5
  exit
