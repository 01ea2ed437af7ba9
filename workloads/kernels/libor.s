// LIBOR Monte Carlo (GPGPU-sim benchmark "LIB", Giles' LIBOR market model): kernel
// Pathcalc_Portfolio_KernelGPU2, one thread per path, 256-thread 1D blocks. As in that
// benchmark, every path's Brownian increments are z[n] = 0.3 (the original's "for real
// application, z should be randomly generated"), L[i] starts at 0.05, delta = 0.25.
// The per-thread arrays are local memory, as nvcc places them (they are indexed by loop
// counters): L[N] at byte 0, z[N] at 320, and portfolio()'s B[N-NMAT] at 640 and S[N-NMAT] at
// 800; every thread uses the same offsets, the hardware interleaves them (isa/ISA.md 8.1).
// lambda, maturities and swaprates (the original's __constant__ arrays) are global buffers
// read with ld.const (through the constant cache) at the same address by every thread. No shared memory and no __syncthreads.
.kernel libor
.regs 24
.local 960
.param LAMBDA       // lambda[N]
.param MATURITIES   // maturities[NOPT] (integers)
.param SWAPRATES    // swaprates[NOPT]
.param V            // v[NPATH], the discounted portfolio value of each path
.const N 80
.const NMAT 40
.const NOPT 15
.const LEND 320     // N * 4: the end of L
.const MEND 160     // NMAT * 4
.const Z 320        // z[0]
.const B 640        // B[0]
.const S 800        // S[0]
.const DELTA 0.25
.const LOG2E 1.44269504

  s2r r0, %ctaid.x
  s2r r1, %ntid.x
  s2r r2, %tid.x
  mad.lo.u32 r0, r0, r1, r2       // path = blockDim.x * blockIdx.x + threadIdx.x
  mov.b32 r20, DELTA
  mov.b32 r21, 1.0
  mov.b32 r22, -0.5
  mov.b32 r23, -100.0
  mov.b32 r3, 0.3
  mov.b32 r4, 0.05
  mov.b32 r5, 0                   // &L[i]
init:                             // for (i = 0; i < N; i++) { z[i] = 0.3; L[i] = 0.05; }
  st.local.b32 [r5+Z], r3
  st.local.b32 [r5], r4
  add.u32 r5, r5, 4
  setp.lt.s32 p0, r5, LEND
  @p0 bra init
// path_calc(L, z)
  sqrt.f32 r7, DELTA              // sqrtf(delta)
  mov.b32 r8, 0                   // n = 0
  mov.b32 r1, 0                   // &L[n], &z[n] - Z
nloop:                            // for (n = 0; n < Nmat; n++)
  ld.local.b32 r9, [r1+Z]         // z[n]
  mul.f32 r9, r7, r9              // sqez = sqrtf(delta) * z[n]
  mov.b32 r10, 0                  // v = 0
  add.u32 r11, r8, 1              // i = n + 1
  add.u32 r12, r1, 4              // &L[i]
  ld.param.b32 r13, [LAMBDA]      // &lambda[i - n - 1]
iloop:                            // for (i = n + 1; i < N; i++)
  ld.const.b32 r14, [r13]         // lam = lambda[i - n - 1]
  mul.f32 r15, r20, r14           // con1 = delta * lam
  ld.local.b32 r16, [r12]         // L[i]
  mul.f32 r17, r15, r16           // con1 * L[i]
  fma.f32 r18, r20, r16, r21      // 1.0 + delta * L[i]
  div.f32 r17, r17, r18           // __fdividef(...)
  add.f32 r10, r10, r17           // v += ...
  fma.f32 r18, r22, r15, r9       // sqez - 0.5 * con1
  mul.f32 r18, r14, r18           // lam * (sqez - 0.5 * con1)
  fma.f32 r18, r15, r10, r18      // con1 * v + lam * (...)
  mul.f32 r18, r18, LOG2E         // __expf(x) = ex2(x * log2(e))
  ex2.f32 r18, r18                // vrat
  mul.f32 r16, r16, r18           // L[i] = L[i] * vrat
  st.local.b32 [r12], r16
  add.u32 r12, r12, 4
  add.u32 r13, r13, 4
  add.u32 r11, r11, 1
  setp.lt.s32 p0, r11, N
  @p0 bra iloop
  add.u32 r1, r1, 4
  add.u32 r8, r8, 1
  setp.lt.s32 p0, r8, NMAT
  @p0 bra nloop
// portfolio(L): zero-coupon bonds B and annuities S
  mov.b32 r4, 1.0                 // b = 1.0
  mov.b32 r5, 0                   // s = 0.0
  mov.b32 r12, MEND               // &L[n], n = Nmat
  mov.b32 r13, 0                  // &B[n - Nmat] - B, &S[n - Nmat] - S
bloop:                            // for (n = Nmat; n < N; n++)
  ld.local.b32 r16, [r12]         // L[n]
  fma.f32 r18, r20, r16, r21      // 1.0 + delta * L[n]
  div.f32 r4, r4, r18             // b = b / (1.0 + delta * L[n])
  fma.f32 r5, r20, r4, r5         // s = s + delta * b
  st.local.b32 [r13+B], r4        // B[n - Nmat] = b
  st.local.b32 [r13+S], r5        // S[n - Nmat] = s
  add.u32 r12, r12, 4
  add.u32 r13, r13, 4
  setp.lt.s32 p0, r12, LEND
  @p0 bra bloop
  mov.b32 r10, 0                  // v = 0
  mov.b32 r6, 0                   // i = 0
  ld.param.b32 r15, [MATURITIES]
  ld.param.b32 r19, [SWAPRATES]
optloop:                          // for (i = 0; i < Nopt; i++)
  ld.const.b32 r16, [r15]         // maturities[i]
  sub.u32 r16, r16, 1             // m = maturities[i] - 1
  shl.b32 r16, r16, 2             // &B[m] - B
  ld.local.b32 r17, [r16+B]       // B[m]
  ld.local.b32 r18, [r16+S]       // S[m]
  ld.const.b32 r3, [r19]          // swaprates[i]
  fma.f32 r17, r3, r18, r17       // B[m] + swaprates[i] * S[m]
  sub.f32 r17, r17, 1.0           // swapval = ... - 1.0
  setp.lt.f32 p1, r17, 0
  @p1 fma.f32 r10, r23, r17, r10  // if (swapval < 0) v += -100.0 * swapval
  add.u32 r15, r15, 4
  add.u32 r19, r19, 4
  add.u32 r6, r6, 1
  setp.lt.s32 p0, r6, NOPT
  @p0 bra optloop
  mov.b32 r4, 1.0                 // apply discount: b = 1.0
  mov.b32 r12, 0                  // for (n = 0; n < Nmat; n++), &L[n]
disc:
  ld.local.b32 r16, [r12]
  fma.f32 r18, r20, r16, r21      // 1.0 + delta * L[n]
  div.f32 r4, r4, r18             // b = b / (1.0 + delta * L[n])
  add.u32 r12, r12, 4
  setp.lt.s32 p0, r12, MEND
  @p0 bra disc
  mul.f32 r10, r4, r10            // v = b * v
  ld.param.b32 r3, [V]
  shl.b32 r4, r0, 2
  add.u32 r3, r3, r4
  st.global.b32 [r3], r10         // d_v[path] = portfolio(L)
  exit
