// The golden functional interpreter: SIMT reconvergence of nested if/else, loops with per-lane
// trip counts and breaks, early exits. Every kernel is assembled inline and every check is exact.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "tests/isa/test_support.h"

using namespace simtlm;
using namespace simtlm::isa;
using namespace simtlm::test;

namespace {
// Nested if/else on the lane (tid.x & 31), in both arms of the outer if. Each leaf stores its
// path id to LEAF[tid]; after the outer join every lane stores its combined value to OUT[tid].
const char* kNested = R"(
.kernel nested
.param LEAF
.param OUT
  s2r r0, %tid.x
  shl.b32 r8, r0, 2
  ld.param.b32 r9, [LEAF]
  add.u32 r9, r9, r8
  ld.param.b32 r10, [OUT]
  add.u32 r10, r10, r8
  and.b32 r0, r0, 31
  mov.b32 r2, 0
  setp.lt.u32 p0, r0, 16
  @!p0 bra OUTER_ELSE
  setp.lt.u32 p1, r0, 8
  @!p1 bra INNER_ELSE
  mov.b32 r1, 1
  st.global.b32 [r9], r1
  bra INNER_JOIN
INNER_ELSE:
  mov.b32 r1, 2
  st.global.b32 [r9], r1
INNER_JOIN:
  add.u32 r2, r1, 10
  bra OUTER_JOIN
OUTER_ELSE:
  setp.lt.u32 p2, r0, 24
  @p2 bra E_THEN
  mov.b32 r1, 4
  st.global.b32 [r9], r1
  bra E_JOIN
E_THEN:
  mov.b32 r1, 3
  st.global.b32 [r9], r1
E_JOIN:
  add.u32 r2, r1, 20
OUTER_JOIN:
  add.u32 r2, r2, 1000
  st.global.b32 [r10], r2
  exit
)";
}  // namespace

TEST(InterpReconvergence, NestedIfElse) {
  Kernel k = assemble(kNested);
  GlobalMemory mem;
  const uint32_t n = 64;  // two warps that diverge the same way
  uint32_t leaf = mem.allocate("leaf", n * 4), out = mem.allocate("out", n * 4);
  Recorder rec;
  ExecCounts c = Interpreter(k, mem).run(launch({1}, {n}, {leaf, out}), &rec);

  Words leafW = mem.words("leaf"), outW = mem.words("out");
  for (uint32_t t = 0; t < n; ++t) {
    uint32_t l = t & 31;
    uint32_t path = l < 8 ? 1 : l < 16 ? 2 : l < 24 ? 3 : 4;
    uint32_t combined = path + (l < 16 ? 10 : 20) + 1000;
    EXPECT_EQ(leafW[t], path) << "thread " << t;
    EXPECT_EQ(outW[t], combined) << "thread " << t;
  }

  // Each arm runs once per warp with exactly its lanes; after each join the warp runs once with
  // the lanes of the enclosing path.
  for (uint32_t w = 0; w < 2; ++w) {
    EXPECT_EQ(rec.masksAt(labelPc(k, "INNER_ELSE"), 0, w), Words{0x0000FF00u});
    EXPECT_EQ(rec.masksAt(labelPc(k, "E_THEN"), 0, w), Words{0x00FF0000u});
    EXPECT_EQ(rec.masksAt(labelPc(k, "INNER_JOIN"), 0, w), Words{0x0000FFFFu});
    EXPECT_EQ(rec.masksAt(labelPc(k, "OUTER_ELSE"), 0, w), Words{0xFFFF0000u});
    EXPECT_EQ(rec.masksAt(labelPc(k, "E_JOIN"), 0, w), Words{0xFFFF0000u});
    EXPECT_EQ(rec.masksAt(labelPc(k, "OUTER_JOIN"), 0, w), Words{0xFFFFFFFFu});
    // The two instructions after the outer join, and the exit.
    for (uint32_t pc = labelPc(k, "OUTER_JOIN"); pc < Kernel::pcOf(k.size()); pc += 8)
      EXPECT_EQ(rec.masksAt(pc, 0, w), Words{0xFFFFFFFFu}) << "PC " << hex(pc);
  }
  EXPECT_EQ(c.divergentBranches, 6u);  // outer + two inner, per warp
  EXPECT_EQ(c.warpInstructions, rec.steps.size());
  uint64_t threads = 0;
  for (const auto& s : rec.steps) threads += __builtin_popcount(s.active);
  EXPECT_EQ(c.threadInstructions, threads);
}

