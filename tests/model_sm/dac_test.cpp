// DAC-IDEAL (issue 17, docs/dac.md; DARSIE Sec. 5): instances detected at run time as uniform or
// affine across the thread block are executed once per block (the first warp to issue them) and
// removed before fetch for the block's other warps, which still get their own threads' values.
// Memory must stay the interpreter's: a follower whose value were not delivered would store the
// previous contents of its register.
#include <gtest/gtest.h>

#include "tests/model_sm/kernel_run_support.h"

using namespace simtlm;

namespace {

// One 32x2 block: warp 0 (tid.y = 0) and warp 1 (tid.y = 1).
// Prologue (none removable): s2r %warpid is generic (a different value per warp), so are setp
// and `and` of it. The branch on p0 (generic: each warp goes its own way) takes both warps off
// the common path until START, its reconvergence point; warp 1 first counts r7 to 40 there
// (3 off-path instructions per iteration, about 600 cycles), so warp 0 issues the whole chain
// first and leads every instance of it. ld.param is a load (never removed).
// Chain (per warp): s2r %tid.x A, s2r %tid.y A, s2r %ntid.x U, mad r1*r2+r0 (uniform
// multiplier) A, s2r %ctaid.x U, add r4+7 U, shl r3<<2 A, add r5+r6 (uniform + affine) A:
// 8 instances, 3 uniform and 5 affine. Then mul r3*r3 (affine x affine) is generic, so are the
// adds of it and of r7, the store and exit.
// So: executed_affine = 8 (3 uniform, 5 affine) by warp 0; removed = 8 (3 + 5) by warp 1, none
// executed by a follower, none unskipped. Issued by the baseline: warp 0 4 + 14 = 18, warp 1
// 4 + 40 x 3 + 14 = 138, 156 in all; by dac-ideal 156 - 8 = 148.
const char* kChain = R"(.kernel dac_chain
.regs 8
.param OUT
  s2r r6, %warpid
  setp.ne.b32 p0, r6, 0
  and.b32 r7, r6, 0
  @!p0 bra START
DELAY:
  add.u32 r7, r7, 1
  setp.lt.u32 p1, r7, 40
  @p1 bra DELAY
START:
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  s2r r1, %tid.y
  s2r r2, %ntid.x
  mad.lo.u32 r3, r1, r2, r0
  s2r r4, %ctaid.x
  add.u32 r4, r4, 7
  shl.b32 r6, r3, 2
  add.u32 r5, r5, r6
  mul.lo.u32 r2, r3, r3
  add.u32 r7, r7, r2
  add.u32 r7, r7, r4
  st.global.b32 [r5], r7
  exit
)";

// A branch on tid.x (not uniform: lanes 0-15 and 16-31 go different ways) takes both warps off
// the common path until the join: what they compute inside is not removed, and the values
// written there are generic after it (r2). The uniform loop afterwards (r4 counts 0..3 by the
// uniform p1) is on the common path again: its counter, compare and the uniform add are removed.
const char* kDivergent = R"(.kernel dac_divergent
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  s2r r1, %tid.y
  shl.b32 r3, r1, 5
  add.u32 r3, r3, r0
  setp.lt.u32 p0, r0, 16
  mov.b32 r2, 3
  @p0 bra SMALL
  add.u32 r2, r2, 5
  bra JOIN
SMALL:
  add.u32 r2, r2, 9
JOIN:
  mov.b32 r4, 0
  mov.b32 r6, 0
LOOP:
  add.u32 r6, r6, r2
  add.u32 r6, r6, 11
  add.u32 r4, r4, 1
  setp.lt.u32 p1, r4, 4
  @p1 bra LOOP
  shl.b32 r7, r3, 2
  add.u32 r5, r5, r7
  add.u32 r6, r6, r4
  st.global.b32 [r5], r6
  exit
)";

// Two warps in lock step (no delay): the oracle decides an instance when the first warp reaches
// its fetch, so the other warp never fetches it (DARSIE Sec. 5: removed before fetch). Removable
// and uniform/affine: s2r tid.x A, s2r tid.y A, s2r ntid.x U, mad A, s2r ctaid.x U, add r4+7 U,
// shl A, add r5+r6 (ld.param of an absolute address is uniform) A, add r3+r4 A: 9 instances,
// 3 uniform and 6 affine. Fetched by the baseline: 12 per warp, 24; by dac-ideal 24 - 9 = 15.
const char* kLockstep = R"(.kernel dac_lockstep
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  s2r r1, %tid.y
  s2r r2, %ntid.x
  mad.lo.u32 r3, r1, r2, r0
  s2r r4, %ctaid.x
  add.u32 r4, r4, 7
  shl.b32 r6, r3, 2
  add.u32 r5, r5, r6
  add.u32 r7, r3, r4
  st.global.b32 [r5], r7
  exit
)";

