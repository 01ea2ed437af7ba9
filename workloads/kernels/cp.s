// Parboil CP (cuenergy, "cenergy" kernel): the Coulombic potential on one z-slice of a lattice.
// Block 16x8 (BLOCKSIZEX x BLOCKSIZEY), UNROLLX = 8: each thread computes 8 grid points of
// one row, xindex + 16*u for u = 0..7, so a block covers 128 x 8 points. For every atom
// (x, y, dz^2, charge) the thread adds charge / sqrt(dx^2 + dy^2 + dz^2) to each point.
// Atoms sit in a global buffer read with ld.const (through the constant cache) by all threads
// at the same address, as the original's __constant__ float4 atominfo[]; one launch covers all atoms (the original launches per
// chunk of 4000 atoms and accumulates into the grid with +=, which is kept).
// No shared memory and no __syncthreads in the original, none here. 22 registers (as few as
// the loop needs), so that 16 blocks fit an SM and leave room for DARSIE's rename registers.
.kernel cp
.regs 22
.param ATOMS        // float4 per atom: x, y, dz^2 (precomputed by the host), charge
.param NUMATOMS
.param SPACING      // gridspacing, f32 bits
.param ENERGY       // energygrid, row-major, gridDim.x * 128 floats per row

  s2r r15, %tid.x
  s2r r16, %tid.y
  s2r r17, %ctaid.x
  s2r r18, %ctaid.y
  s2r r19, %ntid.x
  s2r r20, %ntid.y
  mul.lo.u32 r2, r17, r19         // __umul24(blockIdx.x, blockDim.x)
  shl.b32 r2, r2, 3               // * UNROLLX
  add.u32 r2, r2, r15             // xindex
  mad.lo.u32 r1, r18, r20, r16    // yindex = blockIdx.y * blockDim.y + threadIdx.y
  s2r r0, %nctaid.x
  mul.lo.u32 r0, r0, r19
  shl.b32 r0, r0, 3               // row length = gridDim.x * blockDim.x * UNROLLX
  mad.lo.u32 r0, r0, r1, r2       // outaddr = rowlen * yindex + xindex
  ld.param.b32 r21, [SPACING]
  cvt.f32.u32 r1, r1
  mul.f32 r1, r21, r1             // coory = gridspacing * yindex
  cvt.f32.u32 r2, r2
  mul.f32 r2, r21, r2             // coorx = gridspacing * xindex
  mul.f32 r3, r21, 16.0           // gridspacing_coalesce = gridspacing * BLOCKSIZEX
  mov.b32 r4, 0                  // energyvalx1 = 0.0f
  mov.b32 r5, 0                  // energyvalx2 = 0.0f
  mov.b32 r6, 0                  // energyvalx3 = 0.0f
  mov.b32 r7, 0                  // energyvalx4 = 0.0f
  mov.b32 r8, 0                  // energyvalx5 = 0.0f
  mov.b32 r9, 0                  // energyvalx6 = 0.0f
  mov.b32 r10, 0                  // energyvalx7 = 0.0f
  mov.b32 r11, 0                  // energyvalx8 = 0.0f
  ld.param.b32 r12, [ATOMS]       // &atominfo[0]
  ld.param.b32 r13, [NUMATOMS]
  mov.b32 r14, 0                  // atomid = 0
  setp.le.s32 p0, r13, 0
  @p0 bra store
