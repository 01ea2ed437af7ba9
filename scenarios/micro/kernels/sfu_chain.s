// Dependent-chain latency (docs/microbenchmarks.md): one warp runs ITERS iterations of eight
// rcp.f32 instructions, each reading the one before, so every rcp waits for its predecessor's
// result; the loop counter's instructions are independent of the chain. Lane i stores its
// result at OUT[i].
.kernel sfu_chain
.param ITERS
.param OUT
  s2r r1, %laneid
  cvt.f32.u32 r10, r1
  add.f32 r10, r10, 2.0            // away from 0: rcp alternates between x and 1/x
  ld.param.b32 r4, [ITERS]
loop:
  rcp.f32 r10, r10
  rcp.f32 r10, r10
  rcp.f32 r10, r10
  rcp.f32 r10, r10
  rcp.f32 r10, r10
  rcp.f32 r10, r10
  rcp.f32 r10, r10
  rcp.f32 r10, r10
  sub.u32 r4, r4, 1
  setp.ne.b32 p0, r4, 0
  @p0 bra loop
  ld.param.b32 r5, [OUT]
  shl.b32 r1, r1, 2
  add.u32 r5, r5, r1
  st.global.b32 [r5], r10
  exit
