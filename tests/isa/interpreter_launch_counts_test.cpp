// The golden functional interpreter: launch validation, exact instruction counts per class, and
// determinism of memory, counts and trace.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>

#include "tests/isa/test_support.h"

using namespace simtlm;
using namespace simtlm::isa;
using namespace simtlm::test;

// ---------------------------------------------------------------------------------------------
// Launch validation
// ---------------------------------------------------------------------------------------------

TEST(InterpLaunch, RejectsBadConfigurations) {
  Kernel k = assemble(R"(
.kernel two
.param A
.param B
  exit
)");
  std::string m = launchError(k, launch({1}, {32}, {0, 0}, 0));
  EXPECT_CONTAINS(m, "warp size");
  EXPECT_CONTAINS(m, "[1, 32]");
  m = launchError(k, launch({1}, {32}, {0, 0}, 33));
  EXPECT_CONTAINS(m, "warp size = 33");
  m = launchError(k, launch({1}, {1025}, {0, 0}));
  EXPECT_CONTAINS(m, "block.x = 1025");
  m = launchError(k, launch({1}, {32, 32, 2}, {0, 0}));
  EXPECT_CONTAINS(m, "threads per block = 2048");
  EXPECT_CONTAINS(m, "[1, 1024]");
  m = launchError(k, launch({1}, {8, 8, 65}, {0, 0}));
  EXPECT_CONTAINS(m, "block.z");
  m = launchError(k, launch({1, 0}, {32}, {0, 0}));
  EXPECT_CONTAINS(m, "grid.y = 0");
  m = launchError(k, launch({1}, {0}, {0, 0}));
  EXPECT_CONTAINS(m, "block.x = 0");
  m = launchError(k, launch({1}, {32}, {0}));
  EXPECT_CONTAINS(m, "kernel 'two' takes 2 parameters");
  EXPECT_CONTAINS(m, "launch gives 1");
  EXPECT_CONTAINS(m, "'B'");  // names the parameter that is missing
  m = launchError(k, launch({1}, {32}, {0, 0, 0}));
  EXPECT_CONTAINS(m, "takes 2 parameters");
  EXPECT_CONTAINS(m, "launch gives 3");
  // The boundary values are accepted.
  GlobalMemory mem;
  EXPECT_NO_THROW(Interpreter(k, mem).run(launch({1}, {1024}, {0, 0}, 1)));
  EXPECT_NO_THROW(Interpreter(k, mem).run(launch({1}, {1}, {0, 0}, 32)));
}

// ---------------------------------------------------------------------------------------------
// Counting
// ---------------------------------------------------------------------------------------------

namespace {
const char* kStraight = R"(
.kernel straight
.param OUT
  s2r r0, %tid.x              // Move
  shl.b32 r1, r0, 2           // Int
  ld.param.b32 r2, [OUT]      // LoadParam
  add.u32 r2, r2, r1          // Int
  mul.lo.u32 r3, r0, r0       // IntMul
  st.global.b32 [r2], r3      // StoreGlobal
  exit                        // Exit
)";

uint64_t byClass(const std::array<uint64_t, kNumOpClasses>& a, OpClass c) {
  return a[static_cast<int>(c)];
}
}  // namespace

TEST(InterpCounts, StraightLineKernelExact) {
  Kernel k = assemble(kStraight);
  GlobalMemory mem;
  uint32_t out = mem.allocate("out", 64 * 4);
  // Two blocks of 64 threads writing the same 64 words.
  ExecCounts c = Interpreter(k, mem).run(launch({2}, {64}, {out}));
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(mem.words("out")[t], t * t);
  EXPECT_EQ(c.blocks, 2u);
  EXPECT_EQ(c.warps, 4u);
  EXPECT_EQ(c.threads, 128u);
  EXPECT_EQ(c.warpInstructions, 28u);
  EXPECT_EQ(c.threadInstructions, 7u * 128);
  std::array<uint64_t, kNumOpClasses> w{};
  w[static_cast<int>(OpClass::Move)] = 4;
  w[static_cast<int>(OpClass::Int)] = 8;
  w[static_cast<int>(OpClass::LoadParam)] = 4;
  w[static_cast<int>(OpClass::IntMul)] = 4;
  w[static_cast<int>(OpClass::StoreGlobal)] = 4;
  w[static_cast<int>(OpClass::Exit)] = 4;
  EXPECT_EQ(c.warpByClass, w);
  for (int i = 0; i < kNumOpClasses; ++i) EXPECT_EQ(c.threadByClass[i], w[i] * 32) << i;
  EXPECT_EQ(c.divergentBranches, 0u);
  EXPECT_EQ(c.barriers, 0u);
}

TEST(InterpCounts, PartialWarpCountsActiveLanes) {
  Kernel k = assemble(kStraight);
  {
    GlobalMemory mem;
    uint32_t out = mem.allocate("out", 40 * 4);
    ExecCounts c = Interpreter(k, mem).run(launch({1}, {40}, {out}));
    EXPECT_EQ(c.warps, 2u);
    EXPECT_EQ(c.threads, 40u);
    EXPECT_EQ(c.warpInstructions, 14u);
    EXPECT_EQ(c.threadInstructions, 7u * 40);
    EXPECT_EQ(byClass(c.warpByClass, OpClass::Int), 4u);
    EXPECT_EQ(byClass(c.threadByClass, OpClass::Int), 80u);
    EXPECT_EQ(byClass(c.threadByClass, OpClass::StoreGlobal), 40u);
  }
  {
    GlobalMemory mem;
    uint32_t out = mem.allocate("out", 20 * 4);
    ExecCounts c = Interpreter(k, mem).run(launch({1}, {20}, {out}, 8));  // 8 + 8 + 4 lanes
    EXPECT_EQ(c.warps, 3u);
    EXPECT_EQ(c.warpInstructions, 21u);
    EXPECT_EQ(c.threadInstructions, 140u);
    EXPECT_EQ(byClass(c.threadByClass, OpClass::Move), 20u);
  }
}

