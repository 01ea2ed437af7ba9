// A uniform chain whose first instruction writes a register nothing reads
// (scenarios/uv_04_fault_detected.yaml): a fault in it is detected, never stored.
.kernel uv_fault
.regs 8
.param OUT
  mov.b32 r7, 1
  mov.b32 r1, 9
  mul.lo.u32 r2, r1, 7
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  shl.b32 r4, r0, 2
  add.u32 r5, r5, r4
  add.u32 r3, r2, r0
  st.global.b32 [r5], r3
  exit
