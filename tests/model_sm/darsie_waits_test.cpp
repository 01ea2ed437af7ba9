// DARSIE's followers waiting for their leader's write-back (Sec. 4.3.2): they wait on the
// entry's warps-waiting mask and are woken by the write-back, without probing the skip table
// again every cycle (issue 16, "DARSIE bookkeeping").
#include <gtest/gtest.h>

#include "tests/model_sm/kernel_run_support.h"

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
  config::GpuConfig c;
  c.gpu.num_sms = 1;
  c.mechanism = config::Mechanism::Darsie;
  isa::LaunchConfig l;
  l.block = {32, 8, 1};
  test::KernelRun r;
  test::runAgainstInterpreter(kLongLeader, c, l, r);
  ASSERT_EQ(r.result.error, "");
  EXPECT_TRUE(r.equal);
  const double waits = r.stat("sm0.darsie.leaderwb_waits");
  const double lookups = r.stat("sm0.darsie.skip_table.lookups");
  const double skipped = r.stat("sm0.darsie.skipped");
  EXPECT_GE(skipped, 14);      // warps 1-7 skip the divide and the add
  EXPECT_GE(waits, 7 * 100);   // 7 followers wait most of the divide's latency
  // A probe per follower and redundant instruction, and the leaders' own: far fewer lookups
  // than waiting warp-cycles (before issue 16: one per waiting cycle).
  EXPECT_LE(lookups, 64);
}
