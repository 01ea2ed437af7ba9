// Semantics of the opcodes the PTX front end added (see tests/isa/semantics_cases.h): bit
// manipulation (popc, clz, brev, bfe, bfi with the packed field pos | len << 8), float
// rounding to integral values, and the .ftz special functions.
#include <gtest/gtest.h>

#include "tests/isa/semantics_cases.h"

namespace simtlm::test {

namespace {
constexpr uint32_t field(uint32_t pos, uint32_t len) { return pos | len << 8; }
constexpr uint32_t kDenorm = 0x00400000u;     // a subnormal, 2^-127
constexpr uint32_t kNegDenorm = 0x80400000u;
}  // namespace

std::vector<Case> bitCases() {
  return {
      {Op::POPC_B32, 0, 0, 0, 0},
      {Op::POPC_B32, kAllOnes, 0, 0, 32},
      {Op::POPC_B32, 0x80000001u, 0, 0, 2},
      {Op::CLZ_B32, 0, 0, 0, 32},                      // PTX: clz of 0 is 32
      {Op::CLZ_B32, 1, 0, 0, 31},
      {Op::CLZ_B32, kIntMin, 0, 0, 0},
      {Op::BREV_B32, 1, 0, 0, kIntMin},
      {Op::BREV_B32, 0x12345678u, 0, 0, 0x1E6A2C48u},
      {Op::BFE_U32, 0xABCD1234u, field(8, 8), 0, 0x12},
      {Op::BFE_U32, 0xABCD1234u, field(28, 8), 0, 0xA},  // field past bit 31: zero filled
      {Op::BFE_U32, 0xABCD1234u, field(0, 0), 0, 0},
      {Op::BFE_U32, 0xABCD1234u, field(40, 4), 0, 0},    // position past the word
      {Op::BFE_S32, 0x00008000u, field(0, 16), 0, 0xFFFF8000u},  // sign-extends bit 15
      {Op::BFE_S32, 0xF0000000u, field(28, 8), 0, kAllOnes},     // msb clamped to bit 31
      {Op::BFE_S32, 0x00007FFFu, field(0, 16), 0, 0x7FFF},
      {Op::BFE_S32, kAllOnes, field(4, 0), 0, 0},        // len 0: zero, not the sign
      {Op::BFI_B32, 0xFu, 0xFFFF0000u, field(4, 4), 0xFFFF00F0u},
      {Op::BFI_B32, kAllOnes, 0, field(30, 8), 0xC0000000u},     // bits past 31 dropped
      {Op::BFI_B32, kAllOnes, 0x1234u, field(0, 0), 0x1234u},    // len 0: b unchanged
      {Op::BFI_B32, 0x5u, 0, field(0x108, 0x103), 0x500u},       // pos and len mod 256
  };
}

std::vector<Case> roundingCases() {
  return {
      {Op::CVT_RPI_S32_F32, f(1.25f), 0, 0, 2},
      {Op::CVT_RPI_S32_F32, f(-1.75f), 0, 0, s(-1)},
      {Op::CVT_RPI_S32_F32, kNaN, 0, 0, 0},
      {Op::CVT_RPI_S32_F32, f(3e9f), 0, 0, kIntMax},
      {Op::CVT_RNI_F32_F32, f(2.5f), 0, 0, f(2.0f)},   // ties to even
      {Op::CVT_RNI_F32_F32, f(-3.5f), 0, 0, f(-4.0f)},
      {Op::CVT_RMI_F32_F32, f(-0.5f), 0, 0, f(-1.0f)},
      {Op::CVT_RMI_F32_F32, f(1.75f), 0, 0, f(1.0f)},
      {Op::CVT_RPI_F32_F32, f(-0.5f), 0, 0, kNegZero},  // ceil keeps the sign
      {Op::CVT_RPI_F32_F32, f(1.25f), 0, 0, f(2.0f)},
      {Op::CVT_RZI_F32_F32, f(-1.75f), 0, 0, f(-1.0f)},
      {Op::CVT_RZI_F32_F32, kInf, 0, 0, kInf},
      {Op::CVT_RZI_F32_F32, kNaN, 0, 0, kCanonNaN},
  };
}

std::vector<Case> ftzCases() {
  return {
      {Op::RCP_FTZ_F32, f(4.0f), 0, 0, f(0.25f)},
      {Op::RCP_FTZ_F32, kDenorm, 0, 0, kInf},            // input flushed: 1/+0
      {Op::RCP_FTZ_F32, kNegDenorm, 0, 0, kNegInf},
      {Op::RCP_FTZ_F32, 0x7E800000u, 0, 0, kFltMin},     // 1/2^126 = 2^-126: normal, kept
      {Op::RCP_FTZ_F32, 0x7F000000u, 0, 0, kPosZero},    // 1/2^127 = 2^-127: subnormal, flushed
      {Op::SQRT_FTZ_F32, f(9.0f), 0, 0, f(3.0f)},
      {Op::SQRT_FTZ_F32, kNegDenorm, 0, 0, kNegZero},    // sqrt(-0) = -0, not NaN
      {Op::RSQRT_FTZ_F32, f(4.0f), 0, 0, f(0.5f)},
      {Op::RSQRT_FTZ_F32, kDenorm, 0, 0, kInf},
      {Op::EX2_FTZ_F32, f(3.0f), 0, 0, f(8.0f)},
      {Op::EX2_FTZ_F32, f(-130.0f), 0, 0, kPosZero},     // a subnormal result is flushed
      {Op::EX2_FTZ_F32, kDenorm, 0, 0, f(1.0f)},
      {Op::LG2_FTZ_F32, f(8.0f), 0, 0, f(3.0f)},
      {Op::LG2_FTZ_F32, kDenorm, 0, 0, kNegInf},         // lg2(+0)
      {Op::SIN_FTZ_F32, kDenorm, 0, 0, kPosZero},        // sin(x) = x would be subnormal
      {Op::SIN_FTZ_F32, kNegZero, 0, 0, kNegZero},
      {Op::COS_FTZ_F32, kNegDenorm, 0, 0, f(1.0f)},
      {Op::COS_FTZ_F32, kInf, 0, 0, kAnyNaN},
  };
}

TEST(SemanticsLane, BitManipulation) { checkTable(bitCases()); }
TEST(SemanticsLane, FloatRounding) { checkTable(roundingCases()); }
TEST(SemanticsLane, FlushToZeroSpecialFunctions) { checkTable(ftzCases()); }

}  // namespace simtlm::test
