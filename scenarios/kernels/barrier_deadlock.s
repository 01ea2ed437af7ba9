// A barrier that can never complete: in block 1, warp 1 exits before bar.sync, so the other
// warps of that block wait forever. The interpreter must stop and name each stuck warp.
.kernel barrier_deadlock
.regs 4

  s2r r0, %ctaid.x
  s2r r1, %warpid
  setp.eq.b32 p0, r0, 1
  setp.eq.b32 p1, r1, 1
  pand p0, p0, p1
  @p0 exit
WAIT:
  bar.sync 0
  exit
