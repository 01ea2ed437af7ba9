// DARSIE Fig. 3: each thread reads an integer from an array indexed by tid.x.
// The paper's array sits at address 10 with 4-byte elements; here the array is a buffer whose
// base address is the parameter BASE, and the loaded value is stored to OUT[global thread id]
// so that the result is observable.
.kernel fig3
.regs 8
.param BASE
.param OUT

  s2r r0, %tid.x
  mul.lo.u32 r1, r0, 4             // MUL R1, tid.x, 4
  ld.param.b32 r4, [BASE]
  add.u32 r2, r1, r4               // ADD R2, R1, #base
  ld.global.b32 r3, [r2]           // LD R3, MEM[R2]
  // OUT[tid.y * ntid.x + tid.x] = R3
  s2r r5, %tid.y
  s2r r6, %ntid.x
  mad.lo.u32 r5, r5, r6, r0
  shl.b32 r5, r5, 2
  ld.param.b32 r7, [OUT]
  add.u32 r7, r7, r5
  st.global.b32 [r7], r3
  exit
