// Global atomic throughput (docs/microbenchmarks.md): thread g adds 1 to the word at
// BASE + (g << SHIFT) 4*ITERS times (four atomics per iteration, to four registers, so a warp
// has four in flight). SHIFT = 2: every thread its own word (a warp's 32 lanes share one
// 128-byte line); SHIFT = 32: every thread the same word (a shift by 32 or more gives 0).
.kernel atomic_add
.param BASE
.param SHIFT
.param ITERS
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  s2r r3, %tid.x
  mad.lo.u32 r1, r1, r2, r3        // g
  ld.param.b32 r2, [SHIFT]
  shl.b32 r1, r1, r2
  ld.param.b32 r5, [BASE]
  add.u32 r5, r5, r1
  ld.param.b32 r4, [ITERS]
  mov.b32 r6, 1
loop:
  atom.global.add.u32 r10, [r5], r6
  atom.global.add.u32 r11, [r5], r6
  atom.global.add.u32 r12, [r5], r6
  atom.global.add.u32 r13, [r5], r6
  sub.u32 r4, r4, 1
  setp.ne.b32 p0, r4, 0
  @p0 bra loop
  exit
