// European call options by the binomial model, as the CUDA SDK sample binomialOptions
// (binomialOptions_kernel.cu, float version, the CACHE_DELTA tiling): one block of
// CACHE_SIZE = 256 threads per option (blockIdx.x), NUM_STEPS (the STEPS parameter) time
// steps. The block computes the NUM_STEPS + 1 leaf values
// max(S * expf(vDt * (2i - NUM_STEPS)) - X, 0) into its frame d_Call of the global call buffer,
// then walks back down the tree: for i = NUM_STEPS, NUM_STEPS - 32, ..., 32 it moves tiles of
// 256 nodes (c_base = 0, 224, 448, ... < i) into shared callA, runs CACHE_DELTA = 32 half-steps
// callB[tid] = puByDf * callA[tid+1] + pdByDf * callA[tid] (and back into callA), a bar.sync
// before each, and flushes the c_end + 1 = c_start - 31 finished nodes back to d_Call; thread 0
// writes callA[0] to d_CallValue[blockIdx.x]. expf(x) as __expf, ex2(x * log2(e)) (what nvcc
// emits under -use_fast_math; docs/workloads/binomial.md). As nvcc compiles it: S * e - X and the sums of products contracted to fma; (d > 0) ? d : 0 as
// max.f32(d, 0) (the same value for every d, NaN and -0 included); the tile pointer
// &d_Call[c_base + tid] computed once for the load and the flush. The option data
// (S, X, vDt, puByDf, pdByDf per option), __constant__ in the original, is a global array read
// with ld.const (through the constant cache).
.kernel binomialOptionsKernel
.regs 18
.shared 2056                      // callA[CACHE_SIZE + 1] at 0, callB[CACHE_SIZE + 1] at 1028
.param CALL_VALUE                 // d_CallValue[optN]
.param CALL_BUFFER                // d_CallBuffer[optN * (NUM_STEPS + 16)]
.param OPTION_DATA                // d_OptionData[optN]: {S, X, vDt, puByDf, pdByDf}
.param STEPS                      // NUM_STEPS, a multiple of CACHE_DELTA
.const CACHE_SIZE 256
.const CACHE_DELTA 32
.const CACHE_STEP 224             // CACHE_SIZE - CACHE_DELTA
.const CALLB 1028                 // callB's byte offset
.const CALLB1 1032                // &callB[1]
.const LOG2E 1.44269504           // __expf(x) = ex2(x * log2(e))

  s2r r0, %tid.x                  // tid
  s2r r1, %ctaid.x
  ld.param.b32 r2, [STEPS]        // NUM_STEPS
  add.u32 r3, r2, 16
  mul.lo.u32 r3, r1, r3
  shl.b32 r3, r3, 2
  ld.param.b32 r4, [CALL_BUFFER]
  add.u32 r3, r4, r3              // d_Call = &d_CallBuffer[blockIdx.x * (NUM_STEPS + 16)]
  mul.lo.u32 r4, r1, 20
  ld.param.b32 r5, [OPTION_DATA]
  add.u32 r9, r5, r4              // &d_OptionData[blockIdx.x]
  ld.const.b32 r4, [r9]           // S
  ld.const.b32 r5, [r9+4]         // X
  ld.const.b32 r6, [r9+8]         // vDt
  ld.const.b32 r7, [r9+12]        // puByDf
  ld.const.b32 r8, [r9+16]        // pdByDf
  // for (i = tid; i <= NUM_STEPS; i += CACHE_SIZE) d_Call[i] = expiryCallValue(S, X, vDt, i);
  setp.gt.s32 p0, r0, r2
  @p0 bra expiry_done
  cvt.f32.s32 r9, r2              // (float)NUM_STEPS
  neg.f32 r10, r5                 // -X
  shl.b32 r11, r0, 2
  add.u32 r11, r3, r11            // &d_Call[i]
  mov.b32 r12, r0                 // i
expiry:
  cvt.f32.s32 r13, r12
  add.f32 r13, r13, r13           // 2.0f * i (exact)
  sub.f32 r13, r13, r9            // 2.0f * i - NUM_STEPS
  mul.f32 r13, r6, r13            // vDt * (2.0f * i - NUM_STEPS)
  mul.f32 r13, r13, LOG2E
  ex2.f32 r13, r13                // __expf
  fma.f32 r13, r4, r13, r10       // d = S * expf(...) - X
  max.f32 r13, r13, 0.0           // (d > 0) ? d : 0
  st.global.b32 [r11], r13
  add.u32 r12, r12, CACHE_SIZE
  add.u32 r11, r11, 1024          // CACHE_SIZE * 4
  setp.le.s32 p0, r12, r2
  @p0 bra expiry
expiry_done:
  // for (i = NUM_STEPS; i > 0; i -= CACHE_DELTA)
  setp.lt.s32 p0, r2, 1
  @p0 bra tree_done
  shl.b32 r9, r0, 2               // &callA[tid]
  mov.b32 r10, r2                 // i
outer:
  mov.b32 r11, 0                  // c_base (c_base < i holds on entry)
tile:
  sub.u32 r12, r10, r11
  min.s32 r12, r12, 255           // c_start = min(CACHE_SIZE - 1, i - c_base)
  sub.u32 r13, r12, CACHE_DELTA   // c_end = c_start - CACHE_DELTA
  add.u32 r14, r11, r0
  shl.b32 r14, r14, 2
  add.u32 r14, r3, r14            // &d_Call[c_base + tid]
  bar.sync 0
  // if (tid <= c_start) callA[tid] = d_Call[c_base + tid];
  setp.gt.s32 p0, r0, r12
  @p0 bra tile_loaded
  ld.global.b32 r15, [r14]
  st.shared.b32 [r9], r15
tile_loaded:
  // for (k = c_start - 1; k >= c_end;)
  sub.u32 r16, r12, 1             // k
half_steps:
  bar.sync 0
  ld.shared.b32 r15, [r9]
  mul.f32 r15, r8, r15            // pdByDf * callA[tid]
  ld.shared.b32 r17, [r9+4]
  fma.f32 r15, r7, r17, r15       // puByDf * callA[tid + 1] + ...
  st.shared.b32 [r9+CALLB], r15   // callB[tid]
  bar.sync 0
  ld.shared.b32 r15, [r9+CALLB]
  mul.f32 r15, r8, r15            // pdByDf * callB[tid]
  ld.shared.b32 r17, [r9+CALLB1]
  fma.f32 r15, r7, r17, r15       // puByDf * callB[tid + 1] + ...
  st.shared.b32 [r9], r15         // callA[tid]
  sub.u32 r16, r16, 2             // k--, k--
  setp.ge.s32 p0, r16, r13
  @p0 bra half_steps
  // Flush shared memory cache: if (tid <= c_end) d_Call[c_base + tid] = callA[tid];
  bar.sync 0
  setp.gt.s32 p0, r0, r13
  @p0 bra flushed
  ld.shared.b32 r15, [r9]
  st.global.b32 [r14], r15
flushed:
  add.u32 r11, r11, CACHE_STEP
  setp.lt.s32 p0, r11, r10
  @p0 bra tile
  sub.u32 r10, r10, CACHE_DELTA
  setp.gt.s32 p0, r10, 0
  @p0 bra outer
tree_done:
  // if (threadIdx.x == 0) d_CallValue[blockIdx.x] = callA[0];
  setp.ne.b32 p0, r0, 0
  @p0 exit
  ld.shared.b32 r15, [0]
  ld.param.b32 r16, [CALL_VALUE]
  shl.b32 r17, r1, 2
  add.u32 r16, r16, r17
  st.global.b32 [r16], r15
  exit
