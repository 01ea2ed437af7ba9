// Streaming global loads (docs/microbenchmarks.md): T threads in all; thread g reads SRC words
// g, g+T, g+2T, ... (4*ITERS of them, four independent loads per iteration), so every warp
// load is one whole 128-byte line and each line is read once. The XOR of the words goes to
// OUT[g], so no load is dead.
.kernel stream_load
.param SRC
.param ITERS
.param OUT
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  s2r r3, %tid.x
  mad.lo.u32 r1, r1, r2, r3        // g
  s2r r6, %nctaid.x
  mul.lo.u32 r6, r6, r2            // T
  shl.b32 r6, r6, 2                // T words in bytes
  ld.param.b32 r5, [SRC]
  shl.b32 r7, r1, 2
  add.u32 r5, r5, r7               // &SRC[g]
  ld.param.b32 r4, [ITERS]
  mov.b32 r20, 0
loop:
  ld.global.b32 r10, [r5]
  add.u32 r5, r5, r6
  ld.global.b32 r11, [r5]
  add.u32 r5, r5, r6
  ld.global.b32 r12, [r5]
  add.u32 r5, r5, r6
  ld.global.b32 r13, [r5]
  add.u32 r5, r5, r6
  xor.b32 r10, r10, r11
  xor.b32 r12, r12, r13
  xor.b32 r20, r20, r10
  xor.b32 r20, r20, r12
  sub.u32 r4, r4, 1
  setp.ne.b32 p0, r4, 0
  @p0 bra loop
  ld.param.b32 r8, [OUT]
  add.u32 r8, r8, r7
  st.global.b32 [r8], r20
  exit
