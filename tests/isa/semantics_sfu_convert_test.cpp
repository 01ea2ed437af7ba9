// Semantics of the opcodes of isa/opcodes.def (see tests/isa/semantics_cases.h): special
// functions (rcp, sqrt, rsqrt, ex2, lg2, sin, cos) and conversions.
#include <gtest/gtest.h>

#include "tests/isa/semantics_cases.h"

namespace simtlm::test {

std::vector<Case> sfuCases() {
  return {
      {Op::RCP_F32, f(2.0f), 0, 0, f(0.5f)},
      {Op::RCP_F32, f(-4.0f), 0, 0, f(-0.25f)},
      {Op::RCP_F32, f(3.0f), 0, 0, 0x3EAAAAAB},
      {Op::RCP_F32, kPosZero, 0, 0, kInf},
      {Op::RCP_F32, kNegZero, 0, 0, kNegInf},
      {Op::RCP_F32, kInf, 0, 0, kPosZero},
      {Op::RCP_F32, kNegInf, 0, 0, kNegZero},
      {Op::RCP_F32, kNaN, 0, 0, kAnyNaN},
      {Op::SQRT_F32, f(4.0f), 0, 0, f(2.0f)},
      {Op::SQRT_F32, f(2.0f), 0, 0, 0x3FB504F3},          // correctly rounded
      {Op::SQRT_F32, kPosZero, 0, 0, kPosZero},
      {Op::SQRT_F32, kNegZero, 0, 0, kNegZero},
      {Op::SQRT_F32, f(-1.0f), 0, 0, kAnyNaN},
      {Op::SQRT_F32, kNegInf, 0, 0, kAnyNaN},
      {Op::SQRT_F32, kInf, 0, 0, kInf},
      {Op::SQRT_F32, kNaN, 0, 0, kAnyNaN},
      {Op::RSQRT_F32, f(4.0f), 0, 0, f(0.5f)},
      {Op::RSQRT_F32, f(0.25f), 0, 0, f(2.0f)},
      {Op::RSQRT_F32, kPosZero, 0, 0, kInf},
      {Op::RSQRT_F32, kNegZero, 0, 0, kNegInf},
      {Op::RSQRT_F32, f(-4.0f), 0, 0, kAnyNaN},
      {Op::RSQRT_F32, kInf, 0, 0, kPosZero},
      {Op::RSQRT_F32, kNaN, 0, 0, kAnyNaN},
      {Op::EX2_F32, kPosZero, 0, 0, f(1.0f)},
      {Op::EX2_F32, kNegZero, 0, 0, f(1.0f)},
      {Op::EX2_F32, f(1.0f), 0, 0, f(2.0f)},
      {Op::EX2_F32, f(10.0f), 0, 0, f(1024.0f)},
      {Op::EX2_F32, f(-1.0f), 0, 0, f(0.5f)},
      {Op::EX2_F32, f(-126.0f), 0, 0, kFltMin},
      {Op::EX2_F32, f(-149.0f), 0, 0, kDenormMin},
      {Op::EX2_F32, f(128.0f), 0, 0, kInf},               // overflow
      {Op::EX2_F32, f(-200.0f), 0, 0, kPosZero},          // underflow
      {Op::EX2_F32, kInf, 0, 0, kInf},
      {Op::EX2_F32, kNegInf, 0, 0, kPosZero},
      {Op::EX2_F32, kNaN, 0, 0, kAnyNaN},
      {Op::LG2_F32, f(1.0f), 0, 0, kPosZero},
      {Op::LG2_F32, f(2.0f), 0, 0, f(1.0f)},
      {Op::LG2_F32, f(1024.0f), 0, 0, f(10.0f)},
      {Op::LG2_F32, f(0.5f), 0, 0, f(-1.0f)},
      {Op::LG2_F32, kDenormMin, 0, 0, f(-149.0f)},
      {Op::LG2_F32, kPosZero, 0, 0, kNegInf},
      {Op::LG2_F32, kNegZero, 0, 0, kNegInf},
      {Op::LG2_F32, f(-1.0f), 0, 0, kAnyNaN},
      {Op::LG2_F32, kNegInf, 0, 0, kAnyNaN},
      {Op::LG2_F32, kInf, 0, 0, kInf},
      {Op::LG2_F32, kNaN, 0, 0, kAnyNaN},
      {Op::SIN_F32, kPosZero, 0, 0, kPosZero},
      {Op::SIN_F32, kNegZero, 0, 0, kNegZero},
      {Op::SIN_F32, kInf, 0, 0, kAnyNaN},
      {Op::SIN_F32, kNegInf, 0, 0, kAnyNaN},
      {Op::SIN_F32, kNaN, 0, 0, kAnyNaN},
      {Op::SIN_F32, f(1.5707964f), 0, 0, f(1.0f)},        // float(pi/2)
      {Op::COS_F32, kPosZero, 0, 0, f(1.0f)},
      {Op::COS_F32, kNegZero, 0, 0, f(1.0f)},
      {Op::COS_F32, kInf, 0, 0, kAnyNaN},
      {Op::COS_F32, kNaN, 0, 0, kAnyNaN},
      {Op::COS_F32, f(3.14159274f), 0, 0, f(-1.0f)},      // float(pi)
  };
}

std::vector<Case> convertCases() {
  return {
      {Op::CVT_F32_S32, s(-1), 0, 0, f(-1.0f)},
      {Op::CVT_F32_S32, 0, 0, 0, kPosZero},
      {Op::CVT_F32_S32, kIntMin, 0, 0, 0xCF000000},         // -2^31
      {Op::CVT_F32_S32, kIntMax, 0, 0, 0x4F000000},         // rounds to 2^31
      {Op::CVT_F32_S32, 16777217, 0, 0, f(16777216.0f)},    // tie, to even
      {Op::CVT_F32_S32, 16777219, 0, 0, f(16777220.0f)},    // tie, to even (up)
      {Op::CVT_F32_S32, s(-16777217), 0, 0, f(-16777216.0f)},
      {Op::CVT_F32_U32, kAllOnes, 0, 0, 0x4F800000},        // 2^32, not -1
      {Op::CVT_F32_U32, kIntMin, 0, 0, 0x4F000000},         // 2^31, not -2^31
      {Op::CVT_F32_U32, 16777217, 0, 0, f(16777216.0f)},
      {Op::CVT_F32_U32, 3, 0, 0, f(3.0f)},
      // float -> s32: truncation toward zero, saturation, NaN -> 0
      {Op::CVT_S32_F32, f(1.9f), 0, 0, 1},
      {Op::CVT_S32_F32, f(-1.9f), 0, 0, s(-1)},
      {Op::CVT_S32_F32, f(-0.5f), 0, 0, 0},
      {Op::CVT_S32_F32, kNegZero, 0, 0, 0},
      {Op::CVT_S32_F32, f(2147483520.0f), 0, 0, 2147483520u},  // largest float below 2^31
      {Op::CVT_S32_F32, f(2147483648.0f), 0, 0, kIntMax},
      {Op::CVT_S32_F32, f(3e9f), 0, 0, kIntMax},
      {Op::CVT_S32_F32, f(-2147483648.0f), 0, 0, kIntMin},
      {Op::CVT_S32_F32, f(-3e9f), 0, 0, kIntMin},
      {Op::CVT_S32_F32, kInf, 0, 0, kIntMax},
      {Op::CVT_S32_F32, kNegInf, 0, 0, kIntMin},
      {Op::CVT_S32_F32, kNaN, 0, 0, 0},
      {Op::CVT_S32_F32, kNegNaN, 0, 0, 0},
      // float -> u32: truncation, negatives and NaN -> 0, saturation at 2^32-1
      {Op::CVT_U32_F32, f(3.7f), 0, 0, 3},
      {Op::CVT_U32_F32, f(-0.5f), 0, 0, 0},
      {Op::CVT_U32_F32, f(-1.0f), 0, 0, 0},
      {Op::CVT_U32_F32, f(3e9f), 0, 0, 3000000000u},
      {Op::CVT_U32_F32, f(4294967040.0f), 0, 0, 4294967040u},  // largest float below 2^32
      {Op::CVT_U32_F32, f(4294967296.0f), 0, 0, kAllOnes},
      {Op::CVT_U32_F32, f(5e9f), 0, 0, kAllOnes},
      {Op::CVT_U32_F32, kInf, 0, 0, kAllOnes},
      {Op::CVT_U32_F32, kNegInf, 0, 0, 0},
      {Op::CVT_U32_F32, kNaN, 0, 0, 0},
      // rni: round to nearest, ties to even
      {Op::CVT_RNI_S32_F32, f(0.5f), 0, 0, 0},
      {Op::CVT_RNI_S32_F32, f(1.5f), 0, 0, 2},
      {Op::CVT_RNI_S32_F32, f(2.5f), 0, 0, 2},
      {Op::CVT_RNI_S32_F32, f(3.5f), 0, 0, 4},
      {Op::CVT_RNI_S32_F32, f(2.4f), 0, 0, 2},
      {Op::CVT_RNI_S32_F32, f(2.6f), 0, 0, 3},
      {Op::CVT_RNI_S32_F32, f(-0.5f), 0, 0, 0},
      {Op::CVT_RNI_S32_F32, f(-1.5f), 0, 0, s(-2)},
      {Op::CVT_RNI_S32_F32, f(-2.5f), 0, 0, s(-2)},
      {Op::CVT_RNI_S32_F32, f(1e10f), 0, 0, kIntMax},
      {Op::CVT_RNI_S32_F32, f(-1e10f), 0, 0, kIntMin},
      {Op::CVT_RNI_S32_F32, kNaN, 0, 0, 0},
      // rmi: round toward -infinity (floor)
      {Op::CVT_RMI_S32_F32, f(1.9f), 0, 0, 1},
      {Op::CVT_RMI_S32_F32, f(-0.5f), 0, 0, s(-1)},
      {Op::CVT_RMI_S32_F32, f(-1.0f), 0, 0, s(-1)},
      {Op::CVT_RMI_S32_F32, f(-1.5f), 0, 0, s(-2)},
      {Op::CVT_RMI_S32_F32, kNegZero, 0, 0, 0},
      {Op::CVT_RMI_S32_F32, f(-2147483648.0f), 0, 0, kIntMin},
      {Op::CVT_RMI_S32_F32, f(-3e9f), 0, 0, kIntMin},
      {Op::CVT_RMI_S32_F32, kInf, 0, 0, kIntMax},
      {Op::CVT_RMI_S32_F32, kNaN, 0, 0, 0},
  };
}

TEST(SemanticsLane, SpecialFunctions) { checkTable(sfuCases()); }
TEST(SemanticsLane, Conversions) { checkTable(convertCases()); }

}  // namespace simtlm::test
