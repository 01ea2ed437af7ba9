// The golden functional interpreter: SIMT reconvergence, thread geometry, barriers, atomics,
// faults with their messages, launch validation, instruction counts and determinism. Every
// kernel is assembled inline and every check is exact.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "isa/assembler.h"
#include "isa/diagnostics.h"
#include "isa/interpreter.h"
#include "isa/semantics.h"

using namespace simtlm;
using namespace simtlm::isa;

namespace {

#define EXPECT_CONTAINS(haystack, needle)                                                    \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos)                         \
      << "message:\n  " << (haystack) << "\ndoes not contain:\n  " << (needle)

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

uint32_t labelPc(const Kernel& k, const std::string& name) {
  for (const auto& [pc, n] : k.labels)
    if (n == name) return pc;
  ADD_FAILURE() << "no label " << name;
  return 0;
}

LaunchConfig launch(Dim3 grid, Dim3 block, std::vector<uint32_t> params, uint32_t warpSize = 32) {
  LaunchConfig l;
  l.grid = grid;
  l.block = block;
  l.params = std::move(params);
  l.warpSize = warpSize;
  l.maxWarpInstructions = 1'000'000;  // every kernel here needs far fewer; a broken one fails fast
  return l;
}

// Runs and returns the ExecError message (failing the test when nothing is thrown).
std::string runError(const Kernel& k, GlobalMemory& mem, const LaunchConfig& l) {
  try {
    Interpreter(k, mem).run(l);
  } catch (const ExecError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an ExecError";
  return "";
}

std::string launchError(const Kernel& k, const LaunchConfig& l) {
  GlobalMemory mem;
  try {
    Interpreter(k, mem).run(l);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected std::invalid_argument";
  return "";
}

// Records every warp step (scalars only: the pointers in WarpStep do not outlive the call).
struct Recorder : ExecObserver {
  struct Step {
    uint32_t block, warp, pc, active, exec, warpMask;
    bool operator==(const Step& o) const {
      return std::tie(block, warp, pc, active, exec, warpMask) ==
             std::tie(o.block, o.warp, o.pc, o.active, o.exec, o.warpMask);
    }
  };
  std::vector<Step> steps;
  int launches = 0, blockStarts = 0, blockEnds = 0, gridEnds = 0;
  std::vector<uint32_t> warpsPerBlock;

  void onLaunch(const Kernel&, const LaunchConfig&) override { ++launches; }
  void onBlockStart(uint32_t, uint32_t numWarps) override {
    ++blockStarts;
    warpsPerBlock.push_back(numWarps);
  }
  void onWarpStep(const WarpStep& s) override {
    steps.push_back({s.blockLinear, s.warp, s.pc, s.activeMask, s.execMask, s.warpMask});
  }
  void onBlockEnd(uint32_t) override { ++blockEnds; }
  void onGridEnd() override { ++gridEnds; }

  // Active masks of every execution of `pc` by (block, warp), in order.
  std::vector<uint32_t> masksAt(uint32_t pc, uint32_t block, uint32_t warp) const {
    std::vector<uint32_t> out;
    for (const auto& s : steps)
      if (s.pc == pc && s.block == block && s.warp == warp) out.push_back(s.active);
    return out;
  }
  size_t countAt(uint32_t pc) const {
    return static_cast<size_t>(
        std::count_if(steps.begin(), steps.end(), [&](const Step& s) { return s.pc == pc; }));
  }
};

using Words = std::vector<uint32_t>;

}  // namespace

// ---------------------------------------------------------------------------------------------
// Reconvergence
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Thread geometry
// ---------------------------------------------------------------------------------------------

namespace {
// Each thread writes its 14 special registers, its linear thread id and its global id to
// OUT[g * 16 ...].
const char* kSpecials = R"(
.kernel specials
.param OUT
  s2r r0, %tid.x
  s2r r1, %tid.y
  s2r r2, %tid.z
  s2r r3, %ntid.x
  s2r r4, %ntid.y
  s2r r5, %ntid.z
  s2r r6, %ctaid.x
  s2r r7, %ctaid.y
  s2r r8, %ctaid.z
  s2r r9, %nctaid.x
  s2r r10, %nctaid.y
  s2r r11, %nctaid.z
  s2r r12, %laneid
  s2r r13, %warpid
  mad.lo.u32 r14, r4, r2, r1     // tid.y + ntid.y * tid.z
  mad.lo.u32 r14, r3, r14, r0    // t
  mad.lo.u32 r15, r10, r8, r7
  mad.lo.u32 r15, r9, r15, r6    // linear block
  mul.lo.u32 r16, r3, r4
  mul.lo.u32 r16, r16, r5
  mad.lo.u32 r16, r15, r16, r14  // g
  shl.b32 r17, r16, 6
  ld.param.b32 r18, [OUT]
  add.u32 r18, r18, r17
  st.global.b32 [r18], r0
  st.global.b32 [r18+4], r1
  st.global.b32 [r18+8], r2
  st.global.b32 [r18+12], r3
  st.global.b32 [r18+16], r4
  st.global.b32 [r18+20], r5
  st.global.b32 [r18+24], r6
  st.global.b32 [r18+28], r7
  st.global.b32 [r18+32], r8
  st.global.b32 [r18+36], r9
  st.global.b32 [r18+40], r10
  st.global.b32 [r18+44], r11
  st.global.b32 [r18+48], r12
  st.global.b32 [r18+52], r13
  st.global.b32 [r18+56], r14
  st.global.b32 [r18+60], r16
  exit
)";

void checkSpecials(Dim3 grid, Dim3 block, uint32_t ws) {
  SCOPED_TRACE("grid " + grid.str() + " block " + block.str() + " warp " + std::to_string(ws));
  Kernel k = assemble(kSpecials);
  GlobalMemory mem;
  uint32_t T = static_cast<uint32_t>(block.count());
  uint32_t total = static_cast<uint32_t>(grid.count()) * T;
  // Exactly sized: a phantom lane of the last partial warp would write past the end and fault.
  uint32_t out = mem.allocate("out", total * 64);
  Recorder rec;
  ExecCounts c = Interpreter(k, mem).run(launch(grid, block, {out}, ws), &rec);
  Words w = mem.words("out");
  uint32_t warpsPerBlock = (T + ws - 1) / ws;
  for (uint32_t bz = 0; bz < grid.z; ++bz)
    for (uint32_t by = 0; by < grid.y; ++by)
      for (uint32_t bx = 0; bx < grid.x; ++bx)
        for (uint32_t t = 0; t < T; ++t) {
          uint32_t b = bx + grid.x * (by + grid.y * bz);
          uint32_t g = b * T + t;
          Words expect = {t % block.x, (t / block.x) % block.y, t / (block.x * block.y),
                          block.x, block.y, block.z, bx, by, bz, grid.x, grid.y, grid.z,
                          t % ws, t / ws, t, g};
          Words got(w.begin() + g * 16, w.begin() + g * 16 + 16);
          ASSERT_EQ(got, expect) << "block (" << bx << "," << by << "," << bz << ") thread " << t;
        }
  EXPECT_EQ(c.blocks, grid.count());
  EXPECT_EQ(c.warps, grid.count() * warpsPerBlock);
  EXPECT_EQ(c.threads, total);
  EXPECT_EQ(c.warpInstructions, c.warps * k.size());
  EXPECT_EQ(c.threadInstructions, uint64_t{total} * k.size());
  EXPECT_EQ(c.divergentBranches, 0u);
  // Every step of a warp issues exactly the lanes that exist.
  for (const auto& s : rec.steps) {
    uint32_t lanes = std::min(ws, T - s.warp * ws);
    uint32_t m = lanes == 32 ? 0xFFFFFFFFu : (1u << lanes) - 1;
    ASSERT_EQ(s.warpMask, m) << "warp " << s.warp;
    ASSERT_EQ(s.active, m) << "warp " << s.warp;
  }
  EXPECT_EQ(rec.blockStarts, static_cast<int>(grid.count()));
  EXPECT_EQ(rec.blockEnds, static_cast<int>(grid.count()));
  EXPECT_EQ(rec.launches, 1);
  EXPECT_EQ(rec.gridEnds, 1);
  for (uint32_t nw : rec.warpsPerBlock) EXPECT_EQ(nw, warpsPerBlock);
}
}  // namespace

TEST(InterpGeometry, OneDimensionalWithPartialLastWarp) {
  checkSpecials({3}, {40}, 32);  // 32 + 8 lanes
  checkSpecials({1}, {40}, 8);
  checkSpecials({2}, {40}, 4);
  checkSpecials({1}, {1}, 32);   // a single thread
  checkSpecials({2}, {33}, 32);  // a last warp of one lane
}

TEST(InterpGeometry, TwoDimensional) {
  checkSpecials({2, 3}, {4, 5}, 8);   // warps span rows; last warp has 4 lanes
  checkSpecials({3, 2}, {16, 4}, 32);
  checkSpecials({1, 2}, {7, 3}, 4);
}

TEST(InterpGeometry, ThreeDimensional) {
  checkSpecials({2, 2, 2}, {3, 2, 4}, 4);
  checkSpecials({1, 1, 3}, {4, 4, 4}, 32);
  checkSpecials({2, 1, 2}, {5, 3, 3}, 8);  // 45 threads: last warp of 5 lanes
}

TEST(InterpGeometry, WarpSizeOne) {
  checkSpecials({1}, {5}, 1);
}

// ---------------------------------------------------------------------------------------------
// Barriers and shared memory
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

TEST(InterpErrors, DeadlockWhenAWarpExitsBeforeTheBarrier) {
  // In block 1 only, warp 1 (of 3) exits; warps 0 and 2 wait forever.
  Kernel k = assemble(R"(
.kernel dead
  s2r r0, %ctaid.x
  s2r r1, %warpid
  setp.eq.b32 p0, r0, 1
  setp.eq.b32 p1, r1, 1
  pand p0, p0, p1
  @p0 exit
WAIT:
  bar.sync 0
  exit
)");
  GlobalMemory mem;
  std::string m = runError(k, mem, launch({3}, {96}, {}));
  EXPECT_CONTAINS(m, "deadlock");
  EXPECT_CONTAINS(m, "kernel 'dead'");
  EXPECT_CONTAINS(m, "block (1,0,0)");
  std::string pc = hex(labelPc(k, "WAIT"));
  EXPECT_CONTAINS(m, "warp 0: waits at bar.sync 0, PC " + pc);
  EXPECT_CONTAINS(m, "warp 1: exited");
  EXPECT_CONTAINS(m, "warp 2: waits at bar.sync 0, PC " + pc);
}

TEST(InterpErrors, WarpsWaitingAtDifferentBarrierIds) {
  Kernel k = assemble(R"(
.kernel ids
  s2r r1, %warpid
  setp.eq.b32 p0, r1, 0
  @p0 bra FIRST
SECOND:
  bar.sync 2
  exit
FIRST:
  bar.sync 1
  exit
)");
  GlobalMemory mem;
  std::string m = runError(k, mem, launch({1}, {16}, {}, 8));
  EXPECT_CONTAINS(m, "deadlock");
  EXPECT_CONTAINS(m, "block (0,0,0)");
  EXPECT_CONTAINS(m, "warp 0: waits at bar.sync 1, PC " + hex(labelPc(k, "FIRST")));
  EXPECT_CONTAINS(m, "warp 1: waits at bar.sync 2, PC " + hex(labelPc(k, "SECOND")));
}

TEST(InterpErrors, BarrierInADivergedWarp) {
  Kernel k = assemble(R"(
.kernel divbar
  s2r r0, %tid.x
  setp.lt.u32 p0, r0, 4
  @!p0 bra SKIP
BAR:
  bar.sync 0
SKIP:
  exit
)");
  GlobalMemory mem;
  std::string m = runError(k, mem, launch({2}, {64}, {}));
  EXPECT_CONTAINS(m, "bar.sync executed by a diverged warp");
  EXPECT_CONTAINS(m, "active lanes 0xf of 0xffffffff");
  EXPECT_CONTAINS(m, "block (0,0,0), warp 0, PC " + hex(labelPc(k, "BAR")));
}

TEST(InterpErrors, PredicatedBarrier) {
  Kernel k = assemble(R"(
.kernel predbar
  s2r r0, %tid.x
  setp.lt.u32 p0, r0, 4
  @p0 bar.sync 0
  exit
)");
  GlobalMemory mem;
  std::string m = runError(k, mem, launch({1}, {32}, {}));
  EXPECT_CONTAINS(m, "bar.sync under a predicate");
  EXPECT_CONTAINS(m, "warp 0, PC 0x10");
}

TEST(InterpErrors, OutOfBoundsGlobalAccess) {
  // 100 words, 128 threads: the first lane past the end is block 1, warp 1, lane 4.
  Kernel k = assemble(R"(
.kernel oob
.param OUT
  s2r r0, %tid.x
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  mad.lo.u32 r0, r1, r2, r0
  shl.b32 r3, r0, 2
  ld.param.b32 r4, [OUT]
  add.u32 r4, r4, r3
  st.global.b32 [r4], r0
  exit
)",
                      "oob.s");
  GlobalMemory mem;
  uint32_t out = mem.allocate("out", 100 * 4);
  std::string m = runError(k, mem, launch({2}, {64}, {out}));
  EXPECT_CONTAINS(m, "global memory access outside every buffer");
  EXPECT_CONTAINS(m, "block (1,0,0), warp 1, lane 4, PC 0x38, address " + hex(out + 400));
  EXPECT_CONTAINS(m, "oob.s:11");
  // Everything before the fault was written.
  EXPECT_EQ(mem.words("out")[99], 99u);

