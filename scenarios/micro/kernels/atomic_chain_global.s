// Global atomic latency (docs/microbenchmarks.md): ITERS iterations of 16 atomic adds, each adding the
// value the one before returned, so each waits for its predecessor's answer. Every lane of the
// block adds to the same word. Lane i stores its last value at OUT[i].
.kernel atomic_chain_global
.param ITERS
.param WORD
.param OUT
  s2r r1, %laneid
  add.u32 r10, r1, 1
  ld.param.b32 r5, [WORD]
  ld.param.b32 r4, [ITERS]
loop:
  atom.global.add.u32 r10, [r5], r10
  atom.global.add.u32 r10, [r5], r10
  atom.global.add.u32 r10, [r5], r10
  atom.global.add.u32 r10, [r5], r10
  atom.global.add.u32 r10, [r5], r10
  atom.global.add.u32 r10, [r5], r10
  atom.global.add.u32 r10, [r5], r10
  atom.global.add.u32 r10, [r5], r10
  atom.global.add.u32 r10, [r5], r10
  atom.global.add.u32 r10, [r5], r10
  atom.global.add.u32 r10, [r5], r10
  atom.global.add.u32 r10, [r5], r10
  atom.global.add.u32 r10, [r5], r10
  atom.global.add.u32 r10, [r5], r10
  atom.global.add.u32 r10, [r5], r10
  atom.global.add.u32 r10, [r5], r10
  sub.u32 r4, r4, 1
  setp.ne.b32 p0, r4, 0
  @p0 bra loop
  ld.param.b32 r5, [OUT]
  shl.b32 r1, r1, 2
  add.u32 r5, r5, r1
  st.global.b32 [r5], r10
  exit