TEST(InterpReconvergence, UniformBranchesDoNotDiverge) {
  // A branch on the warp id (64 threads, 2 warps) and on the block id is warp-uniform.
  Kernel k = assemble(R"(
.kernel uniform
.param OUT
  s2r r0, %tid.x
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  mad.lo.u32 r3, r1, r2, r0
  shl.b32 r3, r3, 2
  ld.param.b32 r4, [OUT]
  add.u32 r4, r4, r3
  shr.u32 r5, r0, 5          // warp index within the block
  setp.eq.b32 p0, r5, 0
  @p0 bra FIRST
  mov.b32 r6, 200
  bra JOIN
FIRST:
  mov.b32 r6, 100
JOIN:
  setp.eq.b32 p1, r1, 1
  @!p1 bra STORE
  add.u32 r6, r6, 5
STORE:
  st.global.b32 [r4], r6
  exit
)");
  GlobalMemory mem;
  uint32_t out = mem.allocate("out", 2 * 64 * 4);
  ExecCounts c = Interpreter(k, mem).run(launch({2}, {64}, {out}));
  Words w = mem.words("out");
  for (uint32_t g = 0; g < 128; ++g) {
    uint32_t b = g / 64, t = g % 64;
    EXPECT_EQ(w[g], (t < 32 ? 100u : 200u) + (b == 1 ? 5u : 0u)) << g;
  }
  EXPECT_EQ(c.divergentBranches, 0u);
}

namespace {
// A loop with a per-lane trip count (tid & 7) and a per-lane break (tid % 3 == 0 at i == 3).
const char* kLoopBreak = R"(
.kernel loopbreak
.param OUT
  s2r r0, %tid.x
  and.b32 r5, r0, 7          // limit
  rem.u32 r6, r0, 3
  mov.b32 r1, 0              // i
  mov.b32 r2, 0              // acc
LOOP:
  setp.ge.u32 p0, r1, r5
  @p0 bra DONE
  setp.eq.b32 p1, r6, 0
  setp.eq.b32 p2, r1, 3
  pand p1, p1, p2
  @p1 bra DONE               // break
  add.u32 r2, r2, r1
  add.u32 r2, r2, 100
  add.u32 r1, r1, 1
  bra LOOP
DONE:
  shl.b32 r7, r0, 3
  ld.param.b32 r8, [OUT]
  add.u32 r8, r8, r7
  st.global.b32 [r8], r2
  st.global.b32 [r8+4], r1
  exit
)";
}  // namespace

TEST(InterpReconvergence, LoopWithPerLaneTripCountsAndBreak) {
  Kernel k = assemble(kLoopBreak);
  for (uint32_t ws : {32u, 8u}) {
    SCOPED_TRACE("warp size " + std::to_string(ws));
    GlobalMemory mem;
    const uint32_t n = 48;
    uint32_t out = mem.allocate("out", n * 8);
    Recorder rec;
    ExecCounts c = Interpreter(k, mem).run(launch({1}, {n}, {out}, ws), &rec);
    Words w = mem.words("out");
    for (uint32_t t = 0; t < n; ++t) {
      uint32_t limit = t & 7, i = 0, acc = 0;
      while (i < limit) {
        if (t % 3 == 0 && i == 3) break;
        acc += i + 100;
        ++i;
      }
      EXPECT_EQ(w[2 * t], acc) << "thread " << t;
      EXPECT_EQ(w[2 * t + 1], i) << "thread " << t;
    }
    // After the loop every warp runs the tail exactly once with all its lanes.
    uint32_t warps = (n + ws - 1) / ws;
    for (uint32_t wi = 0; wi < warps; ++wi) {
      uint32_t lanes = std::min(ws, n - wi * ws);
      uint32_t full = lanes == 32 ? 0xFFFFFFFFu : (1u << lanes) - 1;
      EXPECT_EQ(rec.masksAt(labelPc(k, "DONE"), 0, wi), Words{full}) << "warp " << wi;
    }
    EXPECT_GT(c.divergentBranches, 0u);
  }
}

