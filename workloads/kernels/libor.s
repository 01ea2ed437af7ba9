// LIBOR Monte Carlo (GPGPU-sim benchmark "LIB", Giles' LIBOR market model): kernel
// Pathcalc_Portfolio_KernelGPU, one thread per path, 256-thread 1D blocks. As in that
// benchmark, every path's Brownian increments are z[n] = 0.3 (the original's "for real
// application, z should be randomly generated"), L[i] starts at 0.05, delta = 0.25.
// The per-thread arrays L[N], B[N-NMAT], S[N-NMAT] live in CUDA local memory; simtlm has no
// local space, so they sit in a global buffer with CUDA's local layout (word j of thread t at
// LOCAL + (j * NPATH + t) * 4: consecutive threads, consecutive words). lambda, maturities and
// swaprates (the original's __constant__ arrays) are global buffers read uniformly.
// No shared memory and no __syncthreads, as in the original.
.kernel libor
.regs 24
.param LAMBDA       // lambda[N]
.param MATURITIES   // maturities[NOPT] (integers)
.param SWAPRATES    // swaprates[NOPT]
.param LOCAL        // (N + 2 * (N - NMAT)) * NPATH words
.param V            // v[NPATH], the discounted portfolio value of each path
.param NPATH        // threads in the grid (one path each)
.const N 80
.const NMAT 40
.const NOPT 15
.const DELTA 0.25
.const LOG2E 1.44269504

  s2r r0, %ctaid.x
  s2r r1, %ntid.x
  s2r r2, %tid.x
  mad.lo.u32 r0, r0, r1, r2       // path = blockDim.x * blockIdx.x + threadIdx.x
  ld.param.b32 r1, [NPATH]
  shl.b32 r1, r1, 2               // bytes between a thread's consecutive local words
  ld.param.b32 r2, [LOCAL]
  shl.b32 r3, r0, 2
  add.u32 r2, r2, r3              // &L[0] of this thread
  mov.b32 r20, DELTA
  mov.b32 r21, 1.0
  mov.b32 r22, -0.5
  mov.b32 r23, -100.0
  mov.b32 r4, 0.05
  mov.b32 r5, r2
  mov.b32 r6, 0
init:                             // for (i = 0; i < N; i++) L[i] = 0.05 (z[i] = 0.3 is folded)
  st.global.b32 [r5], r4
  add.u32 r5, r5, r1
  add.u32 r6, r6, 1
  setp.lt.s32 p0, r6, N
  @p0 bra init
// path_calc(L, z)
  sqrt.f32 r7, DELTA              // sqrtf(delta)
  mov.b32 r8, 0                   // n = 0
nloop:                            // for (n = 0; n < Nmat; n++)
  mul.f32 r9, r7, 0.3             // sqez = sqrtf(delta) * z[n]
  mov.b32 r10, 0                  // v = 0
  add.u32 r11, r8, 1              // i = n + 1
  mad.lo.u32 r12, r11, r1, r2     // &L[i]
  ld.param.b32 r13, [LAMBDA]      // &lambda[i - n - 1]
iloop:                            // for (i = n + 1; i < N; i++)
  ld.global.b32 r14, [r13]        // lam = lambda[i - n - 1]   (uniform load)
  mul.f32 r15, r20, r14           // con1 = delta * lam
  ld.global.b32 r16, [r12]        // L[i]                      (local load)
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
  st.global.b32 [r12], r16        //                           (local store)
  add.u32 r12, r12, r1
  add.u32 r13, r13, 4
  add.u32 r11, r11, 1
  setp.lt.s32 p0, r11, N
  @p0 bra iloop
  add.u32 r8, r8, 1
  setp.lt.s32 p0, r8, NMAT
  @p0 bra nloop
// portfolio(L): zero-coupon bonds B and annuities S
  mov.b32 r4, 1.0                 // b = 1.0
  mov.b32 r5, 0                   // s = 0.0
  mov.b32 r6, NMAT                // n = Nmat
  mad.lo.u32 r12, r6, r1, r2      // &L[Nmat]
  mul.lo.u32 r13, r1, N
  add.u32 r13, r13, r2            // &B[0] = local word N
  mul.lo.u32 r14, r1, 40          // S[k] is 40 (N - NMAT) local words after B[k]
bloop:                            // for (n = Nmat; n < N; n++)
  ld.global.b32 r16, [r12]        // L[n]
  fma.f32 r18, r20, r16, r21      // 1.0 + delta * L[n]
  div.f32 r4, r4, r18             // b = b / (1.0 + delta * L[n])
  fma.f32 r5, r20, r4, r5         // s = s + delta * b
  st.global.b32 [r13], r4         // B[n - Nmat] = b
  add.u32 r17, r13, r14
  st.global.b32 [r17], r5         // S[n - Nmat] = s
  add.u32 r12, r12, r1
  add.u32 r13, r13, r1
  add.u32 r6, r6, 1
  setp.lt.s32 p0, r6, N
  @p0 bra bloop
  mov.b32 r10, 0                  // v = 0
  mov.b32 r6, 0                   // i = 0
  ld.param.b32 r15, [MATURITIES]
  ld.param.b32 r19, [SWAPRATES]
  mul.lo.u32 r13, r1, N
  add.u32 r13, r13, r2            // &B[0]
optloop:                          // for (i = 0; i < Nopt; i++)
  ld.global.b32 r16, [r15]        // maturities[i]             (uniform load)
  sub.u32 r16, r16, 1             // m = maturities[i] - 1
  mad.lo.u32 r16, r16, r1, r13    // &B[m]
  ld.global.b32 r17, [r16]        // B[m]
  add.u32 r16, r16, r14
  ld.global.b32 r18, [r16]        // S[m]
  ld.global.b32 r3, [r19]         // swaprates[i]              (uniform load)
  fma.f32 r17, r3, r18, r17       // B[m] + swaprates[i] * S[m]
  sub.f32 r17, r17, 1.0           // swapval = ... - 1.0
  setp.lt.f32 p1, r17, 0
  @p1 fma.f32 r10, r23, r17, r10  // if (swapval < 0) v += -100.0 * swapval
  add.u32 r15, r15, 4
  add.u32 r19, r19, 4
  add.u32 r6, r6, 1
  setp.lt.s32 p0, r6, NOPT
  @p0 bra optloop
  mov.b32 r6, 0                   // apply discount: for (n = 0; n < Nmat; n++)
  mov.b32 r12, r2                 // &L[0]
disc:
  ld.global.b32 r16, [r12]
  fma.f32 r18, r20, r16, r21      // 1.0 + delta * L[n]
  div.f32 r10, r10, r18           // v = v / (1.0 + delta * L[n])
  add.u32 r12, r12, r1
  add.u32 r6, r6, 1
  setp.lt.s32 p0, r6, NMAT
  @p0 bra disc
  ld.param.b32 r3, [V]
  shl.b32 r4, r0, 2
  add.u32 r3, r3, r4
  st.global.b32 [r3], r10         // d_v[path] = portfolio(L)
  exit
