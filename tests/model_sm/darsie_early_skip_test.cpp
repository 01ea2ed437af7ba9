// darsie-early-skip (issue 16, docs/darsie.md "Variants"): followers skip a TB-redundant
// instruction without waiting for the leader's write-back; the skipped register stays pending
// in the follower's scoreboard until then, so only the instructions that read it wait. Values
// must stay the interpreter's: a follower that read the version before its leader wrote it, or
// copied it out when leaving the majority path, would store a wrong value.
#include <gtest/gtest.h>

#include "tests/model_sm/kernel_run_support.h"

using namespace simtlm;

namespace {

// One 32x8 block: the divides depend on tid.x only (warps 1-7 skip them). The second one's
// leader executes it (and computes its value) only once the first is written back, about 145
// cycles on; meanwhile each warp computes its own address (from a parameter loaded first, so
// that nothing else makes the store of r2 wait for the leader).
const char* kLongLeader = R"(.kernel long_leader
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  div.u32 r1, r0, 3
  div.u32 r2, r1, 5
  s2r r3, %tid.y
  shl.b32 r4, r3, 5
  add.u32 r4, r4, r0
  shl.b32 r4, r4, 2
  add.u32 r5, r5, r4
  st.global.b32 [r5], r2
  exit
)";

// Half of warp 7 exits early, so warp 7 leaves the majority path (some lanes exited) while
// the second divide it skipped is still to be computed (its leader waits for the first one's
// result): warp 7 may copy its renamed r6 out only once the leader wrote it, else its
// remaining lanes store a wrong r2.
const char* kLeaveWhileHeld = R"(.kernel leave_while_held
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  s2r r3, %tid.y
  div.u32 r1, r0, 3
  div.u32 r6, r1, 5
  setp.eq.b32 p0, r3, 7
  setp.ge.u32 p1, r0, 16
  pand p0, p0, p1
  @p0 exit
  add.u32 r2, r6, 9
  shl.b32 r4, r3, 5
  add.u32 r4, r4, r0
  shl.b32 r4, r4, 2
  add.u32 r5, r5, r4
  st.global.b32 [r5], r2
  exit
)";

// The kernel as one 32x8 block on one SM of the default machine under `m`.
void run(const char* source, config::Mechanism m, test::KernelRun& out) {
  config::GpuConfig c;
  c.gpu.num_sms = 1;
  c.mechanism = m;
  isa::LaunchConfig l;
  l.block = {32, 8, 1};
  test::runAgainstInterpreter(source, c, l, out);
}

double darsie(const test::KernelRun& r, const std::string& name) { return r.stat("sm0.darsie." + name); }

}  // namespace

TEST(DarsieEarlySkip, FollowersSkipAtOnceAndOnlyReadersWaitForTheLeader) {
  test::KernelRun paper, early;
  run(kLongLeader, config::Mechanism::Darsie, paper);
  run(kLongLeader, config::Mechanism::DarsieEarlySkip, early);
  ASSERT_EQ(paper.result.error, "");
  ASSERT_EQ(early.result.error, "");
  EXPECT_TRUE(paper.equal);
  EXPECT_TRUE(early.equal);  // the store read r2 only after the leader computed it
  EXPECT_GE(darsie(paper, "leaderwb_waits"), 7 * 100);
  EXPECT_EQ(darsie(early, "leaderwb_waits"), 0);
  // Warps 1-7 skip ld.param, s2r tid.x and the divides; the divides (at least) before the
  // leader's write-back.
  EXPECT_GE(darsie(early, "skipped"), 7 * 3);
  EXPECT_GE(darsie(early, "early_skip.holds"), 7 * 2);
  EXPECT_LE(darsie(early, "early_skip.holds"), darsie(early, "skipped"));
  EXPECT_GE(darsie(early, "early_skip.hold_cycles"), 7 * 2 * 100);  // the divides' latency, per follower
  EXPECT_EQ(darsie(paper, "early_skip.holds"), 0);
  // The followers' own address work overlaps the divides.
  EXPECT_LT(early.result.cycles, paper.result.cycles);
}

TEST(DarsieEarlySkip, AWarpLeavingThePathWaitsForTheValuesItHolds) {
  test::KernelRun early;
  run(kLeaveWhileHeld, config::Mechanism::DarsieEarlySkip, early);
  ASSERT_EQ(early.result.error, "");
  EXPECT_TRUE(early.equal);  // warp 7 copied r6 out only after the leader wrote it
  EXPECT_EQ(darsie(early, "majority_leaves"), 1);    // warp 7
  EXPECT_GE(darsie(early, "early_skip.holds"), 7 * 2);  // the followers skip the divides early
  EXPECT_GE(darsie(early, "copied_registers"), 1);
}
