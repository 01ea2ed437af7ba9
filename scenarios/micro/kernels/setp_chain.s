// Dependent compare chain (docs/microbenchmarks.md): one warp runs ITERS iterations of 32
// dependent steps, as alu_chain.s. A step is a pair: setp reads the register the selp before it
// wrote, selp reads the predicate of the setp. Lane i stores its result at OUT[i].
.kernel setp_chain
.param ITERS
.param OUT
  s2r r1, %laneid
  mov.b32 r10, r1
  add.u32 r11, r1, 1
  mov.b32 r12, 7
  ld.param.b32 r4, [ITERS]
loop:
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  setp.lt.u32 p1, r10, 1000000
  selp.b32 r10, r11, r12, p1
  sub.u32 r4, r4, 1
  setp.ne.b32 p0, r4, 0
  @p0 bra loop
  ld.param.b32 r5, [OUT]
  shl.b32 r1, r1, 2
  add.u32 r5, r5, r1
  st.global.b32 [r5], r10
  exit
