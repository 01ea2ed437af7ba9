// DARSIE in the SM timing core: every workload, under every DARSIE variant and under small
// structures, ends with memory identical to the functional interpreter's; every warp
// instruction is either issued or skipped exactly once; a renaming that maps the wrong version
// is caught; runs are deterministic.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "model/mechanisms/registry.h"
#include "model/sm/grid_runner.h"
#include "workloads/workload.h"

using namespace simtlm;

namespace {

uint64_t sumStat(const stats::Registry& reg, const std::string& suffix, int sms) {
  uint64_t total = 0;
  for (int i = 0; i < sms; ++i)
    total += static_cast<uint64_t>(reg.value("sm" + std::to_string(i) + "." + suffix).value_or(0));
  return total;
}

struct Outcome {
  bool equal = false;
  uint64_t issued = 0, skipped = 0, interpWarpInstrs = 0, cycles = 0;
  std::string error, verify;
  nlohmann::json stats;
};

Outcome runBoth(const std::string& name, const workloads::Options& o, const config::GpuConfig& cfg,
                bool hints = true) {
  auto w = workloads::makeWorkload(name, o);
  isa::Kernel k = hints ? workloads::loadKernel(*w)
                        : isa::assembleFile(workloads::kernelDir() + "/" + w->kernelFile());
  isa::GlobalMemory golden, timed;
  auto l1 = w->setup(golden);
  auto l2 = w->setup(timed);
  auto counts = isa::Interpreter(k, golden).run(l1);
  stats::Registry reg;
  auto r = sm::runGrid(cfg, mechanisms::factoryFor(cfg), k, l2, timed, reg);
  Outcome out;
  out.error = r.error;
  out.verify = w->verify(timed);
  out.equal = golden == timed;
  out.issued = sumStat(reg, "issue.warp_instructions", cfg.gpu.num_sms);
  out.skipped = sumStat(reg, "darsie.skipped", cfg.gpu.num_sms);
  out.interpWarpInstrs = counts.warpInstructions;
  out.cycles = r.cycles;
  out.stats = reg.toJson();
  return out;
}

config::GpuConfig darsieGpu(config::Mechanism m) {
  config::GpuConfig c;  // Pascal defaults
  c.gpu.num_sms = 2;
  c.mechanism = m;
  return c;
}

struct Case {
  const char* label;
  const char* workload;
  workloads::Options opts;
  config::Mechanism mech;
  int skipEntries, renameRegs, ports, skipsPerCycle;
};

class DarsieEquivalence : public ::testing::TestWithParam<Case> {};

TEST_P(DarsieEquivalence, MemoryEqualsInterpreterAndEveryInstructionIsIssuedOrSkippedOnce) {
  const Case& c = GetParam();
  config::GpuConfig cfg = darsieGpu(c.mech);
  cfg.darsie.skip_entries = c.skipEntries;
  cfg.darsie.rename_regs = c.renameRegs;
  cfg.darsie.skip_ports = c.ports;
  cfg.darsie.skips_per_cycle = c.skipsPerCycle;
  const Outcome o = runBoth(c.workload, c.opts, cfg);
  ASSERT_EQ(o.error, "");
  EXPECT_EQ(o.verify, "");
  EXPECT_TRUE(o.equal) << "memory differs from the interpreter";
  EXPECT_EQ(o.issued + o.skipped, o.interpWarpInstrs);
}

using M = config::Mechanism;
const Case kCases[] = {
    {"matmul_darsie", "matmul", {{"size", 64}}, M::Darsie, 8, 32, 2, 4},
    {"matmul_ignore_store", "matmul", {{"size", 64}}, M::DarsieIgnoreStore, 8, 32, 2, 4},
    {"matmul_no_cf_sync", "matmul", {{"size", 64}}, M::DarsieNoCfSync, 8, 32, 2, 4},
    {"matmul_one_entry", "matmul", {{"size", 64}}, M::Darsie, 1, 32, 2, 4},
    {"matmul_two_registers", "matmul", {{"size", 64}}, M::Darsie, 8, 2, 2, 4},
    {"matmul_one_register", "matmul", {{"size", 64}}, M::Darsie, 8, 1, 2, 4},
    {"matmul_one_port_one_skip", "matmul", {{"size", 64}}, M::Darsie, 8, 32, 1, 1},
    {"matmul_ragged", "matmul", {{"size", 48}}, M::Darsie, 4, 8, 2, 4},
    {"vecadd_darsie", "vecadd", {{"n", 5000}, {"block", 128}}, M::Darsie, 8, 32, 2, 4},
    {"vecadd_no_cf_sync", "vecadd", {{"n", 5000}, {"block", 128}}, M::DarsieNoCfSync, 2, 2, 1, 1},
    {"fig3_darsie", "fig3", {{"x", 4}, {"y", 2}}, M::Darsie, 8, 32, 2, 4},
    {"fig3_ignore_store", "fig3", {{"x", 4}, {"y", 2}}, M::DarsieIgnoreStore, 1, 1, 1, 1},
};

INSTANTIATE_TEST_SUITE_P(Workloads, DarsieEquivalence, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.label); });

