// Semantics of the opcodes of isa/opcodes.def (see tests/isa/semantics_cases.h): moves,
// compares and predicate logic.
#include <gtest/gtest.h>

#include "tests/isa/semantics_cases.h"

namespace simtlm::test {

std::vector<Case> moveCases() {
  return {
      {Op::MOV_B32, 0x12345678, 0, 0, 0x12345678},
      {Op::MOV_B32, kSNaN, 0, 0, kSNaN},                   // bits, not a float operation
      {Op::SELP_B32, 11, 22, 1, 11},                       // c = selector predicate
      {Op::SELP_B32, 11, 22, 0, 22},
      {Op::S2R, 0xABCD, 0, 0, 0xABCD},                     // a = the special register's value
  };
}

std::vector<Case> compareCases() {
  return {
      {Op::SETP_EQ_B32, 5, 5, 0, 1},
      {Op::SETP_EQ_B32, 5, 6, 0, 0},
      {Op::SETP_EQ_B32, kNegZero, kPosZero, 0, 0},         // bits: -0 != +0
      {Op::SETP_EQ_B32, kNaN, kNaN, 0, 1},                 // bits: a NaN equals itself
      {Op::SETP_NE_B32, 5, 6, 0, 1},
      {Op::SETP_NE_B32, 5, 5, 0, 0},
      {Op::SETP_NE_B32, kNegZero, kPosZero, 0, 1},
      // signed vs unsigned: -1 < 1 signed, but 0xffffffff > 1 unsigned
      {Op::SETP_LT_S32, s(-1), 1, 0, 1},
      {Op::SETP_LT_S32, 1, s(-1), 0, 0},
      {Op::SETP_LT_S32, 3, 3, 0, 0},
      {Op::SETP_LT_S32, kIntMin, kIntMax, 0, 1},
      {Op::SETP_LE_S32, s(-1), 1, 0, 1},
      {Op::SETP_LE_S32, 3, 3, 0, 1},
      {Op::SETP_LE_S32, 1, s(-1), 0, 0},
      {Op::SETP_GT_S32, s(-1), 1, 0, 0},
      {Op::SETP_GT_S32, 1, s(-1), 0, 1},
      {Op::SETP_GT_S32, 3, 3, 0, 0},
      {Op::SETP_GE_S32, s(-1), 1, 0, 0},
      {Op::SETP_GE_S32, 3, 3, 0, 1},
      {Op::SETP_GE_S32, kIntMax, kIntMin, 0, 1},
      {Op::SETP_LT_U32, s(-1), 1, 0, 0},
      {Op::SETP_LT_U32, 1, s(-1), 0, 1},
      {Op::SETP_LT_U32, 3, 3, 0, 0},
      {Op::SETP_LE_U32, s(-1), 1, 0, 0},
      {Op::SETP_LE_U32, 3, 3, 0, 1},
      {Op::SETP_LE_U32, 1, s(-1), 0, 1},
      {Op::SETP_GT_U32, s(-1), 1, 0, 1},
      {Op::SETP_GT_U32, 1, s(-1), 0, 0},
      {Op::SETP_GT_U32, 3, 3, 0, 0},
      {Op::SETP_GE_U32, s(-1), 1, 0, 1},
      {Op::SETP_GE_U32, 3, 3, 0, 1},
      {Op::SETP_GE_U32, kIntMax, kIntMin, 0, 0},
      // f32: ordered; every compare with a NaN operand is false, ne included
      {Op::SETP_EQ_F32, f(1.0f), f(1.0f), 0, 1},
      {Op::SETP_EQ_F32, kNegZero, kPosZero, 0, 1},         // float: -0 == +0
      {Op::SETP_EQ_F32, kNaN, kNaN, 0, 0},
      {Op::SETP_EQ_F32, kNaN, f(1.0f), 0, 0},
      {Op::SETP_EQ_F32, kInf, kInf, 0, 1},
      {Op::SETP_NE_F32, f(1.0f), f(2.0f), 0, 1},
      {Op::SETP_NE_F32, f(1.0f), f(1.0f), 0, 0},
      {Op::SETP_NE_F32, kNegZero, kPosZero, 0, 0},
      {Op::SETP_NE_F32, kNaN, f(1.0f), 0, 0},
      {Op::SETP_NE_F32, f(1.0f), kNaN, 0, 0},
      {Op::SETP_NE_F32, kNaN, kNaN, 0, 0},
      {Op::SETP_LT_F32, f(-2.0f), f(1.0f), 0, 1},          // signed magnitude, unlike u32
      {Op::SETP_LT_F32, kNegInf, kInf, 0, 1},
      {Op::SETP_LT_F32, kNegZero, kPosZero, 0, 0},
      {Op::SETP_LT_F32, kNaN, f(1.0f), 0, 0},
      {Op::SETP_LT_F32, f(1.0f), kNaN, 0, 0},
      {Op::SETP_LE_F32, f(1.0f), f(1.0f), 0, 1},
      {Op::SETP_LE_F32, f(2.0f), f(1.0f), 0, 0},
      {Op::SETP_LE_F32, kNaN, kNaN, 0, 0},
      {Op::SETP_LE_F32, kNegInf, kNaN, 0, 0},
      {Op::SETP_GT_F32, f(1.0f), f(-2.0f), 0, 1},
      {Op::SETP_GT_F32, f(1.0f), f(1.0f), 0, 0},
      {Op::SETP_GT_F32, kNaN, kNegInf, 0, 0},
      {Op::SETP_GT_F32, kInf, kNaN, 0, 0},
      {Op::SETP_GE_F32, f(1.0f), f(1.0f), 0, 1},
      {Op::SETP_GE_F32, kPosZero, kNegZero, 0, 1},
      {Op::SETP_GE_F32, f(-2.0f), f(1.0f), 0, 0},
      {Op::SETP_GE_F32, kNaN, kNaN, 0, 0},
  };
}

std::vector<Case> predicateCases() {
  std::vector<Case> v;
  for (uint32_t a = 0; a < 2; ++a) {
    for (uint32_t b = 0; b < 2; ++b) {
      v.push_back({Op::PAND, a, b, 0, a & b});
      v.push_back({Op::POR, a, b, 0, a | b});
      v.push_back({Op::PXOR, a, b, 0, a ^ b});
    }
    v.push_back({Op::PNOT, a, 0, 0, 1 - a});
  }
  return v;
}

// Atomics: a = the old memory word, b = the operand, c = the swap value (cas); the expected

TEST(SemanticsLane, Moves) { checkTable(moveCases()); }
TEST(SemanticsLane, Compares) { checkTable(compareCases()); }
TEST(SemanticsLane, PredicateLogic) { checkTable(predicateCases()); }

}  // namespace simtlm::test
