// Pointer chase (docs/microbenchmarks.md): one thread follows STEPS pointers from START, PASSES
// times over (each pass restarts at START), and stores where it ended in OUT. Every load's
// address is the previous load's value, so the loads run one after another and the time per
// step is the load latency. STEPS is a multiple of 4 (the loop is unrolled by 4).
.kernel chase
.param START
.param STEPS
.param PASSES
.param OUT
  ld.param.b32 r1, [START]
  ld.param.b32 r3, [PASSES]
  ld.param.b32 r4, [OUT]
pass:
  mov.b32 r5, r1
  ld.param.b32 r2, [STEPS]
step:
  ld.global.b32 r5, [r5]
  ld.global.b32 r5, [r5]
  ld.global.b32 r5, [r5]
  ld.global.b32 r5, [r5]
  sub.u32 r2, r2, 4
  setp.ne.b32 p0, r2, 0
  @p0 bra step
  sub.u32 r3, r3, 1
  setp.ne.b32 p1, r3, 0
  @p1 bra pass
  st.global.b32 [r4], r5
  exit
