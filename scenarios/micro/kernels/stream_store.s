// Streaming global stores (docs/microbenchmarks.md): T threads in all; thread g writes its
// index to DST words g, g+T, g+2T, ... (4*ITERS of them, four per iteration), so every warp
// store is one whole 128-byte line and each line is written once.
.kernel stream_store
.param DST
.param ITERS
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  s2r r3, %tid.x
  mad.lo.u32 r1, r1, r2, r3        // g
  s2r r6, %nctaid.x
  mul.lo.u32 r6, r6, r2            // T
  shl.b32 r6, r6, 2                // T words in bytes
  ld.param.b32 r5, [DST]
  shl.b32 r7, r1, 2
  add.u32 r5, r5, r7               // &DST[g]
  ld.param.b32 r4, [ITERS]
loop:
  st.global.b32 [r5], r1
  add.u32 r5, r5, r6
  st.global.b32 [r5], r1
  add.u32 r5, r5, r6
  st.global.b32 [r5], r1
  add.u32 r5, r5, r6
  st.global.b32 [r5], r1
  add.u32 r5, r5, r6
  sub.u32 r4, r4, 1
  setp.ne.b32 p0, r4, 0
  @p0 bra loop
  exit
