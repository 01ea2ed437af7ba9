// DARSIE scenario 6 (scenarios/darsie_06_atomic_flush.yaml): a global atomic clears the
// global-load entries of the PC skip table. Every warp of a 32x4 block reads G = BUF[0] (a
// TB-redundant global load), then lane 0 of every warp adds 1 to CNT[0] with atom.global.add
// (its old value is not used: the order of the warps does not show in memory).
.kernel darsie_atomic_flush
.regs 10
.param BUF
.param CNT
.param OUT

  s2r r0, %tid.x
  s2r r1, %tid.y
  ld.param.b32 r9, [BUF]          // uniform
  ld.param.b32 r7, [CNT]          // uniform
  ld.param.b32 r8, [OUT]          // uniform
  setp.eq.b32 p0, r0, 0           // lane 0
  mov.b32 r3, 1                   // uniform
  ld.global.b32 r2, [r9]          // G = BUF[0]: a TB-redundant global load
  @p0 atom.global.add.u32 r4, [r7], r3   // CNT[0] += 1 per warp; clears global-load entries
  add.u32 r5, r2, r0              // G + x (redundant)
  shl.b32 r6, r1, 7
  shl.b32 r4, r0, 2
  add.u32 r6, r6, r4
  add.u32 r6, r8, r6
  st.global.b32 [r6], r5          // OUT[32y + x] = G + x
  exit
