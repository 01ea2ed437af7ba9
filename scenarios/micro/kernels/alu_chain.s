// Dependent-chain latency (docs/microbenchmarks.md): one warp runs ITERS iterations of 32
// add.f32 instructions, each reading the one before, so every add waits for its predecessor's
// result; the loop counter's instructions are independent of the chain
// (32 per iteration, so that the counter's own chain, about 17 cycles, stays hidden). Lane i stores its
// result at OUT[i].
.kernel alu_chain
.param ITERS
.param OUT
  s2r r1, %laneid
  cvt.f32.u32 r10, r1
  ld.param.b32 r4, [ITERS]
loop:
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r10, r10, 1.0
  sub.u32 r4, r4, 1
  setp.ne.b32 p0, r4, 0
  @p0 bra loop
  ld.param.b32 r5, [OUT]
  shl.b32 r1, r1, 2
  add.u32 r5, r5, r1
  st.global.b32 [r5], r10
  exit
