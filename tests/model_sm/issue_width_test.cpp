// The baseline's width (issue 16): where a grid's blocks go (gpu.block_placement), how many
// instructions a scheduler issues from one warp per cycle (issue.max_per_warp,
// issue.dual_issue_diff_units) and how many fetches an SM starts per cycle
// (frontend.fetch_throughput). Memory stays equal to the interpreter's in every setting.
#include <gtest/gtest.h>

#include <string>

#include "tests/model_sm/kernel_run_support.h"

using namespace simtlm;

namespace {

config::GpuConfig machine(int sms) {
  config::GpuConfig c;  // Pascal defaults
  c.gpu.num_sms = sms;
  return c;
}

uint64_t stat(const stats::Registry& reg, const std::string& name) {
  return static_cast<uint64_t>(reg.value(name).value_or(-1));
}

// Runs `src` on the timing model and on the interpreter; memory must agree.
void run(const std::string& src, const config::GpuConfig& cfg, const isa::LaunchConfig& launch, test::KernelRun& out) {
  test::runAgainstInterpreter(src, cfg, launch, out);
  ASSERT_EQ(out.result.error, "");
  EXPECT_TRUE(out.equal) << "memory differs from the interpreter";
}

// Each thread stores its block index: a grid of small blocks.
const char* kStoreBlock = R"(.kernel blocks
.regs 8
.param OUT
  ld.param.b32 r0, [OUT]
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  mul.lo.u32 r3, r1, r2
  s2r r4, %tid.x
  add.u32 r3, r3, r4
  shl.b32 r3, r3, 2
  add.u32 r0, r0, r3
  st.global.b32 [r0], r1
  exit
)";

}  // namespace

TEST(IssueWidth, BreadthFirstPlacementSpreadsBlocksOverEverySm) {
  isa::LaunchConfig l;
  l.grid = {8, 1, 1};
  l.block = {32, 1, 1};
  test::KernelRun r;
  run(kStoreBlock, machine(4), l, r);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(stat(r.reg, "sm" + std::to_string(i) + ".blocks"), 2u) << "sm" << i;
}

TEST(IssueWidth, FillFirstPlacementPutsEveryBlockOnTheFirstSmWithRoom) {
  auto c = machine(4);
  c.gpu.block_placement = config::BlockPlacement::FillFirst;
  isa::LaunchConfig l;
  l.grid = {8, 1, 1};
  l.block = {32, 1, 1};
  test::KernelRun r;
  run(kStoreBlock, c, l, r);
  EXPECT_EQ(stat(r.reg, "sm0.blocks"), 8u);
  for (int i = 1; i < 4; ++i) EXPECT_EQ(stat(r.reg, "sm" + std::to_string(i) + ".blocks"), 0u) << "sm" << i;
}

TEST(IssueWidth, BreadthFirstPlacementPrefersTheSmWithFewerResidentBlocks) {
  // 3 SMs, each with room for 2 blocks of 1024 threads (64 warps): 5 blocks go 2, 2, 1 (round
  // robin, one per SM per cycle), and the 6th... there is none: SM 2 runs 1.
  isa::LaunchConfig l;
  l.grid = {5, 1, 1};
  l.block = {1024, 1, 1};
  test::KernelRun r;
  run(kStoreBlock, machine(3), l, r);
  EXPECT_EQ(stat(r.reg, "sm0.blocks"), 2u);
  EXPECT_EQ(stat(r.reg, "sm1.blocks"), 2u);
  EXPECT_EQ(stat(r.reg, "sm2.blocks"), 1u);
}

namespace {

// One warp: `pairs` times an add (SP unit) and a div (SFU unit) on registers of their own.
std::string mixedUnits(int pairs) {
  std::string s = ".kernel mixed\n.regs 24\n.param OUT\n  mov.b32 r20, 1000\n";
  for (int i = 0; i < pairs; ++i) {
    const int a = 1 + i % 8, d = 9 + i % 8;
    s += "  add.u32 r" + std::to_string(a) + ", r20, " + std::to_string(i) + "\n";
    s += "  div.u32 r" + std::to_string(d) + ", r20, " + std::to_string(i + 1) + "\n";
  }
  s += "  ld.param.b32 r0, [OUT]\n  s2r r21, %tid.x\n  shl.b32 r21, r21, 2\n  add.u32 r0, r0, r21\n";
  s += "  add.u32 r22, r1, r9\n  add.u32 r22, r22, r16\n  st.global.b32 [r0], r22\n  exit\n";
  return s;
}

// One warp: `n` independent adds (all SP).
std::string sameUnit(int n) {
  std::string s = ".kernel same\n.regs 24\n.param OUT\n  mov.b32 r20, 1000\n";
  for (int i = 0; i < n; ++i) s += "  add.u32 r" + std::to_string(1 + i % 16) + ", r20, " + std::to_string(i) + "\n";
  s += "  ld.param.b32 r0, [OUT]\n  s2r r21, %tid.x\n  shl.b32 r21, r21, 2\n  add.u32 r0, r0, r21\n";
  s += "  st.global.b32 [r0], r16\n  exit\n";
  return s;
}

isa::LaunchConfig oneWarp() {
  isa::LaunchConfig l;
  l.block = {32, 1, 1};
  return l;
}

}  // namespace

