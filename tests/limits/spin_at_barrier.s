// Warp 0 spins forever while the other warps of the block wait at bar.sync: no deadlock (warp
// 0 keeps running), so only a run limit can stop it.
.kernel spin_at_barrier
.regs 2

  s2r r0, %warpid
  setp.eq.b32 p0, r0, 0
  @!p0 bra WAIT
LOOP:
  bra LOOP
WAIT:
  bar.sync 0
  exit
