// CUDA twins of the latency microbenchmarks of scenarios/micro/kernels/*.s (docs/microbenchmarks.md,
// "CUDA rows"). One module, one extern "C" kernel per .s file (plus an FMA chain), each taking the
// .s kernel's parameters in its order (a global chase its chain first), then `cycles`.
//
// simtlm runs the PTX committed beside this file (scenarios/micro/cuda/*.yaml, `simtlm microbench
// --source cuda`), compiled with -DSIMTLM:
//   nvcc -ptx -O3 -arch=compute_75 -DSIMTLM micro.cu -o micro.ptx      (scripts/cuda_ptx.sh)
// The same source runs on a GPU: compiled without -DSIMTLM, every kernel also times itself with
// clock64() and writes the cycles of its loop (read before the first iteration and after the
// result's store) to cycles[thread]. simtlm's ISA has no clock register: a clock value would
// differ between the timing model and the functional interpreter, whose memories every run
// compares bit for bit, and simtlm measures each launch's cycles itself.
//
// Dependent chains are written in inline PTX (asm volatile), so that nvcc neither folds them (32
// integer adds of 3 would become one add of 96) nor reorders or merges them; the loops over
// iterations are kept rolled (#pragma unroll 1), as in the .s kernels.
//
// Pointer chases hold byte offsets, not addresses, so that the chain is the same on any machine:
// word j of a chain holds the byte offset of the next word from the chain's start. A global or
// constant step is therefore an add (the base plus the offset) and a load, one dependent
// instruction more than the .s kernels' load-only step; the shared chase keeps shared-window
// addresses (32 bits on every GPU) and loads through them directly, as the .s kernel does.

#ifdef SIMTLM
#define TIMER_START()
#define TIMER_STOP(i)
#else
#define TIMER_START() const long long t0 = clock64()
#define TIMER_STOP(i) cycles[i] = clock64() - t0
#endif

#define REP4(s) s s s s
#define REP8(s) REP4(s) REP4(s)
#define REP16(s) REP8(s) REP8(s)
#define REP32(s) REP16(s) REP16(s)

// Chases from byte offset `start`, `steps` (a multiple of 4) loads per pass, `passes` times over,
// and stores the offset where it ended in out[0] (one thread). LOAD is the PTX load.
#define CHASE_BODY(LOAD)                                                                       \
  const unsigned long long base = reinterpret_cast<unsigned long long>(chain);                 \
  unsigned off = 0;                                                                            \
  TIMER_START();                                                                               \
  _Pragma("unroll 1") for (int p = 0; p < passes; ++p) {                                       \
    off = start;                                                                               \
    _Pragma("unroll 1") for (int s = 0; s < steps; s += 4) {                                   \
      asm volatile(LOAD " %0, [%1];" : "=r"(off) : "l"(base + off));                         \
      asm volatile(LOAD " %0, [%1];" : "=r"(off) : "l"(base + off));                         \
      asm volatile(LOAD " %0, [%1];" : "=r"(off) : "l"(base + off));                         \
      asm volatile(LOAD " %0, [%1];" : "=r"(off) : "l"(base + off));                         \
    }                                                                                          \
  }                                                                                            \
  out[0] = off;                                                                                \
  TIMER_STOP(0)

// chase.s: plain global loads (L1 hits with l1.enabled=true, or nvcc -Xptxas -dlcm=ca on a
// GPU; L2 hits or DRAM otherwise).
extern "C" __global__ void chase(const unsigned* chain, unsigned start, int steps, int passes, unsigned* out,
                                 long long* cycles) {
  CHASE_BODY("ld.global.u32");
}

// chase_nc.s: read-only loads (ld.global.nc, cached in the L1 / texture cache).
extern "C" __global__ void chase_nc(const unsigned* chain, unsigned start, int steps, int passes, unsigned* out,
                                    long long* cycles) {
  CHASE_BODY("ld.global.nc.u32");
}

// chase_const.s: the chain in constant memory (8 KB: 64 steps of 128 bytes), loaded through the
// constant cache. Plain C: nvcc keeps the constant state space of an address derived from c_chain.
__constant__ unsigned c_chain[2048];

extern "C" __global__ void chase_const(unsigned start, int steps, int passes, unsigned* out, long long* cycles) {
  const char* base = reinterpret_cast<const char*>(c_chain);
  unsigned off = 0;
  TIMER_START();
#pragma unroll 1
  for (int p = 0; p < passes; ++p) {
    off = start;
#pragma unroll 1
    for (int s = 0; s < steps; s += 4) {
      off = *reinterpret_cast<const unsigned*>(base + off);
      off = *reinterpret_cast<const unsigned*>(base + off);
      off = *reinterpret_cast<const unsigned*>(base + off);
      off = *reinterpret_cast<const unsigned*>(base + off);
    }
  }
  out[0] = off;
  TIMER_STOP(0);
}

