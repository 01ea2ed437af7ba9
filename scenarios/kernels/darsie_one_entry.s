// DARSIE scenario 8 (scenarios/darsie_08_skip_table_1.yaml): three adjacent TB-redundant
// instructions (s2r tid.x, ld.param OUT, mul x*x) and nothing else redundant: the output
// address is built from tid.y (a vector value for a 32x4 block), so everything after the three
// is vector. With a PC skip table of one entry only one of the three can be skipped at a time.
.kernel darsie_one_entry
.regs 8
.param OUT

  s2r r0, %tid.x                  // I1: affine
  ld.param.b32 r7, [OUT]          // I2: uniform
  mul.lo.u32 r2, r0, r0           // I3: unstructured (x*x)
  s2r r1, %tid.y                  // vector from here on
  shl.b32 r5, r1, 5
  add.u32 r5, r5, r0              // 32y + x: vector
  shl.b32 r5, r5, 2
  add.u32 r5, r7, r5
  add.u32 r3, r2, r5              // x*x + address: vector
  st.global.b32 [r5], r3          // OUT[32y + x]
  exit