  // A load just before a buffer, in the guard gap between two buffers, faults too.
  Kernel ld = assemble(R"(
.kernel ldoob
.param P
  ld.param.b32 r1, [P]
  ld.global.b32 r2, [r1-4]
  exit
)");
  GlobalMemory mem2;
  mem2.allocate("a", 64);
  uint32_t b = mem2.allocate("b", 64);
  std::string m2 = runError(ld, mem2, launch({1}, {1}, {b}));
  EXPECT_CONTAINS(m2, "outside every buffer");
  EXPECT_CONTAINS(m2, "lane 0, PC 0x8, address " + hex(b - 4));
}

TEST(InterpErrors, MisalignedAccess) {
  Kernel k = assemble(R"(
.kernel mis
.param OUT
  s2r r0, %tid.x
  ld.param.b32 r4, [OUT]
  add.u32 r4, r4, r0        // byte index: lane 1 is misaligned
  st.global.b32 [r4], r0
  exit
)");
  GlobalMemory mem;
  uint32_t out = mem.allocate("out", 256);
  std::string m = runError(k, mem, launch({1}, {8}, {out}));
  EXPECT_CONTAINS(m, "misaligned");
  EXPECT_CONTAINS(m, "block (0,0,0), warp 0, lane 1, PC 0x18, address " + hex(out + 1));

  Kernel s = assemble(R"(
.kernel mis2
.shared 64
  ld.shared.b32 r1, [6]
  exit
)");
  std::string m2 = runError(s, mem, launch({1}, {1}, {}));
  EXPECT_CONTAINS(m2, "misaligned");
  EXPECT_CONTAINS(m2, "address 0x6");
}

