// DARSIE's followers waiting for their leader's write-back (Sec. 4.3.2): they wait on the
// entry's warps-waiting mask and are woken by the write-back, without probing the skip table
// again every cycle (issue 16, "DARSIE bookkeeping").
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/cfg.h"
#include "isa/darsie_analysis.h"
#include "isa/interpreter.h"
#include "model/sm/grid_runner.h"

using namespace simtlm;

namespace {

// One 32x8 block: the divide depends on tid.x only, so warps 1-7 skip it and wait about its
// 145-cycle latency for warp 0's write-back.
const char* kLongLeader = R"(.kernel long_leader
.regs 8
.param OUT
  s2r r0, %tid.x
  div.u32 r1, r0, 3
  add.u32 r2, r1, 7
  s2r r3, %tid.y
  shl.b32 r4, r3, 5
  add.u32 r4, r4, r0
  shl.b32 r4, r4, 2
  ld.param.b32 r5, [OUT]
  add.u32 r5, r5, r4
  st.global.b32 [r5], r2
  exit
)";

}  // namespace

TEST(DarsieWaits, FollowersWaitingForLeaderWriteBackDoNotProbeEveryCycle) {
  isa::Kernel k = isa::assemble(kLongLeader, "long_leader.s");
  isa::applyStaticHints(k, isa::markRedundancy(k, isa::Cfg(k)));
  isa::LaunchConfig l;
  l.block = {32, 8, 1};
  isa::GlobalMemory golden, timed;
  l.params = {golden.allocate("out", 4 * 256)};
  timed.allocate("out", 4 * 256);
  isa::Interpreter(k, golden).run(l);
  config::GpuConfig c;
  c.gpu.num_sms = 1;
  c.mechanism = config::Mechanism::Darsie;
  stats::Registry reg;
  auto r = sm::runGrid(c, k, l, timed, reg, 100, 0);
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(golden == timed);
  const double waits = reg.value("sm0.darsie.leaderwb_waits").value_or(-1);
  const double lookups = reg.value("sm0.darsie.skip_table.lookups").value_or(-1);
  const double skipped = reg.value("sm0.darsie.skipped").value_or(-1);
  EXPECT_GE(skipped, 14);      // warps 1-7 skip the divide and the add
  EXPECT_GE(waits, 7 * 100);   // 7 followers wait most of the divide's latency
  // A probe per follower and redundant instruction, and the leaders' own: far fewer lookups
  // than waiting warp-cycles (before issue 16: one per waiting cycle).
  EXPECT_LE(lookups, 64);
}
