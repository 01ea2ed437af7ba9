// The golden functional interpreter: bar.sync and shared memory (exchanges across warps,
// fresh shared memory per block, barriers in loops, lanes that exit before a barrier).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "tests/isa/test_support.h"

using namespace simtlm;
using namespace simtlm::isa;
using namespace simtlm::test;

namespace {
// Warp w reads the values written by warp w+1 (mod the block) before the barrier.
const char* kExchange = R"(
.kernel exchange
.shared 512
.param OUT
.param STRIDE
  s2r r0, %tid.x
  s2r r1, %ntid.x
  s2r r11, %ctaid.x
  shl.b32 r2, r0, 2
  mul.lo.u32 r3, r0, 3
  add.u32 r3, r3, 7
  add.u32 r3, r3, r11        // value = 3 * tid + 7 + block
  st.shared.b32 [r2], r3
SYNC:
  bar.sync 0
  ld.param.b32 r4, [STRIDE]
  add.u32 r4, r0, r4
  rem.u32 r4, r4, r1
  shl.b32 r4, r4, 2
  ld.shared.b32 r5, [r4]
  mad.lo.u32 r6, r11, r1, r0
  shl.b32 r6, r6, 2
  ld.param.b32 r7, [OUT]
  add.u32 r7, r7, r6
  st.global.b32 [r7], r5
  exit
)";
}  // namespace

TEST(InterpBarrier, SharedExchangeAcrossWarps) {
  for (uint32_t ws : {32u, 8u}) {
    SCOPED_TRACE("warp size " + std::to_string(ws));
    Kernel k = assemble(kExchange);
    const uint32_t n = 128, blocks = 2;
    GlobalMemory mem;
    uint32_t out = mem.allocate("out", n * blocks * 4);
    ExecCounts c = Interpreter(k, mem).run(launch({blocks}, {n}, {out, ws}, ws));
    Words w = mem.words("out");
    for (uint32_t b = 0; b < blocks; ++b)
      for (uint32_t t = 0; t < n; ++t)
        EXPECT_EQ(w[b * n + t], 3 * ((t + ws) % n) + 7 + b) << "block " << b << " thread " << t;
    EXPECT_EQ(c.barriers, blocks);

    // Without the barrier the same kernel reads stale shared memory: the test depends on it.
    std::string text = kExchange;
    text.replace(text.find("bar.sync 0"), 10, "nop");
    Kernel nb = assemble(text);
    GlobalMemory mem2;
    uint32_t out2 = mem2.allocate("out", n * blocks * 4);
    Interpreter(nb, mem2).run(launch({blocks}, {n}, {out2, ws}, ws));
    EXPECT_NE(mem2.words("out"), w);
  }
}

TEST(InterpBarrier, SharedMemoryStartsZeroInEveryBlock) {
  // Every block reads a shared word before writing it: each must see zero, not the value the
  // previous block left there.
  Kernel k = assemble(R"(
.kernel fresh
.shared 8
.param OUT
  s2r r0, %ctaid.x
  ld.shared.b32 r1, [4]
  shl.b32 r2, r0, 2
  ld.param.b32 r3, [OUT]
  add.u32 r3, r3, r2
  st.global.b32 [r3], r1
  add.u32 r4, r0, 77
  st.shared.b32 [4], r4
  exit
)");
  GlobalMemory mem;
  uint32_t out = mem.allocate("out", 3 * 4);
  mem.setWords("out", {9, 9, 9});
  Interpreter(k, mem).run(launch({3}, {1}, {out}));
  EXPECT_EQ(mem.words("out"), (Words{0, 0, 0}));
}

TEST(InterpBarrier, MultipleBarriersInALoop) {
  // Each iteration: publish a value, barrier, read the neighbour's, barrier (so nobody
  // overwrites a slot before everybody has read it), combine. 40 threads in 5 warps of 8.
  Kernel k = assemble(R"(
.kernel ring
.shared 160
.param OUT
.param ITERS
  s2r r0, %tid.x
  s2r r1, %ntid.x
  s2r r11, %ctaid.x
  shl.b32 r2, r0, 2
  add.u32 r3, r0, r11        // value = tid + block
  mov.b32 r7, 0
  mov.b32 r9, 2
  ld.param.b32 r8, [ITERS]
  add.u32 r4, r0, 1
  rem.u32 r4, r4, r1
  shl.b32 r4, r4, 2          // neighbour's slot
LOOP:
  st.shared.b32 [r2], r3
  bar.sync 0
  ld.shared.b32 r5, [r4]
  bar.sync 1
  mad.lo.u32 r3, r3, r9, r5  // value = 2 * value + neighbour
  add.u32 r7, r7, 1
  setp.lt.u32 p0, r7, r8
  @p0 bra LOOP
  mad.lo.u32 r6, r11, r1, r0
  shl.b32 r6, r6, 2
  ld.param.b32 r10, [OUT]
  add.u32 r10, r10, r6
  st.global.b32 [r10], r3
  exit
)");
  const uint32_t n = 40, blocks = 2, iters = 6;
  GlobalMemory mem;
  uint32_t out = mem.allocate("out", n * blocks * 4);
  ExecCounts c = Interpreter(k, mem).run(launch({blocks}, {n}, {out, iters}, 8));
  Words w = mem.words("out");
  for (uint32_t b = 0; b < blocks; ++b) {
    Words v(n);
    for (uint32_t t = 0; t < n; ++t) v[t] = t + b;
    for (uint32_t i = 0; i < iters; ++i) {
      Words nv(n);
      for (uint32_t t = 0; t < n; ++t) nv[t] = 2 * v[t] + v[(t + 1) % n];
      v = nv;
    }
    for (uint32_t t = 0; t < n; ++t) EXPECT_EQ(w[b * n + t], v[t]) << "block " << b << " thread " << t;
  }
  EXPECT_EQ(c.barriers, uint64_t{2} * iters * blocks);
  EXPECT_EQ(c.divergentBranches, 0u);
}

TEST(InterpBarrier, PartialLaneExitBeforeBarrierIsFine) {
  // Lane 0 of every warp exits; the remaining lanes of each warp synchronize normally.
  Kernel k = assemble(R"(
.kernel partial
.shared 256
.param OUT
  s2r r0, %tid.x
  s2r r1, %laneid
  setp.eq.b32 p0, r1, 0
  @p0 exit
  shl.b32 r2, r0, 2
  st.shared.b32 [r2], r0
  bar.sync 3
  xor.b32 r3, r2, 64         // partner in the other half of the block (tid ^ 16)
  ld.shared.b32 r4, [r3]
  ld.param.b32 r5, [OUT]
  add.u32 r5, r5, r2
  st.global.b32 [r5], r4
  exit
)");
  GlobalMemory mem;
  uint32_t out = mem.allocate("out", 32 * 4);
  ExecCounts c = Interpreter(k, mem).run(launch({1}, {32}, {out}, 8));
  Words w = mem.words("out");
  for (uint32_t t = 0; t < 32; ++t) {
    uint32_t p = t ^ 16;
    EXPECT_EQ(w[t], t % 8 == 0 ? 0u : (p % 8 == 0 ? 0u : p)) << "thread " << t;
  }
  EXPECT_EQ(c.barriers, 1u);
}
