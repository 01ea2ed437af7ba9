// The run limits of the timing model (limits.max_cycles, limits.max_instructions; issue 14 item
// 11): a kernel that never ends stops at the limit with a report naming the limit and where
// each warp was, and a kernel that fits exactly within a limit still completes.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "model/sm/grid_runner.h"

using namespace simtlm;

namespace {

const char* kSpin = R"(.kernel spin
.regs 2
  s2r r0, %warpid
  setp.eq.b32 p0, r0, 0
  @!p0 bra WAIT
LOOP:
  add.u32 r1, r1, 1
  bra LOOP
WAIT:
  bar.sync 0
  exit
)";

struct LimitRun {
  sm::GridResult grid;
  uint64_t issued = 0;
};

LimitRun runLimited(const char* src, long long maxCycles, long long maxInstructions, uint32_t threads = 64) {
  config::GpuConfig c;
  c.gpu.num_sms = 1;
  c.limits.max_cycles = maxCycles;
  c.limits.max_instructions = maxInstructions;
  auto k = isa::assemble(src, "spin.s");
  isa::LaunchConfig l;
  l.block = {threads, 1, 1};
  l.maxWarpInstructions = UINT64_MAX;
  isa::GlobalMemory mem;
  stats::Registry reg;
  LimitRun r;
  r.grid = sm::runGrid(c, k, l, mem, reg, 10, 0);
  r.issued = static_cast<uint64_t>(reg.value("sm0.issue.warp_instructions").value_or(0));
  return r;
}

}  // namespace

TEST(RunLimits, InstructionLimitStopsASpinningWarpAndSaysWhereEachWarpWas) {
  LimitRun r = runLimited(kSpin, 0, 5000);
  EXPECT_NE(r.grid.error.find("kernel 'spin': instruction limit reached: 5000 warp instructions issued "
                              "(limits.max_instructions), the run stopped; where each warp was:\n"),
            std::string::npos) << r.grid.error;
  EXPECT_NE(r.grid.error.find("SM 0 block 0 warp 1: PC 0x30, waits at bar.sync 0"), std::string::npos) << r.grid.error;
  EXPECT_NE(r.grid.error.find("SM 0 block 0 warp 0: PC 0x"), std::string::npos) << r.grid.error;
  EXPECT_EQ(r.issued, 5001u);  // stopped in the cycle that went past the limit
}

TEST(RunLimits, CycleLimitStopsASpinningWarp) {
  LimitRun r = runLimited(kSpin, 3000, 0);
  EXPECT_NE(r.grid.error.find("kernel 'spin': cycle limit reached: 3000 cycles (limits.max_cycles), the run stopped; "
                              "where each warp was:\n"),
            std::string::npos) << r.grid.error;
  EXPECT_NE(r.grid.error.find("SM 0 block 0 warp 1: PC 0x30, waits at bar.sync 0"), std::string::npos) << r.grid.error;
  EXPECT_EQ(r.grid.cycles, 3001u);
}

TEST(RunLimits, AKernelExactlyAtTheLimitsCompletes) {
  const char* src = ".kernel small\n.regs 2\n  add.u32 r0, r0, 1\n  add.u32 r1, r1, 1\n  exit\n";
  LimitRun free = runLimited(src, 0, 0);
  ASSERT_EQ(free.grid.error, "");
  EXPECT_EQ(free.issued, 3u * 2);  // two warps, three instructions each
  LimitRun exact = runLimited(src, static_cast<long long>(free.grid.cycles), static_cast<long long>(free.issued));
  EXPECT_EQ(exact.grid.error, "");
  EXPECT_EQ(exact.grid.cycles, free.grid.cycles);
  LimitRun under = runLimited(src, static_cast<long long>(free.grid.cycles) - 1, 0);
  EXPECT_NE(under.grid.error.find("cycle limit reached"), std::string::npos) << under.grid.error;
}
