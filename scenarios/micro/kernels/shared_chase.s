// Shared-memory bank conflicts (docs/microbenchmarks.md): lane i of one warp chases a pointer
// in shared memory at word i*STRIDE. The word holds its own byte address, so every load reads
// the same words again and depends on the one before: the time per step is the latency of one
// warp access. With 32 banks of 4 bytes and STRIDE = n a power of two up to 32, the 32 lanes
// fall on 32/n banks, n different words in each: an n-way bank conflict. STEPS is a multiple
// of 4 (the loop is unrolled by 4).
.kernel shared_chase
.shared 4096
.param STRIDE
.param STEPS
.param OUT
  s2r r1, %laneid
  ld.param.b32 r2, [STRIDE]
  mul.lo.u32 r3, r1, r2
  shl.b32 r3, r3, 2
  st.shared.b32 [r3], r3
  ld.param.b32 r4, [STEPS]
loop:
  ld.shared.b32 r3, [r3]
  ld.shared.b32 r3, [r3]
  ld.shared.b32 r3, [r3]
  ld.shared.b32 r3, [r3]
  sub.u32 r4, r4, 4
  setp.ne.b32 p0, r4, 0
  @p0 bra loop
  ld.param.b32 r5, [OUT]
  shl.b32 r1, r1, 2
  add.u32 r5, r5, r1
  st.global.b32 [r5], r3
  exit
