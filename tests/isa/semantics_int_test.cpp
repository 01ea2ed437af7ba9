// Semantics of the opcodes of isa/opcodes.def (see tests/isa/semantics_cases.h): integer
// arithmetic, division and remainder, logic and shifts.
#include <gtest/gtest.h>

#include <limits>

#include "tests/isa/semantics_cases.h"

namespace simtlm::test {

std::vector<Case> intArithCases() {
  return {
      {Op::ADD_U32, 1, 2, 0, 3},
      {Op::ADD_U32, kAllOnes, 1, 0, 0},                 // wraps
      {Op::ADD_U32, kIntMax, 1, 0, kIntMin},            // signed overflow wraps
      {Op::ADD_U32, s(-5), 3, 0, s(-2)},
      {Op::SUB_U32, 5, 3, 0, 2},
      {Op::SUB_U32, 0, 1, 0, kAllOnes},
      {Op::SUB_U32, kIntMin, 1, 0, kIntMax},
      {Op::MUL_LO_U32, 6, 7, 0, 42},
      {Op::MUL_LO_U32, 0x10000, 0x10000, 0, 0},         // low half of 2^32
      {Op::MUL_LO_U32, kAllOnes, kAllOnes, 0, 1},       // (-1)(-1)
      {Op::MUL_LO_U32, 7, s(-3), 0, s(-21)},
      {Op::MUL_LO_U32, 0x12345678, 0x9ABCDEF0, 0, 0x242D2080},
      {Op::MUL_HI_S32, s(-1), s(-1), 0, 0},             // 1 -> high word 0
      {Op::MUL_HI_S32, s(-1), 1, 0, kAllOnes},          // -1 -> high word all ones
      {Op::MUL_HI_S32, s(-2), 3, 0, kAllOnes},          // -6
      {Op::MUL_HI_S32, kIntMin, kIntMin, 0, 0x40000000},  // 2^62
      {Op::MUL_HI_S32, kIntMin, s(-1), 0, 0},           // 2^31
      {Op::MUL_HI_S32, kIntMin, 1, 0, kAllOnes},        // -2^31
      {Op::MUL_HI_S32, kIntMax, kIntMax, 0, 0x3FFFFFFF},
      {Op::MUL_HI_S32, 0x10000, 0x10000, 0, 1},
      {Op::MUL_HI_S32, 0x12345678, 0x9ABCDEF0, 0, 0xF8CC93D6},  // b negative
      {Op::MUL_HI_U32, kAllOnes, kAllOnes, 0, 0xFFFFFFFE},  // unsigned: not 0 as signed
      {Op::MUL_HI_U32, kAllOnes, 1, 0, 0},
      {Op::MUL_HI_U32, kAllOnes, 2, 0, 1},
      {Op::MUL_HI_U32, kIntMin, kIntMin, 0, 0x40000000},
      {Op::MUL_HI_U32, 0x10000, 0x10000, 0, 1},
      {Op::MUL_HI_U32, 0x12345678, 0x9ABCDEF0, 0, 0x0B00EA4E},
      {Op::MAD_LO_U32, 3, 4, 5, 17},
      {Op::MAD_LO_U32, kAllOnes, 2, 3, 1},              // -2 + 3
      {Op::MAD_LO_U32, 0x10000, 0x10000, 7, 7},
      {Op::MAD_LO_U32, 0, 123, kAllOnes, kAllOnes},
      {Op::MIN_S32, s(-1), 1, 0, s(-1)},
      {Op::MIN_S32, kIntMin, kIntMax, 0, kIntMin},
      {Op::MIN_S32, 5, 5, 0, 5},
      {Op::MIN_U32, kAllOnes, 1, 0, 1},                 // -1 is the largest unsigned
      {Op::MIN_U32, kIntMin, kIntMax, 0, kIntMax},
      {Op::MIN_U32, 0, 7, 0, 0},
      {Op::MAX_S32, s(-1), 1, 0, 1},
      {Op::MAX_S32, kIntMin, kIntMax, 0, kIntMax},
      {Op::MAX_S32, s(-7), s(-3), 0, s(-3)},
      {Op::MAX_U32, kAllOnes, 1, 0, kAllOnes},
      {Op::MAX_U32, kIntMin, kIntMax, 0, kIntMin},
      {Op::MAX_U32, 0, 0, 0, 0},
      {Op::ABS_S32, s(-5), 0, 0, 5},
      {Op::ABS_S32, 5, 0, 0, 5},
      {Op::ABS_S32, 0, 0, 0, 0},
      {Op::ABS_S32, kIntMin, 0, 0, kIntMin},            // no positive counterpart: wraps
      {Op::ABS_S32, s(-kIntMax), 0, 0, kIntMax},
      {Op::NEG_S32, 5, 0, 0, s(-5)},
      {Op::NEG_S32, s(-5), 0, 0, 5},
      {Op::NEG_S32, 0, 0, 0, 0},
      {Op::NEG_S32, kIntMin, 0, 0, kIntMin},
  };
}

std::vector<Case> divRemCases() {
  return {
      {Op::DIV_S32, 7, 2, 0, 3},
      {Op::DIV_S32, s(-7), 2, 0, s(-3)},                // truncates toward zero
      {Op::DIV_S32, 7, s(-2), 0, s(-3)},
      {Op::DIV_S32, s(-7), s(-2), 0, 3},
      {Op::DIV_S32, kIntMin, s(-1), 0, kIntMin},        // overflow: INT_MIN
      {Op::DIV_S32, kIntMin, 1, 0, kIntMin},
      {Op::DIV_S32, kIntMin, 2, 0, s(-0x40000000)},
      {Op::DIV_S32, 7, 0, 0, kAllOnes},                 // x/0 = all ones (-1)
      {Op::DIV_S32, s(-7), 0, 0, kAllOnes},
      {Op::DIV_S32, 0, 0, 0, kAllOnes},
      {Op::DIV_S32, kIntMin, 0, 0, kAllOnes},
      {Op::DIV_U32, 7, 2, 0, 3},
      {Op::DIV_U32, kAllOnes, 2, 0, kIntMax},           // unsigned: not -1/2
      {Op::DIV_U32, kIntMin, kAllOnes, 0, 0},           // unsigned: no overflow case
      {Op::DIV_U32, 0xFFFFFFFE, kAllOnes, 0, 0},
      {Op::DIV_U32, kAllOnes, kAllOnes, 0, 1},
      {Op::DIV_U32, 7, 0, 0, kAllOnes},
      {Op::DIV_U32, 0, 0, 0, kAllOnes},
      {Op::REM_S32, 7, 2, 0, 1},
      {Op::REM_S32, s(-7), 2, 0, s(-1)},                // sign of the dividend
      {Op::REM_S32, 7, s(-2), 0, 1},
      {Op::REM_S32, s(-7), s(-2), 0, s(-1)},
      {Op::REM_S32, kIntMin, s(-1), 0, 0},              // INT_MIN % -1 = 0
      {Op::REM_S32, kIntMin, 3, 0, s(-2)},
      {Op::REM_S32, 7, 0, 0, 7},                        // x%0 = x
      {Op::REM_S32, s(-5), 0, 0, s(-5)},
      {Op::REM_S32, kIntMin, 0, 0, kIntMin},
      {Op::REM_S32, 0, 0, 0, 0},
      {Op::REM_U32, 7, 2, 0, 1},
      {Op::REM_U32, kAllOnes, 10, 0, 5},                // 4294967295 % 10
      {Op::REM_U32, kIntMin, kAllOnes, 0, kIntMin},
      {Op::REM_U32, s(-7), 2, 0, 1},                    // 4294967289 % 2
      {Op::REM_U32, 7, 0, 0, 7},
      {Op::REM_U32, kAllOnes, 0, 0, kAllOnes},
  };
}

std::vector<Case> logicShiftCases() {
  return {
      {Op::AND_B32, 0xF0F0F0F0, 0xFF00FF00, 0, 0xF000F000},
      {Op::AND_B32, kAllOnes, 0x12345678, 0, 0x12345678},
      {Op::OR_B32, 0xF0F0F0F0, 0x0F0F0000, 0, 0xFFFFF0F0},
      {Op::OR_B32, 0, 0, 0, 0},
      {Op::XOR_B32, 0xF0F0F0F0, 0xFF00FF00, 0, 0x0FF00FF0},
      {Op::XOR_B32, 0x12345678, 0x12345678, 0, 0},
      {Op::NOT_B32, 0, 0, 0, kAllOnes},
      {Op::NOT_B32, 0x12345678, 0, 0, 0xEDCBA987},
      // shl.b32: amounts of 32 and more give 0 (the amount is not masked to 5 bits)
      {Op::SHL_B32, 1, 0, 0, 1},
      {Op::SHL_B32, 0x12345678, 4, 0, 0x23456780},
      {Op::SHL_B32, 1, 31, 0, 0x80000000},
      {Op::SHL_B32, 3, 31, 0, 0x80000000},
      {Op::SHL_B32, 1, 32, 0, 0},
      {Op::SHL_B32, 1, 33, 0, 0},
      {Op::SHL_B32, kAllOnes, 0xFFFFFFFF, 0, 0},
      {Op::SHL_B32, kAllOnes, 0x20000001, 0, 0},        // huge amount, low bits 1
      // shr.u32: logical, zero fill
      {Op::SHR_U32, 0x80000000, 0, 0, 0x80000000},
      {Op::SHR_U32, 0x80000000, 4, 0, 0x08000000},
      {Op::SHR_U32, 0x80000000, 31, 0, 1},
      {Op::SHR_U32, kAllOnes, 31, 0, 1},
      {Op::SHR_U32, kAllOnes, 32, 0, 0},
      {Op::SHR_U32, kAllOnes, 33, 0, 0},
      {Op::SHR_U32, kAllOnes, 0xFFFFFFFF, 0, 0},
      // shr.s32: arithmetic, sign fill; amounts of 32 and more behave as 31
      {Op::SHR_S32, s(-8), 1, 0, s(-4)},
      {Op::SHR_S32, s(-7), 1, 0, s(-4)},                // rounds toward -infinity
      {Op::SHR_S32, s(-8), 0, 0, s(-8)},
      {Op::SHR_S32, kIntMin, 31, 0, kAllOnes},
      {Op::SHR_S32, kIntMin, 32, 0, kAllOnes},
      {Op::SHR_S32, kIntMin, 33, 0, kAllOnes},
      {Op::SHR_S32, s(-1), 0xFFFFFFFF, 0, kAllOnes},
      {Op::SHR_S32, s(-12345), 0xFFFFFFFF, 0, kAllOnes},
      {Op::SHR_S32, kIntMax, 30, 0, 1},
      {Op::SHR_S32, kIntMax, 31, 0, 0},
      {Op::SHR_S32, kIntMax, 32, 0, 0},
      {Op::SHR_S32, kIntMax, 33, 0, 0},
      {Op::SHR_S32, 0x12345678, 0xFFFFFFFF, 0, 0},
  };
}

TEST(SemanticsLane, IntegerArithmetic) { checkTable(intArithCases()); }
TEST(SemanticsLane, DivisionAndRemainder) { checkTable(divRemCases()); }
TEST(SemanticsLane, LogicAndShifts) { checkTable(logicShiftCases()); }

TEST(SemanticsLane, HelpersMatchTheirDocumentation) {
  EXPECT_EQ(isa::S(0xFFFFFFFFu), -1);
  EXPECT_EQ(isa::F(0x3F800000u), 1.0f);
  EXPECT_EQ(isa::U(-2.0f), 0xC0000000u);
  EXPECT_EQ(isa::divU32(9, 0), kAllOnes);
  EXPECT_EQ(isa::remU32(9, 0), 9u);
  EXPECT_EQ(isa::divS32(kIntMin, kAllOnes), kIntMin);
  EXPECT_EQ(isa::remS32(kIntMin, kAllOnes), 0u);
  EXPECT_EQ(isa::shrS32(kIntMin, 100), kAllOnes);
  EXPECT_EQ(isa::cvtS32(std::numeric_limits<float>::quiet_NaN()), 0u);
  EXPECT_EQ(isa::cvtU32(-std::numeric_limits<float>::infinity()), 0u);
}

}  // namespace simtlm::test