TEST(Darsie, MatmulSkipsTheUnrolledLoopsRedundantInstructions) {
  const Outcome o = runBoth("matmul", {{"size", 64}}, darsieGpu(M::Darsie));
  ASSERT_TRUE(o.equal);
  // Fig. 6: the tiled loop's shared-memory address arithmetic and the loads of the A tile are
  // TB-redundant (unstructured across lanes), so a large share of the instructions is skipped.
  EXPECT_GT(o.skipped, o.interpWarpInstrs / 5);
  uint64_t unstructured = 0;
  for (int i = 0; i < 2; ++i)
    unstructured += o.stats.value("sm" + std::to_string(i) + ".darsie.skipped.unstructured", uint64_t{0});
  EXPECT_GT(unstructured, o.skipped / 2);
}

TEST(Darsie, BinaryWithoutHintsSkipsNothing) {
  const Outcome o = runBoth("matmul", {{"size", 64}}, darsieGpu(M::Darsie), /*hints=*/false);
  ASSERT_TRUE(o.equal);
  EXPECT_EQ(o.skipped, 0u);
  EXPECT_EQ(o.issued, o.interpWarpInstrs);
}

TEST(Darsie, BaselineIgnoresHints) {
  const Outcome hinted = runBoth("matmul", {{"size", 64}}, darsieGpu(M::Baseline));
  const Outcome plain = runBoth("matmul", {{"size", 64}}, darsieGpu(M::Baseline), false);
  EXPECT_TRUE(hinted.equal);
  EXPECT_EQ(hinted.cycles, plain.cycles);
  EXPECT_EQ(hinted.skipped, 0u);
}

// Followers mapped onto the neighbouring version read a value the leader did not write: the
// final memory must differ (functional equivalence is only a proof if a wrong rename breaks it).
TEST(Darsie, CorruptedRenamingIsCaught) {
  config::GpuConfig cfg = darsieGpu(M::Darsie);
  cfg.darsie.corrupt_rename_for_test = true;
  const Outcome o = runBoth("matmul", {{"size", 64}}, cfg);
  EXPECT_GT(o.skipped, 0u);
  EXPECT_FALSE(o.equal && o.verify.empty()) << "a wrong version went unnoticed";
}

TEST(Darsie, Deterministic) {
  const Outcome a = runBoth("matmul", {{"size", 64}}, darsieGpu(M::Darsie));
  const Outcome b = runBoth("matmul", {{"size", 64}}, darsieGpu(M::Darsie));
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.stats.dump(), b.stats.dump());
}

TEST(Darsie, SkippingSpeedsUpMatmul) {
  const Outcome base = runBoth("matmul", {{"size", 64}}, darsieGpu(M::Baseline));
  const Outcome d = runBoth("matmul", {{"size", 64}}, darsieGpu(M::Darsie));
  EXPECT_LT(d.issued, base.issued);
  EXPECT_LT(d.cycles, base.cycles);
}

}  // namespace