TEST(IssueWidth, DualIssueTakesAnSpAndAnSfuInstructionTogether) {
  test::KernelRun dual, single;
  run(mixedUnits(32), machine(1), oneWarp(), dual);
  auto c = machine(1);
  c.issue.max_per_warp = 1;
  run(mixedUnits(32), c, oneWarp(), single);
  EXPECT_EQ(stat(single.reg, "sm0.issue.dual_issued"), 0u);
  EXPECT_GE(stat(dual.reg, "sm0.issue.dual_issued"), 16u);
  EXPECT_EQ(stat(dual.reg, "sm0.issue.warp_instructions"), stat(single.reg, "sm0.issue.warp_instructions"));
  EXPECT_LT(dual.result.cycles, single.result.cycles);
}

TEST(IssueWidth, DualIssueNeedsDifferentUnitsUnlessToldOtherwise) {
  test::KernelRun diff, any;
  run(sameUnit(64), machine(1), oneWarp(), diff);
  auto c = machine(1);
  c.issue.dual_issue_diff_units = false;
  run(sameUnit(64), c, oneWarp(), any);
  // The one pair on different units: the last add and the ld.param (LD/ST) after it.
  EXPECT_EQ(stat(diff.reg, "sm0.issue.dual_issued"), 1u);
  EXPECT_GE(stat(any.reg, "sm0.issue.dual_issued"), 16u);
  EXPECT_LT(any.result.cycles, diff.result.cycles);
}

TEST(IssueWidth, FetchThroughputFeedsSeveralWarpsPerCycle) {
  // 16 warps of independent adds: one fetch per cycle cannot feed 4 dual-issuing schedulers.
  isa::LaunchConfig l;
  l.block = {512, 1, 1};
  test::KernelRun wide, narrow;
  run(sameUnit(64), machine(1), l, wide);
  auto c = machine(1);
  c.frontend.fetch_throughput = 1;
  run(sameUnit(64), c, l, narrow);
  EXPECT_EQ(stat(wide.reg, "sm0.frontend.fetched"), stat(narrow.reg, "sm0.frontend.fetched"));
  EXPECT_LT(wide.result.cycles * 5, narrow.result.cycles * 4);  // over 20% faster
}

namespace {

// Long runs of independent additions (8 per loop iteration): eight warps on one scheduler keep
// it issue-bound.
const char* kIssueBound = R"(.kernel issue_bound
.regs 12
.param OUT
  ld.param.b32 r0, [OUT]
  s2r r1, %tid.x
  mov.b32 r10, 64
loop:
  add.u32 r2, r1, 1
  add.u32 r3, r1, 2
  add.u32 r4, r1, 3
  add.u32 r5, r1, 4
  add.u32 r6, r1, 5
  add.u32 r7, r1, 6
  add.u32 r8, r1, 7
  add.u32 r9, r1, 8
  sub.u32 r10, r10, 1
  setp.ne.b32 p0, r10, 0
  @p0 bra loop
  add.u32 r2, r2, r9
  shl.b32 r1, r1, 2
  add.u32 r0, r0, r1
  st.global.b32 [r0], r2
  exit
)";

}  // namespace

TEST(IssueWidth, SlowFrontEndIssuesInEveryOtherCycle) {
  // frontend.clock_divider = 2: fetch and issue act in even cycles only (Kim et al.'s slow front
  // end), so an issue-bound warp takes about twice the cycles; the odd cycles of every scheduler
  // are counted as front-end idle, not as stalls.
  auto c = machine(1);
  c.issue.max_per_warp = 1;
  c.issue.schedulers = 1;
  isa::LaunchConfig l;
  l.grid = {1, 1, 1};
  l.block = {256, 1, 1};
  test::KernelRun fast, slow;
  run(kIssueBound, c, l, fast);
  c.frontend.clock_divider = 2;
  run(kIssueBound, c, l, slow);
  EXPECT_EQ(fast.stat("sm0.issue.warp_instructions"), slow.stat("sm0.issue.warp_instructions"));
  EXPECT_EQ(fast.stat("sm0.issue.frontend_idle"), 0);
  // 8 warps x 64 x 11 instructions, at most one per cycle, one per two cycles when slow.
  EXPECT_GT(fast.result.cycles, 8u * 64u * 11u);
  EXPECT_GT(slow.result.cycles, 2u * 8u * 64u * 11u);
  EXPECT_LT(fast.result.cycles * 10, slow.result.cycles * 6);  // over 1.67x slower
  const double active = slow.stat("sm0.active_cycles"), idle = slow.stat("sm0.issue.frontend_idle");
  const double schedulers = c.issue.schedulers;
  EXPECT_NEAR(idle / schedulers, active / 2, 1.0);  // every odd cycle of the SM's, per scheduler
}
