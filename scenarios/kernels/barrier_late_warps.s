// One warp reaches bar.sync long before the others (docs/timeline.md's barrier span): warp 0 of
// the block goes straight to the barrier; every other warp first computes a chain of eight
// dependent rcp.f32 (each waits for the SFU result of the one before), so warp 0 waits at
// bar.sync until the last of them arrives. After the barrier each thread stores its warp's
// number and the chain's result (warp 0: 2.0f) to OUT[2t], OUT[2t + 1].
.kernel barrier_late_warps
.regs 5
.param OUT

  s2r r0, %tid.x
  s2r r1, %warpid
  mov.b32 r2, 0x40000000          // 2.0f
  setp.eq.b32 p0, r1, 0
  @p0 bra ARRIVE
  rcp.f32 r2, r2
  rcp.f32 r2, r2
  rcp.f32 r2, r2
  rcp.f32 r2, r2
  rcp.f32 r2, r2
  rcp.f32 r2, r2
  rcp.f32 r2, r2
  rcp.f32 r2, r2                  // 1 / (1 / 2) eight times: 2.0f again
ARRIVE:
  bar.sync 0
  shl.b32 r3, r0, 3
  ld.param.b32 r4, [OUT]
  add.u32 r4, r4, r3
  st.global.b32 [r4], r1
  st.global.b32 [r4+4], r2
  exit
