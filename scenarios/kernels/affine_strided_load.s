// Affine memory operations (scenarios/affine_04_strided_load.yaml): per warp a load of stride 8,
// a load of stride -4, a load of a uniform address and a store of stride 4.
.kernel affine_strided_load
.regs 16
.param IN
.param OUT
  ld.param.b32 r5, [OUT]
  ld.param.b32 r6, [IN]
  s2r r0, %tid.x
  shl.b32 r4, r0, 2
  add.u32 r7, r5, r4         // &out[tid], stride 4
  shl.b32 r8, r0, 3
  add.u32 r9, r6, r8         // &in[2 tid], stride 8
  ld.global.b32 r1, [r9]
  add.u32 r12, r6, 508
  sub.u32 r11, r12, r4       // &in[127 - tid], stride -4
  ld.global.nc.b32 r2, [r11]
  ld.global.b32 r3, [r6+12]  // in[3], uniform
  add.u32 r1, r1, r2
  add.u32 r1, r1, r3
  st.global.b32 [r7], r1
  exit