TEST(InterpReconvergence, DoWhileLoopWithBackwardDivergentBranch) {
  // sum = 1 + 2 + ... + (tid % 5 + 1), with a nested if inside the loop body (odd terms x10).
  Kernel k = assemble(R"(
.kernel dowhile
.param OUT
  s2r r0, %tid.x
  rem.u32 r5, r0, 5
  add.u32 r5, r5, 1
  mov.b32 r1, 0
  mov.b32 r2, 0
LOOP:
  add.u32 r1, r1, 1
  and.b32 r3, r1, 1
  setp.eq.b32 p1, r3, 1
  @!p1 bra EVEN
  mul.lo.u32 r4, r1, 10
  bra BODY_JOIN
EVEN:
  mov.b32 r4, r1
BODY_JOIN:
  add.u32 r2, r2, r4
  setp.lt.u32 p0, r1, r5
  @p0 bra LOOP
AFTER:
  shl.b32 r7, r0, 2
  ld.param.b32 r8, [OUT]
  add.u32 r8, r8, r7
  st.global.b32 [r8], r2
  exit
)");
  GlobalMemory mem;
  uint32_t out = mem.allocate("out", 32 * 4);
  Recorder rec;
  ExecCounts c = Interpreter(k, mem).run(launch({1}, {32}, {out}), &rec);
  Words w = mem.words("out");
  for (uint32_t t = 0; t < 32; ++t) {
    uint32_t sum = 0;
    for (uint32_t i = 1; i <= t % 5 + 1; ++i) sum += i % 2 ? 10 * i : i;
    EXPECT_EQ(w[t], sum) << "thread " << t;
  }
  EXPECT_EQ(rec.masksAt(labelPc(k, "AFTER"), 0, 0), Words{0xFFFFFFFFu});
  // Iteration i runs with the lanes whose trip count is at least i.
  auto bodyMasks = rec.masksAt(labelPc(k, "BODY_JOIN"), 0, 0);
  ASSERT_EQ(bodyMasks.size(), 5u);
  for (uint32_t i = 1; i <= 5; ++i) {
    uint32_t m = 0;
    for (uint32_t t = 0; t < 32; ++t)
      if (t % 5 + 1 >= i) m |= 1u << t;
    EXPECT_EQ(bodyMasks[i - 1], m) << "iteration " << i;
  }
  // The latch diverges in iterations 1..4; the odd/even test diverges in iterations 1, 2 (all
  // lanes present have the same parity within an iteration, so it never diverges).
  EXPECT_EQ(c.divergentBranches, 4u);
}

