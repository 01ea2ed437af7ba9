// ALU issue throughput (docs/microbenchmarks.md): every thread runs ITERS iterations of 32
// add.f32 instructions on eight independent chains (no instruction reads the one before it;
// 32 per iteration so that the loop's own three instructions take few issue slots), so with
// enough warps per SM the units, not latency, bound the rate. Each thread stores the sum of its
// eight chains.
.kernel alu_tput
.param ITERS
.param OUT
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  s2r r3, %tid.x
  mad.lo.u32 r1, r1, r2, r3        // global thread index
  cvt.f32.u32 r10, r1
  mov.b32 r11, r10
  mov.b32 r12, r10
  mov.b32 r13, r10
  mov.b32 r14, r10
  mov.b32 r15, r10
  mov.b32 r16, r10
  mov.b32 r17, r10
  ld.param.b32 r4, [ITERS]
loop:
  add.f32 r10, r10, 1.0
  add.f32 r11, r11, 1.0
  add.f32 r12, r12, 1.0
  add.f32 r13, r13, 1.0
  add.f32 r14, r14, 1.0
  add.f32 r15, r15, 1.0
  add.f32 r16, r16, 1.0
  add.f32 r17, r17, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r11, r11, 1.0
  add.f32 r12, r12, 1.0
  add.f32 r13, r13, 1.0
  add.f32 r14, r14, 1.0
  add.f32 r15, r15, 1.0
  add.f32 r16, r16, 1.0
  add.f32 r17, r17, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r11, r11, 1.0
  add.f32 r12, r12, 1.0
  add.f32 r13, r13, 1.0
  add.f32 r14, r14, 1.0
  add.f32 r15, r15, 1.0
  add.f32 r16, r16, 1.0
  add.f32 r17, r17, 1.0
  add.f32 r10, r10, 1.0
  add.f32 r11, r11, 1.0
  add.f32 r12, r12, 1.0
  add.f32 r13, r13, 1.0
  add.f32 r14, r14, 1.0
  add.f32 r15, r15, 1.0
  add.f32 r16, r16, 1.0
  add.f32 r17, r17, 1.0
  sub.u32 r4, r4, 1
  setp.ne.b32 p0, r4, 0
  @p0 bra loop
  add.f32 r10, r10, r11
  add.f32 r12, r12, r13
  add.f32 r14, r14, r15
  add.f32 r16, r16, r17
  add.f32 r10, r10, r12
  add.f32 r14, r14, r16
  add.f32 r10, r10, r14
  ld.param.b32 r5, [OUT]
  shl.b32 r1, r1, 2
  add.u32 r5, r5, r1
  st.global.b32 [r5], r10
  exit