TEST(InterpErrors, SharedAccessBeyondDeclaredSize) {
  Kernel k = assemble(R"(
.kernel shoob
.shared 64
  s2r r0, %tid.x
  shl.b32 r1, r0, 2
  st.shared.b32 [r1], r0
  exit
)");
  GlobalMemory mem;
  std::string m = runError(k, mem, launch({1}, {32}, {}));
  EXPECT_CONTAINS(m, "shared memory access out of bounds (64 bytes)");
  EXPECT_CONTAINS(m, "warp 0, lane 16, PC 0x10, address 0x40");

  Kernel none = assemble(R"(
.kernel noshared
  ld.shared.b32 r1, [0]
  exit
)");
  std::string m2 = runError(none, mem, launch({1}, {1}, {}));
  EXPECT_CONTAINS(m2, "shared memory access out of bounds (0 bytes)");
}

TEST(InterpErrors, ParameterAccessBeyondParameters) {
  Kernel k = assemble(R"(
.kernel poob
.param A
.param B
  ld.param.b32 r1, [B]
  ld.param.b32 r2, [8]
  exit
)");
  GlobalMemory mem;
  std::string m = runError(k, mem, launch({1}, {4}, {1, 2}));
  EXPECT_CONTAINS(m, "parameter access out of bounds (8 bytes)");
  EXPECT_CONTAINS(m, "warp 0, lane 0, PC 0x8, address 0x8");
}