// shared_chase.s: lane i of one warp chases a pointer at shared word i * stride, which holds its
// own shared-window address: an n-way bank conflict per step for stride n (a power of two <= 32).
extern "C" __global__ void shared_chase(int stride, int steps, unsigned* out, long long* cycles) {
  __shared__ unsigned s[1024];
  const unsigned lane = threadIdx.x;
  unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(&s[lane * stride]));
  s[lane * stride] = a;
  TIMER_START();
#pragma unroll 1
  for (int i = 0; i < steps; i += 4) {
    REP4(asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a));)
  }
  out[lane] = a;
  TIMER_STOP(lane);
}

// alu_chain.s: 32 dependent add.f32 per iteration; lane i ends at i + 32 * iters.
extern "C" __global__ void alu_chain(int iters, float* out, long long* cycles) {
  const unsigned lane = threadIdx.x;
  float x = static_cast<float>(lane);
  TIMER_START();
#pragma unroll 1
  for (int i = 0; i < iters; ++i) asm volatile(REP32("add.f32 %0, %0, 0f3F800000;") : "+f"(x));
  out[lane] = x;
  TIMER_STOP(lane);
}

// No .s twin: 32 dependent fma.rn.f32 per iteration (x = x * 1 + 1, the add chain's values),
// the multiplier and addend in registers.
extern "C" __global__ void fma_chain(int iters, float* out, long long* cycles) {
  const unsigned lane = threadIdx.x;
  float x = static_cast<float>(lane);
  const float one = 1.0f;
  TIMER_START();
#pragma unroll 1
  for (int i = 0; i < iters; ++i) asm volatile(REP32("fma.rn.f32 %0, %0, %1, %1;") : "+f"(x) : "f"(one));
  out[lane] = x;
  TIMER_STOP(lane);
}

// int_chain.s: 32 dependent add.u32 of 3 per iteration; lane i ends at i + 96 * iters.
extern "C" __global__ void int_chain(int iters, unsigned* out, long long* cycles) {
  const unsigned lane = threadIdx.x;
  unsigned x = lane;
  TIMER_START();
#pragma unroll 1
  for (int i = 0; i < iters; ++i) asm volatile(REP32("add.u32 %0, %0, 3;") : "+r"(x));
  out[lane] = x;
  TIMER_STOP(lane);
}

// setp_chain.s: 32 dependent setp + selp pairs per iteration (selp's operands in registers).
extern "C" __global__ void setp_chain(int iters, unsigned* out, long long* cycles) {
  const unsigned lane = threadIdx.x;
  unsigned x = lane;
  const unsigned a = lane + 1, b = 7;
  TIMER_START();
#pragma unroll 1
  for (int i = 0; i < iters; ++i)
    asm volatile("{\n.reg .pred %%q;\n" REP32("setp.lt.u32 %%q, %0, 1000000;\nselp.b32 %0, %1, %2, %%q;\n") "}"
                 : "+r"(x)
                 : "r"(a), "r"(b));
  out[lane] = x;
  TIMER_STOP(lane);
}

// sfu_chain.s: 8 dependent reciprocals per iteration (rcp.approx.ftz: one MUFU.RCP on a GPU).
extern "C" __global__ void sfu_chain(int iters, float* out, long long* cycles) {
  const unsigned lane = threadIdx.x;
  float x = static_cast<float>(lane) + 2.0f;  // away from 0: rcp alternates between x and 1/x
  TIMER_START();
#pragma unroll 1
  for (int i = 0; i < iters; ++i) asm volatile(REP8("rcp.approx.ftz.f32 %0, %0;") : "+f"(x));
  out[lane] = x;
  TIMER_STOP(lane);
}

// atomic_chain_shared.s: 16 dependent atomic adds per iteration (each adds what the one before
// returned), every thread of the block on one shared word.
extern "C" __global__ void atomic_chain_shared(int iters, unsigned* out, long long* cycles) {
  __shared__ unsigned word;
  const unsigned lane = threadIdx.x;
  if (lane == 0) word = 0;
  __syncthreads();
  unsigned v = lane + 1;
  TIMER_START();
#pragma unroll 1
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 16; ++k) v = atomicAdd(&word, v);
  }
  out[lane] = v;
  TIMER_STOP(lane);
}

// atomic_chain_global.s: the same on a global word.
extern "C" __global__ void atomic_chain_global(int iters, unsigned* word, unsigned* out, long long* cycles) {
  const unsigned lane = threadIdx.x;
  unsigned v = lane + 1;
  TIMER_START();
#pragma unroll 1
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 16; ++k) v = atomicAdd(word, v);
  }
  out[lane] = v;
  TIMER_STOP(lane);
}