TEST(InterpCounts, GuardedOffLanesStillIssueAndDivergenceIsCounted) {
  // A guarded instruction counts every active lane (they are issued); a divergent if/else
  // counts the arms with their own lanes.
  Kernel k = assemble(R"(
.kernel guarded
.param OUT
  s2r r0, %tid.x              // 32
  setp.lt.u32 p0, r0, 8       // 32
  @p0 add.u32 r0, r0, 100     // 32 (8 lanes write)
  @p0 bra THEN                // 32
  mov.b32 r1, 2               // 24
  bra JOIN                    // 24
THEN:
  mov.b32 r1, 1               // 8
JOIN:
  add.u32 r1, r1, r0          // 32
  ld.param.b32 r2, [OUT]      // 32
  s2r r3, %tid.x              // 32
  shl.b32 r3, r3, 2           // 32
  add.u32 r2, r2, r3          // 32
  st.global.b32 [r2], r1      // 32
  exit                        // 32
)");
  GlobalMemory mem;
  uint32_t out = mem.allocate("out", 32 * 4);
  ExecCounts c = Interpreter(k, mem).run(launch({1}, {32}, {out}));
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(mem.words("out")[t], t < 8 ? t + 101 : t + 2);
  EXPECT_EQ(c.warpInstructions, 14u);
  EXPECT_EQ(c.threadInstructions, 32u * 11 + 24 * 2 + 8);
  EXPECT_EQ(c.divergentBranches, 1u);
  EXPECT_EQ(byClass(c.warpByClass, OpClass::Control), 2u);
  EXPECT_EQ(byClass(c.threadByClass, OpClass::Control), 32u + 24);
  EXPECT_EQ(byClass(c.warpByClass, OpClass::Move), 4u);
  EXPECT_EQ(byClass(c.threadByClass, OpClass::Move), 32u + 24 + 8 + 32);
}

// ---------------------------------------------------------------------------------------------
// Determinism
// ---------------------------------------------------------------------------------------------

TEST(InterpDeterminism, SameKernelTwiceGivesIdenticalMemoryCountsAndTrace) {
  // Divergence, a CAS loop racing across warps, barriers and exchanges: the order of atomics is
  // the interpreter's schedule, so identical results show the schedule is deterministic.
  Kernel k = assemble(R"(
.kernel mix
.shared 256
.param CTR
.param OUT
  s2r r0, %tid.x
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  mad.lo.u32 r3, r1, r2, r0
  shl.b32 r3, r3, 2
  ld.param.b32 r4, [CTR]
RETRY:
  ld.global.b32 r5, [r4]
  mul.lo.u32 r6, r5, 3
  add.u32 r6, r6, r0
  atom.global.cas.b32 r7, [r4], r5, r6
  setp.ne.b32 p0, r7, r5
  @p0 bra RETRY
  atom.global.exch.b32 r8, [r4+4], r0
  shl.b32 r9, r0, 2
  st.shared.b32 [r9], r7
  bar.sync 0
  add.u32 r10, r0, 9
  rem.u32 r10, r10, r2
  shl.b32 r10, r10, 2
  ld.shared.b32 r11, [r10]
  add.u32 r11, r11, r8
  ld.param.b32 r12, [OUT]
  add.u32 r12, r12, r3
  st.global.b32 [r12], r11
  exit
)");
  auto once = [&](Recorder& rec, ExecCounts& c) {
    GlobalMemory mem;
    uint32_t ctr = mem.allocate("ctr", 8), out = mem.allocate("out", 3 * 48 * 4);
    c = Interpreter(k, mem).run(launch({3}, {48}, {ctr, out}, 8), &rec);
    return mem;
  };
  Recorder r1, r2;
  ExecCounts c1, c2;
  GlobalMemory m1 = once(r1, c1), m2 = once(r2, c2);
  EXPECT_TRUE(m1 == m2);
  EXPECT_EQ(m1.words("out"), m2.words("out"));
  EXPECT_EQ(m1.words("ctr"), m2.words("ctr"));
  EXPECT_EQ(c1.warpInstructions, c2.warpInstructions);
  EXPECT_EQ(c1.threadInstructions, c2.threadInstructions);
  EXPECT_EQ(c1.warpByClass, c2.warpByClass);
  EXPECT_EQ(c1.threadByClass, c2.threadByClass);
  EXPECT_EQ(c1.divergentBranches, c2.divergentBranches);
  EXPECT_EQ(c1.barriers, c2.barriers);
  EXPECT_TRUE(r1.steps == r2.steps);
  EXPECT_EQ(c1.warpInstructions, r1.steps.size());
  EXPECT_EQ(c1.barriers, 3u);

  // Same interpreter object run twice on fresh memory as well.
  GlobalMemory a, b;
  uint32_t ca = a.allocate("ctr", 8), oa = a.allocate("out", 3 * 48 * 4);
  uint32_t cb = b.allocate("ctr", 8), ob = b.allocate("out", 3 * 48 * 4);
  ASSERT_EQ(ca, cb);
  ASSERT_EQ(oa, ob);
  Interpreter ia(k, a);
  ExecCounts x = ia.run(launch({3}, {48}, {ca, oa}, 8));
  Interpreter ib(k, b);
  ExecCounts y = ib.run(launch({3}, {48}, {cb, ob}, 8));
  EXPECT_TRUE(a == b);
  EXPECT_TRUE(a == m1);
  EXPECT_EQ(x.warpInstructions, y.warpInstructions);
}