TEST(InterpErrors, PcRunsPastTheLastInstruction) {
  Kernel k = assemble(R"(
.kernel noexit
  mov.b32 r1, 1
  add.u32 r1, r1, 1
)");
  GlobalMemory mem;
  std::string m = runError(k, mem, launch({1}, {4}, {}));
  EXPECT_CONTAINS(m, "PC past the last instruction");
  EXPECT_CONTAINS(m, "block (0,0,0), warp 0, PC 0x10");
}

TEST(InterpErrors, WatchdogStopsAnEndlessLoop) {
  Kernel k = assemble(R"(
.kernel spin
  s2r r0, %tid.x
SPIN:
  add.u32 r0, r0, 1
  bra SPIN
)");
  GlobalMemory mem;
  LaunchConfig l = launch({1}, {32}, {});
  l.maxWarpInstructions = 1000;
  std::string m = runError(k, mem, l);
  EXPECT_CONTAINS(m, "watchdog");
  EXPECT_CONTAINS(m, "more than 1000 warp instructions");
  EXPECT_CONTAINS(m, "block (0,0,0), warp 0, PC");

  // An endless loop in some lanes only (after a divergent branch) is caught as well.
  Kernel d = assemble(R"(
.kernel spin2
  s2r r0, %tid.x
  setp.eq.b32 p0, r0, 5
  @!p0 exit
SPIN:
  bra SPIN
)");
  std::string m2 = runError(d, mem, l);
  EXPECT_CONTAINS(m2, "watchdog");
  EXPECT_CONTAINS(m2, "PC " + hex(labelPc(d, "SPIN")));
}

