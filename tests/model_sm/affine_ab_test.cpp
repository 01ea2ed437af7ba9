// Compact affine execution with affine and uniform branches, affine-ab (issue 18, docs/affine.md;
// Kim et al. Sec. 4.2): a compare whose outcome is the same in every lane (uniform operands, or a
// uniform value outside an affine sequence) runs once on the affine unit; a guarded branch on the
// uniform predicate it leaves is counted as resolved once for the warp.
#include <gtest/gtest.h>

#include <string>

#include "tests/model_sm/affine_support.h"

using namespace simtlm;

namespace {

// scenarios/kernels/affine_branch.s, the kernel of scenarios/affine_03_affine_branch.yaml, which
// derives the counts.
std::string affineBranch() { return test::scenarioKernel("affine_branch.s"); }

// Sequences that straddle the compared value or wrap take the normal path. r3 = tid - 16: in warp 0
// (-16..15 signed) it straddles 0, and unsigned (0xfffffff0..0xffffffff, 0..15) it wraps, although
// both of its ends are above 8 (an end-only check would wrongly call it coherent). In warp 1
// (16..47) both compares are coherent. `setp.lt.s32 p2, r0, 100` is coherent in both warps.
const char* kSignedCompares = R"(.kernel straddle_and_wrap
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  shl.b32 r4, r0, 2
  add.u32 r5, r5, r4
  sub.u32 r3, r0, 16
  mov.b32 r1, 0
  setp.lt.s32 p0, r3, 0
  @p0 add.u32 r1, r1, 1
  setp.gt.u32 p1, r3, 8
  @p1 add.u32 r1, r1, 2
  setp.lt.s32 p2, r0, 100
  @p2 add.u32 r1, r1, 4
  st.global.b32 [r5], r1
  exit
)";

void run(const std::string& source, config::Mechanism m, test::KernelRun& out) {
  test::runAffine(source, m, out, 64, 8);
}

constexpr auto aff = test::affineStat;

}  // namespace

TEST(AffineAb, CompareOnEachSideOfTheSequenceAndAUniformCompareResolveOnce) {
  test::KernelRun base, ab;
  run(affineBranch(), config::Mechanism::Baseline, base);
  run(affineBranch(), config::Mechanism::AffineAb, ab);
  ASSERT_TRUE(base.equal);
  EXPECT_TRUE(ab.equal);
  EXPECT_EQ(aff(ab, "compares"), 5);
  EXPECT_EQ(aff(ab, "compares_affine"), 3);
  EXPECT_EQ(aff(ab, "branches"), 5);
  // The compares took one unit cycle instead of four (SIMD 8).
  EXPECT_EQ(ab.stat("sm0.issue.warp_instructions"), base.stat("sm0.issue.warp_instructions"));
}

TEST(AffineAb, WrappingOrStraddlingSequencesTakeTheNormalPath) {
  test::KernelRun base, ab;
  run(kSignedCompares, config::Mechanism::Baseline, base);
  run(kSignedCompares, config::Mechanism::AffineAb, ab);
  ASSERT_TRUE(base.equal);
  EXPECT_TRUE(ab.equal);
  EXPECT_EQ(aff(ab, "compares"), 4);  // warp 0: p2; warp 1: p0, p1, p2
  EXPECT_EQ(aff(ab, "compares_affine"), 4);
  EXPECT_EQ(aff(ab, "branches"), 0);  // guarded adds, no branch
}

TEST(AffineAb, AffineAHasNoBranchStatistics) {
  test::KernelRun a;
  run(affineBranch(), config::Mechanism::AffineA, a);
  EXPECT_TRUE(a.equal);
  EXPECT_EQ(aff(a, "compares"), -1);
}
