// The CPI stack (model/sm/cpi_stack.h, docs/timing-model.md "CPI stacks"): every scheduler
// cycle in exactly one category, the categories summing to cycles x schedulers per SM and, with
// the gated SM cycles, to gpu.cycles x SMs x schedulers; and each kind of wait lands in its own
// category.
#include <gtest/gtest.h>

#include <string>

#include "model/sm/cpi_stack.h"
#include "tests/model_sm/kernel_run_support.h"
#include "tests/model_sm/long_leader_kernel.h"

using namespace simtlm;

namespace {

double cpi(const test::KernelRun& r, sm::CpiCategory c, const std::string& scope = "sm0") {
  return r.stat(scope + ".cpi." + sm::cpiInfo(c).name);
}

// The identities every run must satisfy.
void expectStackAddsUp(const test::KernelRun& r, const config::GpuConfig& c) {
  const double S = c.issue.schedulers;
  double gpuSum = 0;
  for (int sm = 0; sm < c.gpu.num_sms; ++sm) {
    const std::string p = "sm" + std::to_string(sm);
    double sum = 0;
    for (int k = 0; k < sm::kCpiCategories; ++k) sum += cpi(r, static_cast<sm::CpiCategory>(k), p);
    EXPECT_EQ(sum, r.stat(p + ".cycles") * S) << p;
    // Issued scheduler cycles: issued warp instructions but the second ones of a dual issue.
    EXPECT_EQ(cpi(r, sm::CpiCategory::Issued, p),
              r.stat(p + ".issue.warp_instructions") - r.stat(p + ".issue.dual_issued"))
        << p;
  }
  for (int k = 0; k < sm::kCpiCategories; ++k) gpuSum += cpi(r, static_cast<sm::CpiCategory>(k), "gpu");
  EXPECT_EQ(gpuSum, r.stat("gpu.cycles") * c.gpu.num_sms * S);
}

config::GpuConfig oneSm() {
  config::GpuConfig c;  // Pascal defaults: 4 schedulers
  c.gpu.num_sms = 1;
  return c;
}

// One warp: a chain of N dependent instructions `op`, then its result stored.
std::string chain(const std::string& op, int n, const std::string& setup = "  mov.b32 r1, 0x3f800000\n") {
  std::string s = ".kernel chain\n.regs 8\n.shared 64\n.param OUT\n" + setup;
  for (int i = 0; i < n; ++i) s += "  " + op + "\n";
  s += "  s2r r0, %tid.x\n  shl.b32 r0, r0, 2\n  ld.param.b32 r2, [OUT]\n  add.u32 r2, r2, r0\n"
       "  st.global.b32 [r2], r1\n  exit\n";
  return s;
}

void runOne(test::KernelRun& r, const std::string& src, const config::GpuConfig& c, isa::Dim3 block = {32, 1, 1}) {
  isa::LaunchConfig l;
  l.block = block;
  test::runAgainstInterpreter(src, c, l, r);
  EXPECT_EQ(r.result.error, "");
  EXPECT_TRUE(r.equal);
}

constexpr int N = 50;

}  // namespace

// A dependent SFU chain on one warp: its scheduler waits about the SFU latency per instruction,
// in dep_sfu; the three schedulers without a warp are idle every cycle.
TEST(CpiStack, SfuChainWaitsInDepSfuAndEmptySchedulersAreIdle) {
  const auto c = oneSm();
  test::KernelRun r;
  runOne(r, chain("rcp.f32 r1, r1", N), c);
  expectStackAddsUp(r, c);
  const int lat = c.exec.latencyOf(isa::OpClass::Sfu);
  EXPECT_GE(cpi(r, sm::CpiCategory::DepSfu), N * (lat - 1));
  EXPECT_LE(cpi(r, sm::CpiCategory::DepAlu), 20);  // the setup and the address arithmetic only
  EXPECT_EQ(cpi(r, sm::CpiCategory::DepShared), 0);
  EXPECT_GE(cpi(r, sm::CpiCategory::Idle), 3 * r.stat("sm0.cycles"));
  EXPECT_EQ(cpi(r, sm::CpiCategory::Barrier), 0);
  EXPECT_EQ(cpi(r, sm::CpiCategory::Mechanism), 0);
}

// The same chain of integer adds waits in dep_alu, and far less per instruction.
TEST(CpiStack, IntegerChainWaitsInDepAlu) {
  const auto c = oneSm();
  test::KernelRun r;
  runOne(r, chain("add.u32 r1, r1, 3", N), c);
  expectStackAddsUp(r, c);
  EXPECT_GE(cpi(r, sm::CpiCategory::DepAlu), N * (c.exec.latencyOf(isa::OpClass::Int) - 1));
  EXPECT_EQ(cpi(r, sm::CpiCategory::DepSfu), 0);
  EXPECT_EQ(cpi(r, sm::CpiCategory::DepGlobal) + cpi(r, sm::CpiCategory::DepShared), 0);
}