// ---------------------------------------------------------------------------------------------
// Atomics
// ---------------------------------------------------------------------------------------------

TEST(InterpAtomics, GlobalAddFromAllThreadsOfSeveralBlocks) {
  Kernel k = assemble(R"(
.kernel gadd
.param CTR
.param OLD
  s2r r0, %tid.x
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  mad.lo.u32 r3, r1, r2, r0    // g
  ld.param.b32 r4, [CTR]
  mov.b32 r5, 1
  atom.global.add.u32 r6, [r4], r5
  add.u32 r7, r0, 1
  atom.global.add.u32 r8, [r4+4], r7
  shl.b32 r9, r3, 2
  ld.param.b32 r10, [OLD]
  add.u32 r10, r10, r9
  st.global.b32 [r10], r6
  exit
)");
  const uint32_t blocks = 4, T = 96;
  GlobalMemory mem;
  uint32_t ctr = mem.allocate("ctr", 8), old = mem.allocate("old", blocks * T * 4);
  mem.setWords("ctr", {0, 1000});
  Interpreter(k, mem).run(launch({blocks}, {T}, {ctr, old}));
  EXPECT_EQ(mem.words("ctr"), (Words{blocks * T, 1000 + blocks * T * (T + 1) / 2}));
  Words o = mem.words("old");
  std::set<uint32_t> seen(o.begin(), o.end());
  EXPECT_EQ(seen.size(), size_t{blocks * T});  // distinct
  EXPECT_EQ(*seen.begin(), 0u);
  EXPECT_EQ(*seen.rbegin(), blocks * T - 1);
}

