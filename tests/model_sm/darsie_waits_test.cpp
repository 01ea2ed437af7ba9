// DARSIE's followers waiting for their leader's write-back (Sec. 4.3.2): they wait on the
// entry's warps-waiting mask and are woken by the write-back, without probing the skip table
// again every cycle (issue 16, "DARSIE bookkeeping").
#include <gtest/gtest.h>

#include "tests/model_sm/kernel_run_support.h"
#include "tests/model_sm/long_leader_kernel.h"

using namespace simtlm;

TEST(DarsieWaits, FollowersWaitingForLeaderWriteBackDoNotProbeEveryCycle) {
  config::GpuConfig c;
  c.gpu.num_sms = 1;
  c.mechanism = config::Mechanism::Darsie;
  isa::LaunchConfig l;
  l.block = {32, 8, 1};
  test::KernelRun r;
  test::runAgainstInterpreter(test::kLongLeaderKernel, c, l, r);
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
