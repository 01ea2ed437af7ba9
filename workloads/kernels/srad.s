// SRAD v1 (Rodinia srad_v1, srad_kernel.cu: kernel `srad`), NUMBER_THREADS = 512: 1D blocks,
// one thread per element ei of the column-major Nr x Nc image I. It computes the four
// directional derivatives through the neighbour index tables iN/iS (rows) and jW/jE (columns),
// the normalized gradient magnitude G2 and laplacian L, the instantaneous coefficient of
// variation qsqr and the diffusion coefficient c = 1 / (1 + (qsqr - q0sqr) / (q0sqr (1 + q0sqr)))
// saturated to [0, 1], and stores dN, dS, dW, dE and c. No shared memory and no barrier, as in
// the original. Single precision throughout (the original's 0.5, 1.0/16.0, 0.25 and 1.0 are
// doubles); the sum of squares is contracted to fma as nvcc does.
.kernel srad
.regs 28          // as few as a compiler would use: leaves DARSIE rename registers at
                  // 4 resident 512-thread blocks per SM
.param LAMBDA        // d_lambda (used by srad2, unused here as in the original)
.param NR            // d_Nr: rows
.param NC            // d_Nc: columns
.param NE            // d_Ne: Nr * Nc
.param IN            // d_iN[Nr]: row above (clamped)
.param IS            // d_iS[Nr]: row below
.param JE            // d_jE[Nc]: column to the right
.param JW            // d_jW[Nc]: column to the left
.param DN            // d_dN[Ne] (out)
.param DS            // d_dS[Ne] (out)
.param DE            // d_dE[Ne] (out)
.param DW            // d_dW[Ne] (out)
.param Q0SQR         // d_q0sqr (f32)
.param C             // d_c[Ne] (out)
.param I             // d_I[Ne]
.const NUMBER_THREADS 512

  s2r r0, %ctaid.x                // bx
  s2r r1, %tid.x                  // tx
  mul.lo.u32 r2, r0, NUMBER_THREADS
  add.u32 r2, r2, r1              // ei = bx * NUMBER_THREADS + tx
  ld.param.b32 r3, [NR]
  add.u32 r4, r2, 1               // ei + 1
  rem.s32 r5, r4, r3              // (ei + 1) % Nr
  sub.u32 r6, r5, 1               // row = (ei + 1) % Nr - 1
  div.s32 r7, r4, r3              // col = (ei + 1) / Nr + 1 - 1
  setp.eq.b32 p0, r5, 0           // if ((ei + 1) % Nr == 0)
  sub.u32 r8, r3, 1
  selp.b32 r6, r8, r6, p0         //   row = Nr - 1
  sub.u32 r8, r7, 1
  selp.b32 r7, r8, r7, p0         //   col = col - 1
  ld.param.b32 r9, [NE]
  setp.ge.s32 p1, r2, r9
  @p1 exit                        // if (ei < Ne)

  shl.b32 r10, r2, 2              // ei * 4
  ld.param.b32 r11, [I]
  add.u32 r12, r11, r10
  ld.global.b32 r13, [r12]        // Jc = I[ei]
  mul.lo.u32 r14, r3, r7          // Nr * col
  shl.b32 r15, r6, 2              // row * 4
  shl.b32 r19, r7, 2              // col * 4
  ld.param.b32 r16, [IN]
  add.u32 r16, r16, r15
  ld.global.b32 r16, [r16]        // iN[row]
  add.u32 r16, r16, r14
  shl.b32 r16, r16, 2
  add.u32 r16, r16, r11
  ld.global.b32 r16, [r16]
  sub.f32 r16, r16, r13           // dN = I[iN[row] + Nr*col] - Jc
  ld.param.b32 r17, [IS]
  add.u32 r17, r17, r15
  ld.global.b32 r17, [r17]        // iS[row]
  add.u32 r17, r17, r14
  shl.b32 r17, r17, 2
  add.u32 r17, r17, r11
  ld.global.b32 r17, [r17]
  sub.f32 r17, r17, r13           // dS = I[iS[row] + Nr*col] - Jc
  ld.param.b32 r18, [JW]
  add.u32 r18, r18, r19
  ld.global.b32 r18, [r18]        // jW[col]
  mad.lo.u32 r18, r3, r18, r6
  shl.b32 r18, r18, 2
  add.u32 r18, r18, r11
  ld.global.b32 r18, [r18]
  sub.f32 r18, r18, r13           // dW = I[row + Nr*jW[col]] - Jc
  ld.param.b32 r20, [JE]
  add.u32 r20, r20, r19
  ld.global.b32 r20, [r20]        // jE[col]
  mad.lo.u32 r20, r3, r20, r6
  shl.b32 r20, r20, 2
  add.u32 r20, r20, r11
  ld.global.b32 r20, [r20]
  sub.f32 r20, r20, r13           // dE = I[row + Nr*jE[col]] - Jc

  // G2 = (dN*dN + dS*dS + dW*dW + dE*dE) / (Jc*Jc)
  mul.f32 r21, r16, r16
  fma.f32 r21, r17, r17, r21
  fma.f32 r21, r18, r18, r21
  fma.f32 r21, r20, r20, r21
  mul.f32 r22, r13, r13
  div.f32 r21, r21, r22
  // L = (dN + dS + dW + dE) / Jc
  add.f32 r22, r16, r17
  add.f32 r22, r22, r18
  add.f32 r22, r22, r20
  div.f32 r22, r22, r13
  // num = 0.5*G2 - (1/16)*(L*L); den = 1 + 0.25*L; qsqr = num / (den*den)
  mul.f32 r23, r22, r22
  mul.f32 r23, r23, 0.0625
  mul.f32 r24, r21, 0.5
  sub.f32 r24, r24, r23
  mov.b32 r25, 0.25
  mov.b32 r26, 1.0
  fma.f32 r25, r22, r25, r26
  mul.f32 r25, r25, r25
  div.f32 r24, r24, r25           // qsqr
  // den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr)); c = 1 / (1 + den)
  ld.param.b32 r26, [Q0SQR]
  add.f32 r27, r26, 1.0
  mul.f32 r27, r26, r27
  sub.f32 r24, r24, r26
  div.f32 r24, r24, r27
  add.f32 r24, r24, 1.0
  rcp.f32 r24, r24                // c
  // if (c < 0) c = 0; else if (c > 1) c = 1 (predicated, no branch)
  mov.b32 r8, 0
  mov.b32 r9, 1.0
  setp.lt.f32 p2, r24, 0.0
  selp.b32 r24, r8, r24, p2
  setp.gt.f32 p3, r24, 1.0
  selp.b32 r24, r9, r24, p3

  // dN[ei] = dN; dS[ei] = dS; dW[ei] = dW; dE[ei] = dE; c[ei] = c
  ld.param.b32 r12, [DN]
  add.u32 r12, r12, r10
  st.global.b32 [r12], r16
  ld.param.b32 r12, [DS]
  add.u32 r12, r12, r10
  st.global.b32 [r12], r17
  ld.param.b32 r12, [DW]
  add.u32 r12, r12, r10
  st.global.b32 [r12], r18
  ld.param.b32 r12, [DE]
  add.u32 r12, r12, r10
  st.global.b32 [r12], r20
  ld.param.b32 r12, [C]
  add.u32 r12, r12, r10
  st.global.b32 [r12], r24
  exit