TEST(InterpAtomics, SharedAddPerBlockAndFloatAdd) {
  Kernel k = assemble(R"(
.kernel sadd
.shared 8
.param TOT
.param OLD
.param FSUM
  s2r r0, %tid.x
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  mov.b32 r3, 0
  mov.b32 r5, 1
  atom.shared.add.u32 r6, [r3], r5
  cvt.f32.u32 r7, r0
  atom.shared.add.f32 r8, [r3+4], r7
  ld.param.b32 r9, [FSUM]
  atom.global.add.f32 r8, [r9], r7
  bar.sync
  mad.lo.u32 r10, r1, r2, r0
  shl.b32 r10, r10, 2
  ld.param.b32 r11, [OLD]
  add.u32 r11, r11, r10
  st.global.b32 [r11], r6
  setp.ne.b32 p0, r0, 0
  @p0 exit
  ld.shared.b32 r12, [0]
  ld.shared.b32 r13, [4]
  shl.b32 r14, r1, 3
  ld.param.b32 r15, [TOT]
  add.u32 r15, r15, r14
  st.global.b32 [r15], r12
  st.global.b32 [r15+4], r13
  exit
)");
  const uint32_t blocks = 3, T = 72;
  GlobalMemory mem;
  uint32_t tot = mem.allocate("tot", blocks * 8), old = mem.allocate("old", blocks * T * 4),
           fsum = mem.allocate("fsum", 4);
  Interpreter(k, mem).run(launch({blocks}, {T}, {tot, old, fsum}));
  Words t = mem.words("tot"), o = mem.words("old");
  float perBlock = static_cast<float>(T * (T - 1) / 2);
  for (uint32_t b = 0; b < blocks; ++b) {
    EXPECT_EQ(t[2 * b], T) << "block " << b;
    EXPECT_EQ(t[2 * b + 1], U(perBlock)) << "block " << b;
    std::set<uint32_t> seen(o.begin() + b * T, o.begin() + (b + 1) * T);
    std::set<uint32_t> expect;
    for (uint32_t i = 0; i < T; ++i) expect.insert(i);
    EXPECT_EQ(seen, expect) << "block " << b;
  }
  EXPECT_EQ(mem.words("fsum")[0], U(perBlock * blocks));
}

TEST(InterpAtomics, SharedAtomicWithAbsoluteAddress) {
  // atom.shared with no base register addresses [offset] for every lane (r0 holds tid.x).
  Kernel k = assemble(R"(
.kernel sabs
.shared 16
.param OUT
  s2r r0, %tid.x
  mov.b32 r1, 1
  atom.shared.add.u32 r2, [8], r1
  bar.sync 0
  ld.shared.b32 r3, [8]
  shl.b32 r4, r0, 2
  ld.param.b32 r5, [OUT]
  add.u32 r5, r5, r4
  st.global.b32 [r5], r3
  exit
)");
  GlobalMemory mem;
  uint32_t out = mem.allocate("out", 16 * 4);
  Interpreter(k, mem).run(launch({1}, {16}, {out}));
  EXPECT_EQ(mem.words("out"), Words(16, 16u));
}

