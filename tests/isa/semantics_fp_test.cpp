// Semantics of the opcodes of isa/opcodes.def (see tests/isa/semantics_cases.h): f32
// arithmetic (rounding, signed zeros, infinities, NaNs, fma, min/max).
#include <gtest/gtest.h>

#include "tests/isa/semantics_cases.h"

namespace simtlm::test {

std::vector<Case> fpArithCases() {
  return {
      {Op::ADD_F32, f(1.5f), f(2.25f), 0, f(3.75f)},
      {Op::ADD_F32, f(1.0f), f(-1.0f), 0, kPosZero},      // exact zero is +0
      {Op::ADD_F32, kNegZero, kNegZero, 0, kNegZero},
      {Op::ADD_F32, kNegZero, kPosZero, 0, kPosZero},
      {Op::ADD_F32, f(1.0f), 0x33800000, 0, f(1.0f)},     // 1 + 2^-24: tie, to even
      {Op::ADD_F32, f(1.0f), 0x33C00000, 0, 0x3F800001},  // 1 + 1.5*2^-24: up
      {Op::ADD_F32, f(16777216.0f), f(1.0f), 0, f(16777216.0f)},
      {Op::ADD_F32, kFltMax, kFltMax, 0, kInf},           // overflow
      {Op::ADD_F32, kInf, f(1.0f), 0, kInf},
      {Op::ADD_F32, kInf, kInf, 0, kInf},
      {Op::ADD_F32, kInf, kNegInf, 0, kAnyNaN},
      {Op::ADD_F32, kNaN, f(1.0f), 0, kAnyNaN},
      {Op::ADD_F32, f(1.0f), kNegNaN, 0, kAnyNaN},
      {Op::ADD_F32, kSNaN, f(0.0f), 0, kAnyNaN},
      {Op::ADD_F32, kDenormMin, kDenormMin, 0, 0x00000002},  // denormals are kept
      {Op::SUB_F32, f(1.0f), f(3.0f), 0, f(-2.0f)},
      {Op::SUB_F32, f(0.0f), f(0.0f), 0, kPosZero},
      {Op::SUB_F32, kNegZero, kPosZero, 0, kNegZero},
      {Op::SUB_F32, kInf, kInf, 0, kAnyNaN},
      {Op::SUB_F32, kNegInf, kInf, 0, kNegInf},
      {Op::SUB_F32, kNaN, kNaN, 0, kAnyNaN},
      {Op::MUL_F32, f(3.0f), f(0.5f), 0, f(1.5f)},
      {Op::MUL_F32, f(-2.0f), kPosZero, 0, kNegZero},
      {Op::MUL_F32, kNegZero, kNegZero, 0, kPosZero},
      {Op::MUL_F32, kInf, f(-1.0f), 0, kNegInf},
      {Op::MUL_F32, kInf, kPosZero, 0, kAnyNaN},
      {Op::MUL_F32, kNaN, f(2.0f), 0, kAnyNaN},
      {Op::MUL_F32, kFltMax, f(2.0f), 0, kInf},
      {Op::MUL_F32, kFltMin, f(0.5f), 0, 0x00400000},     // gradual underflow, no flush
      {Op::MUL_F32, 0x3F800800, 0x3F800800, 0, 0x3F801000},  // (1+2^-12)^2 rounds 2^-24 away
      // fma: one rounding. (1+2^-12)^2 - (1+2^-11) = 2^-24 exactly, while mul then add gives 0.
      {Op::FMA_F32, 0x3F800800, 0x3F800800, 0xBF801000, 0x33800000},
      {Op::FMA_F32, f(2.0f), f(3.0f), f(1.0f), f(7.0f)},
      {Op::FMA_F32, f(-2.0f), f(3.0f), f(6.0f), kPosZero},
      {Op::FMA_F32, kInf, kPosZero, f(1.0f), kAnyNaN},
      {Op::FMA_F32, kInf, f(1.0f), kNegInf, kAnyNaN},
      {Op::FMA_F32, kInf, f(2.0f), f(1.0f), kInf},
      {Op::FMA_F32, f(1.0f), f(1.0f), kNaN, kAnyNaN},
      {Op::FMA_F32, kFltMax, f(2.0f), kNegInf, kNegInf},  // no intermediate overflow to NaN
      {Op::FMA_F32, kFltMax, f(2.0f), 0xFF7FFFFF, kFltMax},  // exact: 2M - M = M
      {Op::DIV_F32, f(6.0f), f(-2.0f), 0, f(-3.0f)},
      {Op::DIV_F32, f(1.0f), f(3.0f), 0, 0x3EAAAAAB},     // correctly rounded
      {Op::DIV_F32, f(1.0f), kPosZero, 0, kInf},
      {Op::DIV_F32, f(-1.0f), kPosZero, 0, kNegInf},
      {Op::DIV_F32, f(1.0f), kNegZero, 0, kNegInf},
      {Op::DIV_F32, kPosZero, kPosZero, 0, kAnyNaN},
      {Op::DIV_F32, kInf, kInf, 0, kAnyNaN},
      {Op::DIV_F32, f(1.0f), kInf, 0, kPosZero},
      {Op::DIV_F32, f(-1.0f), kInf, 0, kNegZero},
      {Op::DIV_F32, kNaN, f(1.0f), 0, kAnyNaN},
      // min/max: a NaN operand yields the other; two NaNs the canonical 0x7fffffff;
      // min(-0, +0) = -0 and max(-0, +0) = +0 in either order.
      {Op::MIN_F32, f(1.0f), f(2.0f), 0, f(1.0f)},
      {Op::MIN_F32, f(-1.0f), f(-2.0f), 0, f(-2.0f)},
      {Op::MIN_F32, kNaN, f(1.0f), 0, f(1.0f)},
      {Op::MIN_F32, f(1.0f), kNaN, 0, f(1.0f)},
      {Op::MIN_F32, kNegNaN, kNegInf, 0, kNegInf},
      {Op::MIN_F32, kInf, kSNaN, 0, kInf},
      {Op::MIN_F32, kNaN, kNaN, 0, kCanonNaN},
      {Op::MIN_F32, kNegNaN, kSNaN, 0, kCanonNaN},
      {Op::MIN_F32, kNegZero, kPosZero, 0, kNegZero},
      {Op::MIN_F32, kPosZero, kNegZero, 0, kNegZero},
      {Op::MIN_F32, kNegInf, kFltMax, 0, kNegInf},
      {Op::MAX_F32, f(1.0f), f(2.0f), 0, f(2.0f)},
      {Op::MAX_F32, f(-1.0f), f(-2.0f), 0, f(-1.0f)},
      {Op::MAX_F32, kNaN, f(1.0f), 0, f(1.0f)},
      {Op::MAX_F32, f(1.0f), kNaN, 0, f(1.0f)},
      {Op::MAX_F32, kNaN, kNegInf, 0, kNegInf},
      {Op::MAX_F32, kNaN, kNaN, 0, kCanonNaN},
      {Op::MAX_F32, kSNaN, kNegNaN, 0, kCanonNaN},
      {Op::MAX_F32, kNegZero, kPosZero, 0, kPosZero},
      {Op::MAX_F32, kPosZero, kNegZero, 0, kPosZero},
      {Op::MAX_F32, kInf, kFltMax, 0, kInf},
      // abs/neg.f32 are sign-bit operations: exact on zeros, infinities and NaNs
      {Op::ABS_F32, f(-2.5f), 0, 0, f(2.5f)},
      {Op::ABS_F32, kNegZero, 0, 0, kPosZero},
      {Op::ABS_F32, kNegInf, 0, 0, kInf},
      {Op::ABS_F32, kNegNaN, 0, 0, kNaN},
      {Op::ABS_F32, f(3.0f), 0, 0, f(3.0f)},
      {Op::NEG_F32, f(2.5f), 0, 0, f(-2.5f)},
      {Op::NEG_F32, kPosZero, 0, 0, kNegZero},
      {Op::NEG_F32, kNegZero, 0, 0, kPosZero},
      {Op::NEG_F32, kInf, 0, 0, kNegInf},
      {Op::NEG_F32, kNaN, 0, 0, kNegNaN},
  };
}

TEST(SemanticsLane, FloatArithmetic) { checkTable(fpArithCases()); }

TEST(SemanticsLane, FmaDiffersFromMulThenAdd) {
  // The fma row above is only meaningful if the unfused sequence really gives another answer.
  uint32_t a = 0x3F800800, c = 0xBF801000;
  uint32_t unfused = isa::evalLane(Op::ADD_F32, isa::evalLane(Op::MUL_F32, a, a, 0), c, 0);
  uint32_t fused = isa::evalLane(Op::FMA_F32, a, a, c);
  EXPECT_EQ(unfused, kPosZero);
  EXPECT_EQ(fused, 0x33800000u);
  EXPECT_NE(fused, unfused);
}

// A NaN result's bits must not depend on which lanes execute: the whole-warp loop of the
// semantic functions (vectorized, the compiler free to swap commutative operands) and the
// one-lane loop (divergence, a guard, UV's scalar lane) gave different payloads for two NaN
// operands of add/mul, and a kernel can see the bits (and.b32). Every FP operation whose result
// is NaN gives the canonical NaN 0x7fffffff, as min/max already did.
TEST(SemanticsWarp, NanResultsAreCanonicalWhateverLanesExecute) {
  const uint32_t nans[] = {kNaN, kNegNaN, kSNaN, 0xFFFFFFABu, 0xFFC00000u};
  for (Op op : {Op::ADD_F32, Op::SUB_F32, Op::MUL_F32, Op::DIV_F32, Op::FMA_F32, Op::RCP_F32,
                Op::SQRT_F32, Op::RSQRT_F32, Op::EX2_F32, Op::LG2_F32, Op::SIN_F32, Op::COS_F32}) {
    for (uint32_t x : nans)
      for (uint32_t y : nans) {
        uint32_t a[32], b[32], c[32], whole[32] = {}, one[32] = {};
        for (int l = 0; l < 32; ++l) a[l] = x, b[l] = y, c[l] = x;
        isa::warpAlu(op)(a, 1, b, 1, c, 1, whole, 0xFFFFFFFFu, 32);
        isa::warpAlu(op)(a, 1, b, 1, c, 1, one, 1u << 7, 32);
        EXPECT_EQ(whole[7], 0x7FFFFFFFu) << isa::info(op).name << " " << std::hex << x << " " << y;
        EXPECT_EQ(one[7], 0x7FFFFFFFu) << isa::info(op).name << " " << std::hex << x << " " << y;
      }
  }
  EXPECT_EQ(isa::evalLane(Op::SQRT_F32, kNegInf, 0, 0), 0x7FFFFFFFu);
  EXPECT_EQ(isa::evalLane(Op::ADD_F32, kInf, kNegInf, 0), 0x7FFFFFFFu);
}

}  // namespace simtlm::test