// A pointer chase through shared memory (word 0 holds 0) waits in dep_shared; through global
// memory (the load's address comes back as its value: runGrid's memory answers after 100
// cycles) in dep_global.
TEST(CpiStack, LoadChainsWaitInTheirMemorysCategory) {
  const auto c = oneSm();
  test::KernelRun shared;
  runOne(shared, chain("ld.shared.b32 r1, [r1]", N, "  mov.b32 r1, 0\n  st.shared.b32 [r1], r1\n"), c);
  expectStackAddsUp(shared, c);
  EXPECT_GE(cpi(shared, sm::CpiCategory::DepShared), N * (c.exec.latencyOf(isa::OpClass::LoadShared) - 1));
  EXPECT_EQ(cpi(shared, sm::CpiCategory::DepSfu), 0);

  // OUT[0] = its own address; then r1 = [r1] N times (one lane's address: every lane the same).
  const std::string setup = "  ld.param.b32 r1, [OUT]\n  st.global.b32 [r1], r1\n  membar\n";
  test::KernelRun global;
  runOne(global, chain("ld.global.b32 r1, [r1]", N, setup), c);
  expectStackAddsUp(global, c);
  EXPECT_GE(cpi(global, sm::CpiCategory::DepGlobal), N * 100);
  EXPECT_LE(cpi(global, sm::CpiCategory::DepShared), 0);
}

// Warp 0 reaches bar.sync at once; warp 1 (another scheduler) first runs an SFU chain. Warp 0's
// scheduler waits in `barrier` for about the chain's length; warp 1's in dep_sfu.
TEST(CpiStack, EarlyWarpWaitsInBarrier) {
  const auto c = oneSm();
  std::string s = ".kernel late\n.regs 8\n.param OUT\n  s2r r0, %tid.x\n  mov.b32 r1, 0x3f800000\n"
                  "  setp.lt.u32 p0, r0, 32\n  @p0 bra WAIT\n";
  for (int i = 0; i < N; ++i) s += "  rcp.f32 r1, r1\n";
  s += "WAIT:\n  bar.sync 0\n  shl.b32 r0, r0, 2\n  ld.param.b32 r2, [OUT]\n  add.u32 r2, r2, r0\n"
       "  st.global.b32 [r2], r1\n  exit\n";
  test::KernelRun r;
  runOne(r, s, c, {64, 1, 1});
  expectStackAddsUp(r, c);
  const int lat = c.exec.latencyOf(isa::OpClass::Sfu);
  EXPECT_GE(cpi(r, sm::CpiCategory::Barrier), N * (lat - 1));
  EXPECT_GE(cpi(r, sm::CpiCategory::DepSfu), N * (lat - 1));
}

// DARSIE: followers wait at fetch for the leader's write-back of a long divide (the skipper
// holds their fetch), which is the mechanism's wait, not an empty I-buffer.
TEST(CpiStack, DarsieLeaderWriteBackWaitIsTheMechanisms) {
  auto c = oneSm();
  c.mechanism = config::Mechanism::Darsie;
  test::KernelRun r;
  runOne(r, test::kLongLeaderKernel, c, {32, 8, 1});
  expectStackAddsUp(r, c);
  EXPECT_GT(r.stat("sm0.darsie.leaderwb_waits"), 0);
  // 7 followers on 4 schedulers: at least one scheduler's oldest warp is a follower for most of
  // the divide's latency.
  EXPECT_GE(cpi(r, sm::CpiCategory::Mechanism), c.exec.latencyOf(isa::OpClass::IntDiv) / 2);
}

// Several SMs, a grid with more blocks than one wave and a mechanism: the identities hold, and
// an SM gated after its last block counts its gated cycles as idle in gpu.cpi.idle.
TEST(CpiStack, AddsUpOnSeveralSmsWithGatedCycles) {
  config::GpuConfig c;
  c.gpu.num_sms = 3;
  isa::LaunchConfig l;
  l.grid = {4, 1, 1};  // SM 0 runs two blocks, SMs 1 and 2 one each, then are gated
  l.block = {64, 1, 1};
  test::KernelRun r;
  test::runAgainstInterpreter(chain("rcp.f32 r1, r1", N), c, l, r);
  ASSERT_EQ(r.result.error, "");
  EXPECT_TRUE(r.equal);
  expectStackAddsUp(r, c);
  EXPECT_GT(r.stat("gpu.gated_sm_cycles"), 0);
  double smIdle = 0;
  for (int sm = 0; sm < 3; ++sm) smIdle += cpi(r, sm::CpiCategory::Idle, "sm" + std::to_string(sm));
  EXPECT_EQ(cpi(r, sm::CpiCategory::Idle, "gpu"), smIdle + r.stat("gpu.gated_sm_cycles") * c.issue.schedulers);
}