TEST(InterpAtomics, CasLockFreeIncrement) {
  // Every thread increments a global and a shared counter with a compare-and-swap retry loop
  // and records the value it replaced.
  Kernel k = assemble(R"(
.kernel casinc
.shared 4
.param CTR
.param OLD
.param SOLD
  s2r r0, %tid.x
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  mad.lo.u32 r3, r1, r2, r0
  shl.b32 r3, r3, 2
  ld.param.b32 r4, [CTR]
RETRY:
  ld.global.b32 r5, [r4]
  add.u32 r6, r5, 1
  atom.global.cas.b32 r7, [r4], r5, r6
  setp.ne.b32 p0, r7, r5
  @p0 bra RETRY
  mov.b32 r8, 0
SRETRY:
  ld.shared.b32 r5, [0]
  add.u32 r6, r5, 1
  atom.shared.cas.b32 r9, [r8], r5, r6
  setp.ne.b32 p0, r9, r5
  @p0 bra SRETRY
  ld.param.b32 r10, [OLD]
  add.u32 r10, r10, r3
  st.global.b32 [r10], r7
  ld.param.b32 r10, [SOLD]
  add.u32 r10, r10, r3
  st.global.b32 [r10], r9
  exit
)");
  const uint32_t blocks = 3, T = 40;
  GlobalMemory mem;
  uint32_t ctr = mem.allocate("ctr", 4), old = mem.allocate("old", blocks * T * 4),
           sold = mem.allocate("sold", blocks * T * 4);
  ExecCounts c = Interpreter(k, mem).run(launch({blocks}, {T}, {ctr, old, sold}, 8));
  EXPECT_EQ(mem.words("ctr")[0], blocks * T);
  Words o = mem.words("old"), s = mem.words("sold");
  std::set<uint32_t> g(o.begin(), o.end());
  EXPECT_EQ(g.size(), size_t{blocks * T});
  EXPECT_EQ(*g.rbegin(), blocks * T - 1);
  for (uint32_t b = 0; b < blocks; ++b) {
    std::set<uint32_t> sb(s.begin() + b * T, s.begin() + (b + 1) * T);
    EXPECT_EQ(sb.size(), size_t{T});
    EXPECT_EQ(*sb.begin(), 0u);
    EXPECT_EQ(*sb.rbegin(), T - 1);
  }
  EXPECT_GT(c.divergentBranches, 0u);  // lanes that lost the race retry
}

TEST(InterpAtomics, MinMaxSignedAndUnsigned) {
  // Values v(g) = (g * 37) % 101 - 50 (signed, in [-50, 50]).
  Kernel k = assemble(R"(
.kernel minmax
.shared 16
.param R
.param OLDS
  s2r r0, %tid.x
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  mad.lo.u32 r3, r1, r2, r0
  mul.lo.u32 r4, r3, 37
  rem.u32 r4, r4, 101
  sub.u32 r4, r4, 50
  ld.param.b32 r5, [R]
  atom.global.min.s32 r6, [r5], r4
  atom.global.max.s32 r7, [r5+4], r4
  atom.global.min.u32 r8, [r5+8], r4
  atom.global.max.u32 r9, [r5+12], r4
  mov.b32 r10, 0
  setp.ne.b32 p0, r0, 0
  @p0 bra SKIP_INIT
  mov.b32 r11, 0x7fffffff
  st.shared.b32 [0], r11
  mov.b32 r11, 0x80000000
  st.shared.b32 [4], r11
  mov.b32 r11, 0xffffffff
  st.shared.b32 [8], r11
  st.shared.b32 [12], r10
SKIP_INIT:
  bar.sync 0
  atom.shared.min.s32 r12, [r10], r4
  atom.shared.max.s32 r12, [r10+4], r4
  atom.shared.min.u32 r12, [r10+8], r4
  atom.shared.max.u32 r12, [r10+12], r4
  bar.sync 0
  @p0 exit
  shl.b32 r13, r1, 4
  ld.param.b32 r14, [R]
  add.u32 r14, r14, r13
  ld.shared.b32 r15, [0]
  st.global.b32 [r14+16], r15
  ld.shared.b32 r15, [4]
  st.global.b32 [r14+20], r15
  ld.shared.b32 r15, [8]
  st.global.b32 [r14+24], r15
  ld.shared.b32 r15, [12]
  st.global.b32 [r14+28], r15
  ld.param.b32 r14, [OLDS]
  st.global.b32 [r14], r6
  exit
)");
  const uint32_t blocks = 2, T = 50;
  GlobalMemory mem;
  uint32_t r = mem.allocate("r", 4 * 4 + blocks * 16), olds = mem.allocate("olds", 4);
  Words init(4 + 4 * blocks, 0);
  init[0] = 0x7fffffff;  // min.s32 identity
  init[1] = 0x80000000;  // max.s32 identity
  init[2] = 0xffffffff;  // min.u32 identity
  init[3] = 0;           // max.u32 identity
  mem.setWords("r", init);
  Interpreter(k, mem).run(launch({blocks}, {T}, {r, olds}, 8));
  auto v = [](uint32_t g) { return static_cast<int32_t>((g * 37) % 101) - 50; };
  int32_t mn = INT32_MAX, mx = INT32_MIN;
  uint32_t umn = UINT32_MAX, umx = 0;
  Words w = mem.words("r");
  for (uint32_t b = 0; b < blocks; ++b) {
    int32_t bmn = INT32_MAX, bmx = INT32_MIN;
    uint32_t bumn = UINT32_MAX, bumx = 0;
    for (uint32_t t = 0; t < T; ++t) {
      int32_t x = v(b * T + t);
      uint32_t u = static_cast<uint32_t>(x);
      bmn = std::min(bmn, x); bmx = std::max(bmx, x);
      bumn = std::min(bumn, u); bumx = std::max(bumx, u);
    }
    EXPECT_EQ(w[4 + 4 * b + 0], static_cast<uint32_t>(bmn)) << "block " << b;
    EXPECT_EQ(w[4 + 4 * b + 1], static_cast<uint32_t>(bmx)) << "block " << b;
    EXPECT_EQ(w[4 + 4 * b + 2], bumn) << "block " << b;
    EXPECT_EQ(w[4 + 4 * b + 3], bumx) << "block " << b;
    mn = std::min(mn, bmn); mx = std::max(mx, bmx);
    umn = std::min(umn, bumn); umx = std::max(umx, bumx);
  }
  EXPECT_EQ(w[0], static_cast<uint32_t>(mn));
  EXPECT_EQ(w[1], static_cast<uint32_t>(mx));
  EXPECT_EQ(w[2], umn);
  EXPECT_EQ(w[3], umx);
  EXPECT_EQ(mn, -50);
  EXPECT_EQ(mx, 50);
  EXPECT_EQ(umn, 0u);                         // v = 0 occurs
  EXPECT_EQ(umx, static_cast<uint32_t>(-1));  // v = -1 occurs
  // Thread 0 of block 1 stored last the old global minimum it replaced: block 0's minimum.
  int32_t block0Min = INT32_MAX;
  for (uint32_t t = 0; t < T; ++t) block0Min = std::min(block0Min, v(t));
  EXPECT_EQ(mem.words("olds")[0], static_cast<uint32_t>(block0Min));
}

