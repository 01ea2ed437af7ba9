// Compact affine execution, affine-a (issue 18, docs/affine.md; Kim et al. Sec. 4). Qualifying
// instructions of a converged warp execute on the affine unit and write base and stride to the
// ASRF; the vector register is never written, so a vector instruction that does not receive the
// expansion base + stride * lane from the ASRF (or a wrong base or stride) stores a wrong value,
// and the memory compared with the interpreter's catches it. Under divergence or a guard the
// results are expanded into the lanes (lazy expansion, Sec. 4.3), counted exactly here.
#include <gtest/gtest.h>

#include "tests/model_sm/affine_support.h"

using namespace simtlm;

namespace {

using test::runAffine;
constexpr auto aff = test::affineStat;

// Per warp: ld.param of a uniform address seeds r5; s2r tid.x (affine), s2r ctaid.x, add, mul
// (uniform), shl, add, mad, sub (affine) execute compactly: 8 instructions, 3 of them uniform.
// The store reads r5 and r3 expanded. OUT[t] = t * 3 * (ctaid + 7) + ctaid + 6.
const char* kAffineChain = R"(.kernel affine_chain
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  s2r r1, %ctaid.x
  add.u32 r1, r1, 7
  mul.lo.u32 r2, r1, 3
  shl.b32 r4, r0, 2
  add.u32 r5, r5, r4
  mad.lo.u32 r3, r0, r2, r1
  sub.u32 r3, r3, 1
  st.global.b32 [r5], r3
  exit
)";

// Divergence in the middle of an affine chain. Warp 0 (tid 0-31) splits at the branch: on the
// fall-through path (lanes 8-31) `add r1, r1, r0` and `add r2, r2, 1` are suppressed, each
// expanding its destination's old value for the inactive lanes and then its result (4
// expansions); on the taken path r1 is generic by then (a vector add). After the join r1 and r2
// are generic: `add r3, r2, r1` and the last add are vector; `add r6, r0, 3` is compact again.
// Warp 1 (tid 32-63) never diverges: everything qualifying is compact.
std::string divergentChain() { return test::scenarioKernel("affine_divergent_chain.s"); }

// A guarded write to the affine register r1 (tid + 100): lanes with tid < 40 add 7. Warp 0's
// guard holds in every lane, warp 1's in lanes 0-7 only: both expand the result (the paper's
// rule for predicated instructions), warp 1 first expands the old value for lanes 8-31.
std::string predicatedWrite() { return test::scenarioKernel("affine_predicated.s"); }

// One 64-thread block (two warps; warp 1's tid.x starts at 32), or `blocks` of them, on one SM.

}  // namespace

TEST(AffineA, AnAffineChainExecutesOnTheAffineUnitAndIsExpandedForTheStore) {
  test::KernelRun base, a;
  runAffine(kAffineChain, config::Mechanism::Baseline, base, 64, 8, 3);
  runAffine(kAffineChain, config::Mechanism::AffineA, a, 64, 8, 3);
  ASSERT_TRUE(base.equal);
  EXPECT_TRUE(a.equal);
  // 3 blocks x 2 warps x 8 compact instructions, 3 of them uniform; one seed per warp.
  EXPECT_EQ(aff(a, "instructions"), 48);
  EXPECT_EQ(aff(a, "uniform"), 18);
  EXPECT_EQ(aff(a, "seeds"), 6);
  EXPECT_EQ(aff(a, "suppressed"), 0);
  EXPECT_EQ(aff(a, "expansions"), 0);
  EXPECT_EQ(aff(a, "expanded_operands"), 12);  // the store's r5 and r3
  // ASRF writes: 8 results + 1 seed per warp; vector writes saved likewise.
  EXPECT_EQ(aff(a, "asrf.writes"), 54);
  EXPECT_EQ(aff(a, "rf_writes_saved"), 54);
  // Operand reads from the ASRF: shl 1, add 2, add 1, mul 1, mad 3, sub 1, store 2 = 11 per warp.
  EXPECT_EQ(aff(a, "rf_reads_saved"), 66);
  // SIMD 8: each compact instruction saves 3 of its 4 unit cycles.
  EXPECT_EQ(aff(a, "unit_cycles_saved"), 48 * 3);
  EXPECT_EQ(aff(a, "asrf.peak"), 6);  // r0-r5
  EXPECT_LT(a.result.cycles, base.result.cycles);
  EXPECT_LT(a.stat("sm0.regfile.read_lane_groups"), base.stat("sm0.regfile.read_lane_groups"));
}

TEST(AffineA, DivergenceInTheMiddleOfAChainExpandsLazily) {
  test::KernelRun base, a;
  runAffine(divergentChain(), config::Mechanism::Baseline, base);
  runAffine(divergentChain(), config::Mechanism::AffineA, a);
  ASSERT_TRUE(base.equal);
  EXPECT_TRUE(a.equal);
  EXPECT_EQ(aff(a, "suppressed"), 2);
  EXPECT_EQ(aff(a, "expansions"), 4);
  // Warp 0: s2r, shl, add, mov, add r2 before the branch and add r6 after it; warp 1: those
  // and add r1, add r2, add r3, add r3.
  EXPECT_EQ(aff(a, "instructions"), 16);
  EXPECT_EQ(aff(a, "uniform"), 2);  // mov r1, 100
  EXPECT_EQ(aff(a, "unit_ops"), 18);
}

TEST(AffineA, APredicatedWriteToAnAffineRegisterExpandsIt) {
  test::KernelRun base, a;
  runAffine(predicatedWrite(), config::Mechanism::Baseline, base);
  runAffine(predicatedWrite(), config::Mechanism::AffineA, a);
  ASSERT_TRUE(base.equal);
  EXPECT_TRUE(a.equal);
  EXPECT_EQ(aff(a, "instructions"), 8);  // s2r, shl, add, add per warp
  EXPECT_EQ(aff(a, "suppressed"), 2);
  EXPECT_EQ(aff(a, "expansions"), 3);  // warp 0: the result; warp 1: the old value and the result
}

TEST(AffineA, AFullAsrfLeavesResultsInTheVectorRegisterFile) {
  test::KernelRun a;
  runAffine(kAffineChain, config::Mechanism::AffineA, a, 2);
  EXPECT_TRUE(a.equal);
  // Per warp: r5 (seed) and r0 take both entries; s2r ctaid and shl find no room and expand;
  // the rest reads a generic register and runs as vectors (add r5 frees r5's entry).
  EXPECT_EQ(aff(a, "seeds"), 2);
  EXPECT_EQ(aff(a, "instructions"), 2);
  EXPECT_EQ(aff(a, "asrf_full"), 4);
  EXPECT_EQ(aff(a, "expansions"), 4);
  EXPECT_EQ(aff(a, "asrf.peak"), 2);
}

TEST(AffineA, BaselineAndAffineAgreeOnCountsTheMechanismDoesNotChange) {
  test::KernelRun base, a;
  runAffine(divergentChain(), config::Mechanism::Baseline, base);
  runAffine(divergentChain(), config::Mechanism::AffineA, a);
  EXPECT_EQ(a.stat("sm0.issue.warp_instructions"), base.stat("sm0.issue.warp_instructions"));
  EXPECT_EQ(base.stat("sm0.affine.instructions"), -1);  // no affine statistics without it
}