void run(const char* source, config::Mechanism m, test::KernelRun& out) {
  config::GpuConfig c;
  c.gpu.num_sms = 1;
  c.mechanism = m;
  isa::LaunchConfig l;
  l.block = {32, 2, 1};
  test::runAgainstInterpreter(source, c, l, out);
}

double dac(const test::KernelRun& r, const std::string& name) { return r.stat("sm0.dac." + name); }

}  // namespace

TEST(DacIdeal, ChainIsExecutedOnceAndRemovedForTheOtherWarp) {
  test::KernelRun base, d;
  run(kChain, config::Mechanism::Baseline, base);
  run(kChain, config::Mechanism::DacIdeal, d);
  ASSERT_TRUE(base.equal);
  EXPECT_TRUE(d.equal);
  EXPECT_EQ(dac(d, "executed_affine"), 8);
  EXPECT_EQ(dac(d, "executed_affine.uniform"), 3);
  EXPECT_EQ(dac(d, "executed_affine.affine"), 5);
  EXPECT_EQ(dac(d, "removed"), 8);
  EXPECT_EQ(dac(d, "removed.uniform"), 3);
  EXPECT_EQ(dac(d, "removed.affine"), 5);
  EXPECT_EQ(dac(d, "removed.after_fetch"), 0);  // warp 1 fetches the chain after warp 0 issued it
  EXPECT_EQ(dac(d, "follower_executions"), 0);
  EXPECT_EQ(dac(d, "unskipped"), 0);
  EXPECT_EQ(dac(d, "off_path"), 2);
  EXPECT_EQ(base.stat("sm0.issue.warp_instructions"), 156);
  EXPECT_EQ(d.stat("sm0.issue.warp_instructions"), 148);
  EXPECT_LT(d.stat("sm0.frontend.fetched"), base.stat("sm0.frontend.fetched"));
  EXPECT_LE(d.result.cycles, base.result.cycles);
}

TEST(DacIdeal, NothingIsRemovedOffTheCommonPathAndTheJoinRestoresIt) {
  test::KernelRun base, d;
  run(kDivergent, config::Mechanism::Baseline, base);
  run(kDivergent, config::Mechanism::DacIdeal, d);
  ASSERT_TRUE(base.equal);
  EXPECT_TRUE(d.equal);
  EXPECT_EQ(dac(d, "off_path"), 2);  // each warp at `@p0 bra`
  // Removable instances a leader can record: ld.param is a load; s2r tid.x, s2r tid.y, shl, add
  // (A), setp p0 (affine compared: generic, no), mov r2 (U): 5 before the branch; inside the
  // branch nothing (off the path); after the join mov r4, mov r6 (2), per iteration add r6+r2
  // (r2 generic after the join: no), add r6+11 (generic: no), add r4 (U), setp p1 (U): 2 x 4;
  // after the loop shl (A), add r5 (A), add r6 (generic: no): 2. Total 5 + 2 + 8 + 2 = 17.
  // The two warps run close together: warp 1 has often fetched an instance before warp 0 issues
  // it; it is removed all the same (after its fetch). Whichever warp issues an instance first
  // leads it, so every instance is removed for the other warp.
  EXPECT_EQ(dac(d, "executed_affine"), 17);
  EXPECT_EQ(dac(d, "removed"), 17);
  EXPECT_EQ(dac(d, "follower_executions"), 0);
  EXPECT_EQ(d.stat("sm0.issue.warp_instructions"), base.stat("sm0.issue.warp_instructions") - dac(d, "removed"));
}

TEST(DacIdeal, WarpsInLockStepNeverFetchWhatTheirLeaderExecutes) {
  test::KernelRun base, d;
  run(kLockstep, config::Mechanism::Baseline, base);
  run(kLockstep, config::Mechanism::DacIdeal, d);
  ASSERT_TRUE(base.equal);
  EXPECT_TRUE(d.equal);
  EXPECT_EQ(dac(d, "executed_affine"), 9);
  EXPECT_EQ(dac(d, "executed_affine.uniform"), 3);
  EXPECT_EQ(dac(d, "removed"), 9);
  EXPECT_EQ(dac(d, "removed.after_fetch"), 0);
  EXPECT_EQ(dac(d, "follower_executions"), 0);
  EXPECT_EQ(dac(d, "unskipped"), 0);
  EXPECT_EQ(base.stat("sm0.frontend.fetched"), 24);
  EXPECT_EQ(d.stat("sm0.frontend.fetched"), 15);
  EXPECT_EQ(d.stat("sm0.issue.warp_instructions"), 15);
}

TEST(DacIdeal, IsDeterministic) {
  test::KernelRun a, b;
  run(kDivergent, config::Mechanism::DacIdeal, a);
  run(kDivergent, config::Mechanism::DacIdeal, b);
  EXPECT_EQ(a.result.cycles, b.result.cycles);
  EXPECT_EQ(dac(a, "removed"), dac(b, "removed"));
}
