// Dependent integer add chain (docs/microbenchmarks.md): one warp runs ITERS iterations of 32 dependent
// steps, as alu_chain.s. Lane i stores its result at OUT[i].
.kernel int_chain
.param ITERS
.param OUT
  s2r r1, %laneid
  mov.b32 r10, r1
  ld.param.b32 r4, [ITERS]
loop:
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  add.u32 r10, r10, 3
  sub.u32 r4, r4, 1
  setp.ne.b32 p0, r4, 0
  @p0 bra loop
  ld.param.b32 r5, [OUT]
  shl.b32 r1, r1, 2
  add.u32 r5, r5, r1
  st.global.b32 [r5], r10
  exit