TEST(InterpReconvergence, EarlyExitThenContinuedWork) {
  // Lanes with tid % 4 == 0 leave through a guarded exit, lanes >= 24 through a divergent branch
  // to an exit; the rest keep working: an if/else, a barrier and a shared-memory exchange.
  Kernel k = assemble(R"(
.kernel early
.shared 128
.param OUT
  s2r r0, %tid.x
  shl.b32 r8, r0, 2
  ld.param.b32 r9, [OUT]
  add.u32 r9, r9, r8
  mov.b32 r1, 7
  st.global.b32 [r9], r1
  and.b32 r2, r0, 3
  setp.eq.b32 p0, r2, 0
  @p0 exit
AFTER_EXIT:
  setp.ge.u32 p1, r0, 24
  @p1 bra QUIT
WORK:
  setp.lt.u32 p2, r0, 12
  @p2 bra LOW
  mov.b32 r1, 9
  bra JOIN
LOW:
  mov.b32 r1, 8
JOIN:
  st.shared.b32 [r8], r0
  bar.sync 0
  xor.b32 r3, r8, 4          // partner lane tid ^ 1
  ld.shared.b32 r4, [r3]
  mad.lo.u32 r1, r4, r1, r1  // r1 * (partner + 1)... partner * r1 + r1
  st.global.b32 [r9], r1
  exit
QUIT:
  mov.b32 r1, 5
  st.global.b32 [r9], r1
  exit
)");
  GlobalMemory mem;
  uint32_t out = mem.allocate("out", 32 * 4);
  Recorder rec;
  ExecCounts c = Interpreter(k, mem).run(launch({1}, {32}, {out}), &rec);
  Words w = mem.words("out");
  for (uint32_t t = 0; t < 32; ++t) {
    uint32_t expect;
    if (t % 4 == 0) expect = 7;
    else if (t >= 24) expect = 5;
    else {
      uint32_t r1 = t < 12 ? 8 : 9;
      uint32_t partner = t ^ 1;
      // A partner that exited before storing leaves shared memory at zero.
      uint32_t pv = (partner % 4 == 0 || partner >= 24) ? 0 : partner;
      expect = pv * r1 + r1;
    }
    EXPECT_EQ(w[t], expect) << "thread " << t;
  }
  uint32_t survivors = 0, working = 0;
  for (uint32_t t = 0; t < 32; ++t)
    if (t % 4) {
      survivors |= 1u << t;
      if (t < 24) working |= 1u << t;
    }
  EXPECT_EQ(rec.masksAt(labelPc(k, "AFTER_EXIT"), 0, 0), Words{survivors});
  EXPECT_EQ(rec.masksAt(labelPc(k, "JOIN"), 0, 0), Words{working});
  EXPECT_EQ(rec.masksAt(labelPc(k, "QUIT"), 0, 0), Words{survivors & ~working});
  EXPECT_EQ(c.divergentBranches, 2u);
  EXPECT_EQ(c.barriers, 1u);
}

TEST(InterpReconvergence, GuardedExitInsideOneArmDefersReconvergenceToKernelExit) {
  // In the else arm, odd lanes leave through a guarded exit. That exit is a path to the kernel
  // exit avoiding JOIN, so JOIN does not post-dominate the branch: the arms reconverge only at
  // kernel exit and each runs the tail with its own lanes (as with GPGPU-Sim's ipdom stack).
  // The memory result is the same either way.
  Kernel k = assemble(R"(
.kernel armexit
.param OUT
  s2r r0, %tid.x
  shl.b32 r8, r0, 2
  ld.param.b32 r9, [OUT]
  add.u32 r9, r9, r8
  setp.lt.u32 p0, r0, 16
  @p0 bra THEN
  and.b32 r2, r0, 1
  setp.eq.b32 p1, r2, 1
  @p1 exit
  mov.b32 r1, 2
  bra JOIN
THEN:
  mov.b32 r1, 1
JOIN:
  add.u32 r1, r1, 40
  st.global.b32 [r9], r1
  exit
)");
  GlobalMemory mem;
  uint32_t out = mem.allocate("out", 32 * 4);
  Recorder rec;
  Interpreter(k, mem).run(launch({1}, {32}, {out}), &rec);
  Words w = mem.words("out");
  for (uint32_t t = 0; t < 32; ++t)
    EXPECT_EQ(w[t], t < 16 ? 41u : (t & 1) ? 0u : 42u) << "thread " << t;
  EXPECT_EQ(Interpreter(k, mem).cfg().reconvergencePc(0), Cfg::kNoReconvergence);
  EXPECT_EQ(rec.masksAt(labelPc(k, "JOIN"), 0, 0), (Words{0x0000FFFFu, 0x55550000u}));
}