TEST(InterpAtomics, ExchangeReturnsEveryValueOnce) {
  // Each thread swaps tid+1 into one word; the old values plus the final word are exactly
  // {0 (initial), 1, ..., n}.
  Kernel k = assemble(R"(
.kernel exch
.shared 4
.param SLOT
.param OLD
  s2r r0, %tid.x
  add.u32 r1, r0, 1
  ld.param.b32 r2, [SLOT]
  atom.global.exch.b32 r3, [r2], r1
  mov.b32 r4, 0
  atom.shared.exch.b32 r5, [r4], r1
  shl.b32 r6, r0, 3
  ld.param.b32 r7, [OLD]
  add.u32 r7, r7, r6
  st.global.b32 [r7], r3
  st.global.b32 [r7+4], r5
  bar.sync 0
  setp.ne.b32 p0, r0, 0
  @p0 exit
  ld.shared.b32 r8, [0]
  st.global.b32 [r2+4], r8
  exit
)");
  const uint32_t n = 70;
  GlobalMemory mem;
  uint32_t slot = mem.allocate("slot", 8), old = mem.allocate("old", n * 8);
  Interpreter(k, mem).run(launch({1}, {n}, {slot, old}, 16));
  Words o = mem.words("old"), s = mem.words("slot");
  std::multiset<uint32_t> g, sh, expect;
  for (uint32_t t = 0; t < n; ++t) {
    g.insert(o[2 * t]);
    sh.insert(o[2 * t + 1]);
  }
  g.insert(s[0]);
  sh.insert(s[1]);
  for (uint32_t i = 0; i <= n; ++i) expect.insert(i);
  EXPECT_EQ(g, expect);
  EXPECT_EQ(sh, expect);
}

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