atomloop:                         // for (atomid = 0; atomid < numatoms; atomid++)
  ld.const.b32 r15, [r12+0]       // atominfo[atomid].x   (uniform load)
  ld.const.b32 r16, [r12+4]       // atominfo[atomid].y
  ld.const.b32 r17, [r12+8]       // atominfo[atomid].z   (dz^2)
  ld.const.b32 r18, [r12+12]      // atominfo[atomid].w   (charge)
  sub.f32 r19, r1, r16            // dy = coory - y
  fma.f32 r19, r19, r19, r17      // dyz2 = dy * dy + z
  sub.f32 r20, r2, r15            // dx1 = coorx - x
  fma.f32 r21, r20, r20, r19      // dx1^2 + dyz2
  rsqrt.f32 r21, r21
  fma.f32 r4, r18, r21, r4      // energyvalx1 += w * rsqrtf(...)
  add.f32 r20, r20, r3            // dx2 = dx1 + gridspacing_coalesce
  fma.f32 r21, r20, r20, r19      // dx2^2 + dyz2
  rsqrt.f32 r21, r21
  fma.f32 r5, r18, r21, r5      // energyvalx2 += w * rsqrtf(...)
  add.f32 r20, r20, r3            // dx3 = dx2 + gridspacing_coalesce
  fma.f32 r21, r20, r20, r19      // dx3^2 + dyz2
  rsqrt.f32 r21, r21
  fma.f32 r6, r18, r21, r6      // energyvalx3 += w * rsqrtf(...)
  add.f32 r20, r20, r3            // dx4 = dx3 + gridspacing_coalesce
  fma.f32 r21, r20, r20, r19      // dx4^2 + dyz2
  rsqrt.f32 r21, r21
  fma.f32 r7, r18, r21, r7      // energyvalx4 += w * rsqrtf(...)
  add.f32 r20, r20, r3            // dx5 = dx4 + gridspacing_coalesce
  fma.f32 r21, r20, r20, r19      // dx5^2 + dyz2
  rsqrt.f32 r21, r21
  fma.f32 r8, r18, r21, r8      // energyvalx5 += w * rsqrtf(...)
  add.f32 r20, r20, r3            // dx6 = dx5 + gridspacing_coalesce
  fma.f32 r21, r20, r20, r19      // dx6^2 + dyz2
  rsqrt.f32 r21, r21
  fma.f32 r9, r18, r21, r9      // energyvalx6 += w * rsqrtf(...)
  add.f32 r20, r20, r3            // dx7 = dx6 + gridspacing_coalesce
  fma.f32 r21, r20, r20, r19      // dx7^2 + dyz2
  rsqrt.f32 r21, r21
  fma.f32 r10, r18, r21, r10     // energyvalx7 += w * rsqrtf(...)
  add.f32 r20, r20, r3            // dx8 = dx7 + gridspacing_coalesce
  fma.f32 r21, r20, r20, r19      // dx8^2 + dyz2
  rsqrt.f32 r21, r21
  fma.f32 r11, r18, r21, r11     // energyvalx8 += w * rsqrtf(...)
  add.u32 r12, r12, 16
  add.u32 r14, r14, 1
  setp.lt.s32 p0, r14, r13
  @p0 bra atomloop
store:                            // energygrid[outaddr + 16*u] += energyvalx(u+1)
  ld.param.b32 r12, [ENERGY]
  shl.b32 r0, r0, 2
  add.u32 r12, r12, r0
  ld.global.b32 r15, [r12+0]
  add.f32 r15, r15, r4
  st.global.b32 [r12+0], r15
  ld.global.b32 r15, [r12+64]
  add.f32 r15, r15, r5
  st.global.b32 [r12+64], r15
  ld.global.b32 r15, [r12+128]
  add.f32 r15, r15, r6
  st.global.b32 [r12+128], r15
  ld.global.b32 r15, [r12+192]
  add.f32 r15, r15, r7
  st.global.b32 [r12+192], r15
  ld.global.b32 r15, [r12+256]
  add.f32 r15, r15, r8
  st.global.b32 [r12+256], r15
  ld.global.b32 r15, [r12+320]
  add.f32 r15, r15, r9
  st.global.b32 [r12+320], r15
  ld.global.b32 r15, [r12+384]
  add.f32 r15, r15, r10
  st.global.b32 [r12+384], r15
  ld.global.b32 r15, [r12+448]
  add.f32 r15, r15, r11
  st.global.b32 [r12+448], r15
  exit
