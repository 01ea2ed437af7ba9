// Semantics of every opcode of isa/opcodes.def, asserted exactly.
//
// Three layers:
//   1. tables of (op, a, b, c) -> expected result, checked through isa::evalLane and through the
//      warp-wide isa::warpAlu (masked lanes, broadcast sources);
//   2. every table row again through an assembled kernel on the functional interpreter, once
//      with register sources and once with the last source as a hex immediate;
//   3. hand-written kernels for what has no lane expression (memory, atomics ordering, branches,
//      barriers, special registers) and for the assembler's immediate syntax in f32 context.
// SemanticsCoverage.EveryOpcodeIsTested fails when an opcode of the table has no test here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "isa/assembler.h"
#include "isa/diagnostics.h"
#include "isa/interpreter.h"
#include "isa/memory.h"
#include "isa/opcode.h"
#include "isa/semantics.h"

namespace {

namespace isa = simtlm::isa;
using isa::Op;

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

uint32_t f(float x) { return isa::U(x); }
constexpr uint32_t kInf = 0x7F800000u;
constexpr uint32_t kNegInf = 0xFF800000u;
constexpr uint32_t kNaN = 0x7FC00000u;     // a quiet NaN
constexpr uint32_t kNegNaN = 0xFFC00000u;  // a quiet NaN with the sign bit set
constexpr uint32_t kSNaN = 0x7F800001u;    // a signalling NaN
constexpr uint32_t kCanonNaN = 0x7FFFFFFFu;
constexpr uint32_t kPosZero = 0x00000000u;
constexpr uint32_t kNegZero = 0x80000000u;
constexpr uint32_t kFltMax = 0x7F7FFFFFu;
constexpr uint32_t kFltMin = 0x00800000u;  // smallest normal
constexpr uint32_t kDenormMin = 0x00000001u;
constexpr uint32_t kIntMin = 0x80000000u;
constexpr uint32_t kIntMax = 0x7FFFFFFFu;
constexpr uint32_t kAllOnes = 0xFFFFFFFFu;
uint32_t s(int32_t x) { return static_cast<uint32_t>(x); }

// Arithmetic producing a NaN: the ISA fixes that the result is a NaN, not which one.
constexpr uint64_t kAnyNaN = 1ull << 32;

struct Case {
  Op op;
  uint32_t a, b, c;
  uint64_t want;  // a 32-bit result, or kAnyNaN
};

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

std::string describe(const Case& k) {
  return std::string(isa::info(k.op).name) + "(" + hex(k.a) + ", " + hex(k.b) + ", " + hex(k.c) +
         ") expected " + (k.want == kAnyNaN ? std::string("NaN") : hex(static_cast<uint32_t>(k.want)));
}

bool matches(uint64_t want, uint32_t got) {
  if (want == kAnyNaN) return std::isnan(isa::F(got));
  return got == static_cast<uint32_t>(want);
}

// ---------------------------------------------------------------------------------------------
// Tables, one per group of opcodes.def
// ---------------------------------------------------------------------------------------------

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
// value is the new memory word (the destination register receives the old word a).
std::vector<Case> atomicCases() {
  std::vector<Case> v;
  for (Op add : {Op::ATOM_G_ADD_U32, Op::ATOM_S_ADD_U32}) {
    v.push_back({add, 5, 3, 0, 8});
    v.push_back({add, kAllOnes, 2, 0, 1});
  }
  for (Op add : {Op::ATOM_G_ADD_F32, Op::ATOM_S_ADD_F32}) {
    v.push_back({add, f(1.5f), f(2.25f), 0, f(3.75f)});
    v.push_back({add, f(1.0f), 0x33800000, 0, f(1.0f)});  // rounded like add.f32
    v.push_back({add, kInf, kNegInf, 0, kAnyNaN});
    v.push_back({add, kNaN, f(1.0f), 0, kAnyNaN});
  }
  for (Op mn : {Op::ATOM_G_MIN_S32, Op::ATOM_S_MIN_S32}) {
    v.push_back({mn, s(-1), 1, 0, s(-1)});
    v.push_back({mn, 1, s(-1), 0, s(-1)});
    v.push_back({mn, 4, 4, 0, 4});
  }
  for (Op mn : {Op::ATOM_G_MIN_U32, Op::ATOM_S_MIN_U32}) {
    v.push_back({mn, s(-1), 1, 0, 1});
    v.push_back({mn, 1, s(-1), 0, 1});
    v.push_back({mn, kIntMin, kIntMax, 0, kIntMax});
  }
  for (Op mx : {Op::ATOM_G_MAX_S32, Op::ATOM_S_MAX_S32}) {
    v.push_back({mx, s(-1), 1, 0, 1});
    v.push_back({mx, kIntMin, s(-5), 0, s(-5)});
  }
  for (Op mx : {Op::ATOM_G_MAX_U32, Op::ATOM_S_MAX_U32}) {
    v.push_back({mx, s(-1), 1, 0, kAllOnes});
    v.push_back({mx, 1, kIntMin, 0, kIntMin});
  }
  for (Op ex : {Op::ATOM_G_EXCH, Op::ATOM_S_EXCH}) {
    v.push_back({ex, 7, 9, 0, 9});
    v.push_back({ex, kAllOnes, 0, 0, 0});
  }
  for (Op cas : {Op::ATOM_G_CAS, Op::ATOM_S_CAS}) {
    v.push_back({cas, 7, 7, 42, 42});       // compare matches: swap
    v.push_back({cas, 7, 8, 42, 7});        // no match: unchanged
    v.push_back({cas, 0, 0, kAllOnes, kAllOnes});
    v.push_back({cas, kNegZero, kPosZero, 1, kNegZero});  // bitwise compare
  }
  return v;
}

std::vector<Case> allCases() {
  std::vector<Case> all;
  for (auto table : {intArithCases, divRemCases, logicShiftCases, fpArithCases, sfuCases,
                     convertCases, moveCases, compareCases, predicateCases, atomicCases}) {
    auto t = table();
    all.insert(all.end(), t.begin(), t.end());
  }
  return all;
}

void checkTable(const std::vector<Case>& table) {
  ASSERT_FALSE(table.empty());
  for (const Case& k : table) {
    uint32_t got = isa::evalLane(k.op, k.a, k.b, k.c);
    EXPECT_TRUE(matches(k.want, got)) << describe(k) << ", got " << hex(got);
  }
}

// ---------------------------------------------------------------------------------------------
// Layer 1: evalLane
// ---------------------------------------------------------------------------------------------

TEST(SemanticsLane, IntegerArithmetic) { checkTable(intArithCases()); }
TEST(SemanticsLane, DivisionAndRemainder) { checkTable(divRemCases()); }
TEST(SemanticsLane, LogicAndShifts) { checkTable(logicShiftCases()); }
TEST(SemanticsLane, FloatArithmetic) { checkTable(fpArithCases()); }
TEST(SemanticsLane, SpecialFunctions) { checkTable(sfuCases()); }
TEST(SemanticsLane, Conversions) { checkTable(convertCases()); }
TEST(SemanticsLane, Moves) { checkTable(moveCases()); }
TEST(SemanticsLane, Compares) { checkTable(compareCases()); }
TEST(SemanticsLane, PredicateLogic) { checkTable(predicateCases()); }
TEST(SemanticsLane, AtomicNewWord) { checkTable(atomicCases()); }

TEST(SemanticsLane, FmaDiffersFromMulThenAdd) {
  // The fma row above is only meaningful if the unfused sequence really gives another answer.
  uint32_t a = 0x3F800800, c = 0xBF801000;
  uint32_t unfused = isa::evalLane(Op::ADD_F32, isa::evalLane(Op::MUL_F32, a, a, 0), c, 0);
  uint32_t fused = isa::evalLane(Op::FMA_F32, a, a, c);
  EXPECT_EQ(unfused, kPosZero);
  EXPECT_EQ(fused, 0x33800000u);
  EXPECT_NE(fused, unfused);
}

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

// Formats without a lane expression (memory, control) evaluate to 0.
TEST(SemanticsLane, OpsWithoutLaneExpressionGiveZero) {
  for (int i = 0; i < isa::kNumOps; ++i) {
    Op op = static_cast<Op>(i);
    switch (isa::info(op).format) {
      case isa::Format::Load: case isa::Format::Store: case isa::Format::Branch:
      case isa::Format::Barrier: case isa::Format::NoOperands:
        EXPECT_EQ(isa::evalLane(op, 1, 2, 3), 0u) << isa::info(op).name;
        break;
      default:
        break;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Layer 1b: warpAlu agrees with evalLane, honours the mask and broadcasts stride-0 sources
// ---------------------------------------------------------------------------------------------

TEST(SemanticsWarp, WarpAluMatchesEvalLane) {
  std::vector<Case> all = allCases();
  EXPECT_GT(all.size(), 400u);
  for (const Case& k : all) {
    for (int lanes : {32, 8, 1}) {
      uint32_t full = lanes == 32 ? 0xFFFFFFFFu : ((1u << lanes) - 1);
      for (uint32_t mask : {full, full & 0x55555555u, full & 0x80000001u, 0u}) {
        uint32_t a[32], b[32], c[32], d[32];
        for (int l = 0; l < 32; ++l) {
          a[l] = k.a;
          b[l] = k.b;
          c[l] = k.c;
          d[l] = 0xDEAD0000u + l;
        }
        // Vector a, broadcast b and c when the mask is partial; all vectors otherwise.
        int sb = mask == full ? 1 : 0;
        isa::warpAlu(k.op)(a, 1, b, sb, c, sb, d, mask, lanes);
        for (int l = 0; l < 32; ++l) {
          if (l < lanes && (mask >> l & 1u)) {
            EXPECT_TRUE(matches(k.want, d[l])) << describe(k) << " lane " << l << " got " << hex(d[l]);
          } else {
            EXPECT_EQ(d[l], 0xDEAD0000u + l) << describe(k) << ": lane " << l << " outside the mask was written";
          }
        }
      }
    }
  }
}

TEST(SemanticsWarp, PerLaneOperands) {
  uint32_t a[32], b[32], d[32] = {};
  for (int l = 0; l < 32; ++l) {
    a[l] = static_cast<uint32_t>(l);
    b[l] = static_cast<uint32_t>(100 * l);
  }
  uint32_t zero = 0;
  isa::warpAlu(Op::SUB_U32)(a, 1, b, 1, &zero, 0, d, 0xFFFFFFFFu, 32);
  for (int l = 0; l < 32; ++l) EXPECT_EQ(d[l], static_cast<uint32_t>(l - 100 * l));
  // Broadcast a (stride 0) with a partial mask.
  uint32_t seven = 7;
  isa::warpAlu(Op::MUL_LO_U32)(&seven, 0, a, 1, &zero, 0, d, 0x0000FFFFu, 32);
  for (int l = 0; l < 16; ++l) EXPECT_EQ(d[l], 7u * l);
  for (int l = 16; l < 32; ++l) EXPECT_EQ(d[l], static_cast<uint32_t>(l - 100 * l));
}

// ---------------------------------------------------------------------------------------------
// Interpreter helpers
// ---------------------------------------------------------------------------------------------

struct Buffer {
  std::string name;
  std::vector<uint32_t> words;
};

struct RunResult {
  isa::GlobalMemory mem;
  isa::ExecCounts counts;
  std::vector<uint32_t> operator[](const std::string& name) const { return mem.words(name); }
};

// Assembles `text`, allocates the buffers (their base addresses become the first parameters,
// in order, followed by `scalars`) and runs the grid.
RunResult runKernel(const std::string& text, const std::vector<Buffer>& buffers, isa::Dim3 grid,
                    isa::Dim3 block, uint32_t warpSize = 32,
                    const std::vector<uint32_t>& scalars = {}) {
  isa::Kernel k = isa::assemble(text, "test.s");
  RunResult r;
  isa::LaunchConfig l;
  for (const auto& b : buffers) {
    l.params.push_back(r.mem.allocate(b.name, static_cast<uint32_t>(b.words.size() * 4)));
    r.mem.setWords(b.name, b.words);
  }
  l.params.insert(l.params.end(), scalars.begin(), scalars.end());
  l.grid = grid;
  l.block = block;
  l.warpSize = warpSize;
  r.counts = isa::Interpreter(k, r.mem).run(l);
  return r;
}

isa::Dim3 dim(uint32_t x, uint32_t y = 1, uint32_t z = 1) {
  isa::Dim3 d;
  d.x = x;
  d.y = y;
  d.z = z;
  return d;
}

// ---------------------------------------------------------------------------------------------
// Layer 2: every table row through an assembled kernel on the interpreter
// ---------------------------------------------------------------------------------------------

// Kernel computing r4 = op(r1, r2, r3) per lane, with r1..r3 loaded from A, B, C[tid] and r4
// stored to D[tid]. Atomics run on M[tid] (global) or shared[tid], whose new word goes to M.
// With `immediate`, the last source is `immText` instead of a register.
std::string laneKernel(Op op, bool immediate = false, const std::string& immText = "") {
  const std::string n(isa::info(op).name);
  std::string body;
  switch (isa::info(op).format) {
    case isa::Format::Unary:
      body = n + " r4, " + (immediate ? immText : "r1") + "\n";
      break;
    case isa::Format::Binary:
      body = n + " r4, r1, " + (immediate ? immText : "r2") + "\n";
      break;
    case isa::Format::Ternary:
      body = n + " r4, r1, r2, r3\n";
      break;
    case isa::Format::Select:
      body = "setp.ne.b32 p1, r3, 0\n" + n + " r4, r1, r2, p1\n";
      break;
    case isa::Format::Special:
      body = "mov.b32 r4, r1\n";  // s2r reads special registers: see SemanticsInterp.Specials
      break;
    case isa::Format::Compare:
      body = "mov.b32 r4, 0\n" + n + " p1, r1, " + (immediate ? immText : "r2") +
             "\n@p1 mov.b32 r4, 1\n";
      break;
    case isa::Format::PredBinary:
      body = "setp.ne.b32 p1, r1, 0\nsetp.ne.b32 p2, r2, 0\n" + n +
             " p3, p1, p2\nmov.b32 r4, 0\n@p3 mov.b32 r4, 1\n";
      break;
    case isa::Format::PredUnary:
      body = "setp.ne.b32 p1, r1, 0\n" + n + " p3, p1\nmov.b32 r4, 0\n@p3 mov.b32 r4, 1\n";
      break;
    case isa::Format::Atomic:
    case isa::Format::AtomicCas: {
      std::string extra = isa::info(op).format == isa::Format::AtomicCas ? ", r3" : "";
      if (isa::info(op).cls == isa::OpClass::AtomicGlobal) {
        body = "ld.param.b32 r7, [M]\nadd.u32 r7, r7, r0\nst.global.b32 [r7], r1\n" + n +
               " r4, [r7], r2" + extra + "\n";
      } else {
        body = "st.shared.b32 [r0+0], r1\n" + n + " r4, [r0], r2" + extra +
               "\nld.shared.b32 r8, [r0]\nld.param.b32 r7, [M]\nadd.u32 r7, r7, r0\n"
               "st.global.b32 [r7], r8\n";
      }
      break;
    }
    default:
      ADD_FAILURE() << "laneKernel: no lane kernel for " << n;
  }
  return ".kernel lane\n.regs 9\n.shared 128\n.param A\n.param B\n.param C\n.param D\n.param M\n"
         "  s2r r0, %tid.x\n  shl.b32 r0, r0, 2\n"
         "  ld.param.b32 r5, [A]; add.u32 r5, r5, r0; ld.global.b32 r1, [r5]\n"
         "  ld.param.b32 r5, [B]; add.u32 r5, r5, r0; ld.global.b32 r2, [r5]\n"
         "  ld.param.b32 r5, [C]; add.u32 r5, r5, r0; ld.global.b32 r3, [r5]\n"
         "  ld.param.b32 r6, [D]; add.u32 r6, r6, r0\n" +
         body + "  st.global.b32 [r6], r4\n  exit\n";
}

// Runs `cases` (all of one op) as lanes of one block; checks D (and M for atomics).
void runLaneCases(Op op, const std::vector<Case>& cases, bool immediate) {
  const isa::OpInfo& oi = isa::info(op);
  bool atomic = oi.format == isa::Format::Atomic || oi.format == isa::Format::AtomicCas;
  if (immediate) {
    // One single-thread launch per case: the immediate is part of the code.
    for (const Case& k : cases) {
      uint32_t immValue = oi.format == isa::Format::Unary ? k.a : k.b;
      std::string text = laneKernel(op, true, hex(immValue));
      RunResult r = runKernel(text, {{"A", {k.a}}, {"B", {k.b}}, {"C", {k.c}}, {"D", {0}}, {"M", {0}}},
                              dim(1), dim(1));
      uint32_t got = r["D"][0];
      EXPECT_TRUE(matches(k.want, got)) << describe(k) << " (immediate " << hex(immValue)
                                        << "), interpreter got " << hex(got);
    }
    return;
  }
  for (size_t first = 0; first < cases.size(); first += 32) {
    size_t n = std::min<size_t>(32, cases.size() - first);
    std::vector<uint32_t> A(n), B(n), C(n), Z(n, 0);
    for (size_t i = 0; i < n; ++i) {
      A[i] = cases[first + i].a;
      B[i] = cases[first + i].b;
      C[i] = cases[first + i].c;
    }
    RunResult r = runKernel(laneKernel(op), {{"A", A}, {"B", B}, {"C", C}, {"D", Z}, {"M", Z}},
                            dim(1), dim(static_cast<uint32_t>(n)));
    auto D = r["D"], M = r["M"];
    for (size_t i = 0; i < n; ++i) {
      const Case& k = cases[first + i];
      if (atomic) {
        EXPECT_EQ(D[i], k.a) << describe(k) << ": the destination must receive the old word";
        EXPECT_TRUE(matches(k.want, M[i])) << describe(k) << ", memory got " << hex(M[i]);
      } else {
        EXPECT_TRUE(matches(k.want, D[i])) << describe(k) << ", interpreter got " << hex(D[i]);
      }
    }
  }
}

std::vector<std::pair<Op, std::vector<Case>>> casesByOp() {
  std::vector<std::pair<Op, std::vector<Case>>> out;
  std::vector<Case> all = allCases();
  for (int i = 0; i < isa::kNumOps; ++i) {
    Op op = static_cast<Op>(i);
    std::vector<Case> mine;
    for (const Case& k : all)
      if (k.op == op) mine.push_back(k);
    if (!mine.empty()) out.emplace_back(op, std::move(mine));
  }
  return out;
}

TEST(SemanticsInterp, EveryTableRowThroughRegisters) {
  int ran = 0;
  for (auto& [op, cases] : casesByOp()) {
    if (isa::info(op).format == isa::Format::Special) continue;
    SCOPED_TRACE(std::string(isa::info(op).name));
    runLaneCases(op, cases, false);
    ++ran;
  }
  EXPECT_EQ(ran, static_cast<int>(casesByOp().size()) - 1);
  EXPECT_GT(ran, 80);
}

TEST(SemanticsInterp, EveryTableRowThroughHexImmediates) {
  int ran = 0;
  for (auto& [op, cases] : casesByOp()) {
    if (!isa::allowsImmediate(isa::info(op).format)) continue;
    SCOPED_TRACE(std::string(isa::info(op).name));
    runLaneCases(op, cases, true);
    ++ran;
  }
  EXPECT_GT(ran, 50);
}

// ---------------------------------------------------------------------------------------------
// Layer 3: hand-written kernels
// ---------------------------------------------------------------------------------------------

const char* const kFloatImmKernel = R"(
.kernel fimm
.param OUT
.const HALF 0.5
.const MINUS3 -3
  ld.param.b32 r0, [OUT]
  mov.b32 r1, 2.0              // float literal in b32 context: its bits
  add.f32 r2, r1, 1.5          // 3.5
  add.f32 r3, r1, 0x3f800000   // hex = raw bits (1.0): 3.0
  add.f32 r4, r1, 2            // decimal integer in f32 context converts: 2.0 + 2.0
  mul.f32 r5, r1, -0.25        // -0.5
  add.f32 r6, r1, inf
  add.f32 r7, r1, -inf
  mul.f32 r8, r1, nan
  mov.b32 r9, 1                // decimal in b32 context: the integer 1
  add.u32 r10, r1, 0x10        // integer add on the bits of 2.0
  add.f32 r11, r1, HALF        // .const symbol in f32 context: 2.5
  add.u32 r12, r9, MINUS3      // .const symbol in integer context: 1 - 3
  cvt.s32.f32 r13, -2.5        // unary immediate, f32 source: trunc(-2.5) = -2
  cvt.f32.s32 r14, -3          // unary immediate, s32 source: -3.0
  mov.b32 r15, 1e3             // 1000.0
  add.f32 r16, r1, 1.25e-1     // 2.125
  setp.lt.f32 p0, r1, 2.5      # compare immediate in f32 context
  mov.b32 r17, 0; @p0 mov.b32 r17, 1
  setp.gt.f32 p1, r1, 0x40000000   # 2.0 > 2.0 is false
  mov.b32 r18, 0; @p1 mov.b32 r18, 1
  add.f32 r19, r1, -0          // -0.0 in f32 context: 2.0 + -0.0
  mov.b32 r20, -0.0            // bits of -0.0
  add.f32 r21, r1, 16777217    // decimal converts with rounding: 16777216 + 2
  st.global.b32 [r0], r2;      st.global.b32 [r0+4], r3;   st.global.b32 [r0+8], r4
  st.global.b32 [r0+12], r5;   st.global.b32 [r0+16], r6;  st.global.b32 [r0+20], r7
  st.global.b32 [r0+24], r8;   st.global.b32 [r0+28], r9;  st.global.b32 [r0+32], r10
  st.global.b32 [r0+36], r11;  st.global.b32 [r0+40], r12; st.global.b32 [r0+44], r13
  st.global.b32 [r0+48], r14;  st.global.b32 [r0+52], r15; st.global.b32 [r0+56], r16
  st.global.b32 [r0+60], r17;  st.global.b32 [r0+64], r18; st.global.b32 [r0+68], r19
  st.global.b32 [r0+72], r20;  st.global.b32 [r0+76], r21
  exit
)";

TEST(SemanticsInterp, ImmediatesInFloatContext) {
  RunResult r = runKernel(kFloatImmKernel, {{"OUT", std::vector<uint32_t>(20, 0)}}, dim(1), dim(1));
  auto o = r["OUT"];
  EXPECT_EQ(o[0], f(3.5f));
  EXPECT_EQ(o[1], f(3.0f));
  EXPECT_EQ(o[2], f(4.0f));
  EXPECT_EQ(o[3], f(-0.5f));
  EXPECT_EQ(o[4], kInf);
  EXPECT_EQ(o[5], kNegInf);
  EXPECT_TRUE(std::isnan(isa::F(o[6])));
  EXPECT_EQ(o[7], 1u);
  EXPECT_EQ(o[8], 0x40000010u);
  EXPECT_EQ(o[9], f(2.5f));
  EXPECT_EQ(o[10], s(-2));
  EXPECT_EQ(o[11], s(-2));
  EXPECT_EQ(o[12], f(-3.0f));
  EXPECT_EQ(o[13], f(1000.0f));
  EXPECT_EQ(o[14], f(2.125f));
  EXPECT_EQ(o[15], 1u);
  EXPECT_EQ(o[16], 0u);
  EXPECT_EQ(o[17], f(2.0f));
  EXPECT_EQ(o[18], kNegZero);
  EXPECT_EQ(o[19], f(16777218.0f));
}

TEST(SemanticsInterp, FloatLiteralRejectedInIntegerContext) {
  EXPECT_THROW(isa::assemble(".kernel k\n add.u32 r1, r2, 1.5\n exit\n"), simtlm::InputError);
  EXPECT_THROW(isa::assemble(".kernel k\n shr.u32 r1, r2, inf\n exit\n"), simtlm::InputError);
  EXPECT_THROW(isa::assemble(".kernel k\n setp.lt.s32 p0, r2, 2.5\n exit\n"), simtlm::InputError);
  // b32 accepts float literals (their bits), like f32.
  EXPECT_EQ(isa::assemble(".kernel k\n and.b32 r1, r2, -0.0\n exit\n").instrs[0].imm, kNegZero);
}

const char* const kIntImmKernel = R"(
.kernel iimm
.param OUT
  ld.param.b32 r0, [OUT]
  mov.b32 r1, -8
  shr.s32 r2, r1, 33           // sign fill: -1
  shr.u32 r3, r1, 31           // 1
  shl.b32 r4, r1, 32           // 0
  div.s32 r5, r1, 0            // all ones
  rem.s32 r6, r1, 0            // -8
  div.u32 r7, r1, 0xffffffff   // 0xfffffff8 / 0xffffffff = 0
  mov.b32 r8, 0x80000000
  div.s32 r9, r8, -1           // INT_MIN
  rem.s32 r10, r8, -1          // 0
  mul.hi.s32 r11, r1, 3        // -24 >> 32 = -1
  mul.hi.u32 r12, r1, 3        // 0xfffffff8 * 3 >> 32 = 2
  setp.lt.s32 p0, r1, 1        // -8 < 1 signed: true
  setp.lt.u32 p1, r1, 1        // unsigned: false
  selp.b32 r13, r1, r8, p0     // -8
  selp.b32 r14, r1, r8, p1     // 0x80000000
  min.u32 r15, r1, 5           // 5
  min.s32 r16, r1, 5           // -8
  st.global.b32 [r0], r2;      st.global.b32 [r0+4], r3;   st.global.b32 [r0+8], r4
  st.global.b32 [r0+12], r5;   st.global.b32 [r0+16], r6;  st.global.b32 [r0+20], r7
  st.global.b32 [r0+24], r9;   st.global.b32 [r0+28], r10; st.global.b32 [r0+32], r11
  st.global.b32 [r0+36], r12;  st.global.b32 [r0+40], r13; st.global.b32 [r0+44], r14
  st.global.b32 [r0+48], r15;  st.global.b32 [r0+52], r16
  exit
)";

TEST(SemanticsInterp, IntegerEdgeCasesWithImmediates) {
  RunResult r = runKernel(kIntImmKernel, {{"OUT", std::vector<uint32_t>(14, 0)}}, dim(1), dim(1));
  auto o = r["OUT"];
  std::vector<uint32_t> want = {kAllOnes, 1, 0, kAllOnes, s(-8), 0, kIntMin, 0, kAllOnes, 2,
                                s(-8), kIntMin, 5, s(-8)};
  EXPECT_EQ(o, want);
}

// Predication (@p, @!p, @pt), predicate logic with per-lane predicates, divergence and
// reconvergence, selp from pt.
const char* const kPredicateKernel = R"(
.kernel preds
.regs 12
.param OUT
  s2r r0, %tid.x
  and.b32 r1, r0, 1
  setp.ne.b32 p1, r1, 0            // p1 = bit 0 of tid
  and.b32 r1, r0, 2
  setp.ne.b32 p2, r1, 0            // p2 = bit 1 of tid
  pand p3, p1, p2
  por p4, p1, p2
  pxor p5, p1, p2
  pnot p6, p1
  mov.b32 r2, 0
  @p3 or.b32 r2, r2, 1
  @p4 or.b32 r2, r2, 2
  @p5 or.b32 r2, r2, 4
  @p6 or.b32 r2, r2, 8
  @!p1 or.b32 r2, r2, 16
  @pt or.b32 r2, r2, 32
  pand p0, p1, pt                  // pt as a source
  @p0 or.b32 r2, r2, 64
  pnot p0, pt
  @p0 or.b32 r2, r2, 128           // never
  mov.b32 r3, 1; mov.b32 r4, 2
  selp.b32 r5, r3, r4, pt          // 1
  selp.b32 r6, r3, r4, p1          // 2 - bit0
  // divergence: odd lanes +100, even lanes +200, everybody + tid after the join
  mov.b32 r7, 0
  @p1 bra ODD
  add.u32 r7, r7, 200
  bra JOIN
ODD:
  add.u32 r7, r7, 100
JOIN:
  add.u32 r7, r7, r0
  nop
  shl.b32 r8, r0, 4                // 4 words per thread
  ld.param.b32 r9, [OUT]
  add.u32 r9, r9, r8
  st.global.b32 [r9], r2; st.global.b32 [r9+4], r5
  st.global.b32 [r9+8], r6; st.global.b32 [r9+12], r7
  exit
)";

TEST(SemanticsInterp, PredicationAndPredicateLogic) {
  RunResult r = runKernel(kPredicateKernel, {{"OUT", std::vector<uint32_t>(4 * 32, 0)}}, dim(1), dim(32));
  auto o = r["OUT"];
  for (uint32_t t = 0; t < 32; ++t) {
    bool p1 = t & 1, p2 = t & 2;
    uint32_t want = (p1 && p2 ? 1 : 0) | (p1 || p2 ? 2 : 0) | (p1 != p2 ? 4 : 0) | (!p1 ? 8 : 0) |
                    (!p1 ? 16 : 0) | 32 | (p1 ? 64 : 0);
    EXPECT_EQ(o[4 * t], want) << "tid " << t;
    EXPECT_EQ(o[4 * t + 1], 1u);
    EXPECT_EQ(o[4 * t + 2], p1 ? 1u : 2u);
    EXPECT_EQ(o[4 * t + 3], (p1 ? 100u : 200u) + t);
  }
  EXPECT_EQ(r.counts.divergentBranches, 1u);
}

// Global and shared loads and stores, [rA+off], [rA-off], [off] addressing, ld.param by name
// and by offset, bar.sync between two warps exchanging data through shared memory, membar.
const char* const kMemoryKernel = R"(
.kernel mem
.regs 10
.shared 264
.param IN
.param OUT
.param SCALE
  s2r r0, %tid.x                 // 0..63, two warps
  shl.b32 r1, r0, 2
  ld.param.b32 r2, [IN]
  add.u32 r2, r2, r1
  ld.global.b32 r3, [r2+4]       // IN[tid + 1]
  ld.global.b32 r4, [r2-0]       // IN[tid]
  add.u32 r3, r3, r4
  st.shared.b32 [r1+8], r3       // shared[tid + 2]
  setp.eq.b32 p0, r0, 0
  mov.b32 r7, 5
  @p0 st.shared.b32 [4], r7      // absolute shared address, read by everybody below
  membar
  bar.sync 0
  xor.b32 r5, r1, 128            // the partner thread in the other warp
  ld.shared.b32 r6, [r5+8]
  ld.shared.b32 r7, [4]          // 5, written by thread 0 before the barrier
  add.u32 r6, r6, r7
  ld.param.b32 r8, [8]           // SCALE by offset
  mul.lo.u32 r6, r6, r8
  bar.sync 1
  ld.param.b32 r9, [OUT]
  add.u32 r9, r9, r1
  st.global.b32 [r9], r6
  exit
)";

TEST(SemanticsInterp, MemoryAndBarrier) {
  std::vector<uint32_t> in(65);
  for (uint32_t i = 0; i < 65; ++i) in[i] = i * i;
  RunResult r = runKernel(kMemoryKernel, {{"IN", in}, {"OUT", std::vector<uint32_t>(64, 0)}},
                          dim(2), dim(64), 32, {3});
  auto o = r["OUT"];
  for (uint32_t t = 0; t < 64; ++t) {
    uint32_t p = t ^ 32;
    EXPECT_EQ(o[t], 3 * (in[p] + in[p + 1] + 5)) << "tid " << t;
  }
  EXPECT_EQ(r.counts.barriers, 4u);  // two barriers, two blocks
  EXPECT_EQ(r.counts.blocks, 2u);
}

// Atomics are performed lane by lane in lane order, and blocks run one after another.
const char* const kAtomicOrderKernel = R"(
.kernel atomics
.regs 12
.shared 16
.param CTR
.param OLD
  s2r r0, %tid.x
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  mad.lo.u32 r3, r1, r2, r0      // global thread id
  shl.b32 r4, r3, 2
  ld.param.b32 r5, [CTR]
  ld.param.b32 r6, [OLD]
  add.u32 r6, r6, r4             // OLD + 16 * gid, 4 words per thread
  add.u32 r6, r6, r4
  add.u32 r6, r6, r4
  add.u32 r6, r6, r4
  mov.b32 r7, 1
  atom.global.add.u32 r8, [r5], r7           // CTR[0]: counter
  st.global.b32 [r6], r8
  add.u32 r9, r3, 1
  atom.global.cas.b32 r8, [r5+4], r3, r9     // CTR[1]: lane l swaps l -> l+1
  st.global.b32 [r6+4], r8
  atom.global.exch.b32 r8, [r5+8], r3        // CTR[2]: last writer wins
  st.global.b32 [r6+8], r8
  mov.b32 r10, 0
  atom.shared.add.u32 r8, [r10], r7          // per block shared counter
  atom.shared.max.u32 r11, [r10+4], r3
  atom.shared.min.s32 r11, [r10+8], r3
  bar.sync
  ld.shared.b32 r11, [4]
  add.u32 r8, r8, r11            // shared counter old value + block's max gid
  st.global.b32 [r6+12], r8
  exit
)";

TEST(SemanticsInterp, AtomicsAreLaneOrdered) {
  const uint32_t threads = 64;  // 2 blocks of 32 threads, one warp each
  RunResult r = runKernel(kAtomicOrderKernel,
                          {{"CTR", {0, 0, 0xAAAA}}, {"OLD", std::vector<uint32_t>(4 * threads, 0)}},
                          dim(2), dim(32));
  auto ctr = r["CTR"], old = r["OLD"];
  EXPECT_EQ(ctr[0], threads);
  EXPECT_EQ(ctr[1], threads);       // the cas chain went all the way through
  EXPECT_EQ(ctr[2], threads - 1);   // last lane of the last block
  for (uint32_t g = 0; g < threads; ++g) {
    EXPECT_EQ(old[4 * g], g) << "add: lane order within a warp, block order across blocks";
    EXPECT_EQ(old[4 * g + 1], g) << "cas";
    EXPECT_EQ(old[4 * g + 2], g == 0 ? 0xAAAAu : g - 1) << "exch";
    uint32_t blockMax = (g / 32) * 32 + 31;
    EXPECT_EQ(old[4 * g + 3], g % 32 + blockMax) << "shared memory is per block and starts zeroed";
  }
}

// Shared atomics accept an absolute address [off] without a base register, like ld/st.shared.
const char* const kSharedAtomicAbsoluteKernel = R"(
.kernel satom
.shared 8
.param OUT
  s2r r0, %tid.x                 // r0 != 0: the address must not be taken from r0
  mov.b32 r1, 1
  atom.shared.add.u32 r2, [4], r1
  bar.sync 0
  ld.shared.b32 r3, [4]
  ld.param.b32 r4, [OUT]
  shl.b32 r5, r0, 3
  add.u32 r4, r4, r5
  st.global.b32 [r4], r2
  st.global.b32 [r4+4], r3
  exit
)";

TEST(SemanticsInterp, SharedAtomicAbsoluteAddress) {
  RunResult r = runKernel(kSharedAtomicAbsoluteKernel, {{"OUT", std::vector<uint32_t>(64, 0)}},
                          dim(1), dim(32));
  auto o = r["OUT"];
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(o[2 * t], t) << "old value, lane " << t;
    EXPECT_EQ(o[2 * t + 1], 32u) << "final counter, lane " << t;
  }
}

// Special registers in a 3D block and 2D grid with a small warp size.
const char* const kSpecialKernel = R"(
.kernel specials
.regs 20
.param OUT
  s2r r0, %tid.x;   s2r r1, %tid.y;   s2r r2, %tid.z
  s2r r3, %ntid.x;  s2r r4, %ntid.y;  s2r r5, %ntid.z
  s2r r6, %ctaid.x; s2r r7, %ctaid.y; s2r r8, %ctaid.z
  s2r r9, %nctaid.x; s2r r10, %nctaid.y; s2r r11, %nctaid.z
  s2r r12, %laneid; s2r r13, %warpid
  // linear thread id in the grid
  mad.lo.u32 r14, r2, r4, r1
  mad.lo.u32 r14, r14, r3, r0          // tid in block
  mul.lo.u32 r15, r3, r4
  mul.lo.u32 r15, r15, r5              // threads per block
  mad.lo.u32 r16, r7, r9, r6           // block id
  mad.lo.u32 r16, r16, r15, r14        // global id
  mul.lo.u32 r16, r16, 56              // 14 words per thread
  ld.param.b32 r17, [OUT]
  add.u32 r17, r17, r16
  st.global.b32 [r17], r0;     st.global.b32 [r17+4], r1;   st.global.b32 [r17+8], r2
  st.global.b32 [r17+12], r3;  st.global.b32 [r17+16], r4;  st.global.b32 [r17+20], r5
  st.global.b32 [r17+24], r6;  st.global.b32 [r17+28], r7;  st.global.b32 [r17+32], r8
  st.global.b32 [r17+36], r9;  st.global.b32 [r17+40], r10; st.global.b32 [r17+44], r11
  st.global.b32 [r17+48], r12; st.global.b32 [r17+52], r13
  exit
)";

TEST(SemanticsInterp, Specials) {
  const uint32_t bx = 3, by = 2, bz = 2, gx = 2, gy = 3, warp = 8;
  const uint32_t perBlock = bx * by * bz, total = perBlock * gx * gy;
  RunResult r = runKernel(kSpecialKernel, {{"OUT", std::vector<uint32_t>(14 * total, 0)}},
                          dim(gx, gy), dim(bx, by, bz), warp);
  auto o = r["OUT"];
  for (uint32_t cy = 0; cy < gy; ++cy)
    for (uint32_t cx = 0; cx < gx; ++cx)
      for (uint32_t t = 0; t < perBlock; ++t) {
        uint32_t g = (cy * gx + cx) * perBlock + t;
        std::vector<uint32_t> got(o.begin() + 14 * g, o.begin() + 14 * g + 14);
        std::vector<uint32_t> want = {t % bx, (t / bx) % by, t / (bx * by), bx, by, bz, cx, cy, 0,
                                      gx, gy, 1, t % warp, t / warp};
        EXPECT_EQ(got, want) << "block (" << cx << "," << cy << ") thread " << t;
      }
  EXPECT_EQ(r.counts.warps, gx * gy * ((perBlock + warp - 1) / warp));
}

// bar.sync rules: a diverged warp at bar.sync is an error, and so is a barrier that some warp of
// the block never reaches.
const char* const kDivergedBarrierKernel = R"(
.kernel divbar
  s2r r0, %tid.x
  setp.lt.u32 p0, r0, 4
  @p0 bra SKIP
  bar.sync 0
SKIP:
  exit
)";

const char* const kMissedBarrierKernel = R"(
.kernel missbar
  s2r r0, %warpid
  setp.eq.b32 p0, r0, 1
  @p0 exit                   // warp 1 leaves: warp 0 waits forever
  bar.sync 0
  exit
)";

TEST(SemanticsInterp, BarrierErrors) {
  EXPECT_THROW(runKernel(kDivergedBarrierKernel, {}, dim(1), dim(32)), simtlm::ExecError);
  EXPECT_THROW(runKernel(kMissedBarrierKernel, {}, dim(1), dim(64)), simtlm::ExecError);
  try {
    runKernel(kDivergedBarrierKernel, {}, dim(1), dim(32));
  } catch (const simtlm::ExecError& e) {
    EXPECT_NE(std::string(e.what()).find("diverged"), std::string::npos) << e.what();
  }
  try {
    runKernel(kMissedBarrierKernel, {}, dim(1), dim(64));
  } catch (const simtlm::ExecError& e) {
    EXPECT_NE(std::string(e.what()).find("deadlock"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// isa/ISA.md: its examples assemble and run, and its opcode tables list every opcode
// ---------------------------------------------------------------------------------------------

std::string readFile(const std::string& path) {
  std::FILE* fp = std::fopen(path.c_str(), "rb");
  if (!fp) return "";
  std::string s;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, fp)) > 0) s.append(buf, n);
  std::fclose(fp);
  return s;
}

// The ```asm blocks of ISA.md that define a kernel.
std::vector<std::string> docKernels() {
  std::string doc = readFile(std::string(SIMTLM_SOURCE_DIR) + "/isa/ISA.md");
  std::vector<std::string> out;
  size_t pos = 0;
  while ((pos = doc.find("```asm\n", pos)) != std::string::npos) {
    size_t start = pos + 7;
    size_t end = doc.find("```", start);
    if (end == std::string::npos) break;
    std::string block = doc.substr(start, end - start);
    if (block.find(".kernel") != std::string::npos) out.push_back(block);
    pos = end + 3;
  }
  return out;
}

std::string docKernel(const std::string& name) {
  for (const std::string& k : docKernels())
    if (k.find(".kernel " + name + "\n") != std::string::npos) return k;
  ADD_FAILURE() << "ISA.md has no example kernel '" << name << "'";
  return "";
}

TEST(SemanticsDoc, ExamplesAssemble) {
  std::vector<std::string> kernels = docKernels();
  EXPECT_GE(kernels.size(), 5u);
  for (const std::string& k : kernels) EXPECT_NO_THROW(isa::assemble(k, "ISA.md")) << k;
}

TEST(SemanticsDoc, VecAddExampleIsTheWorkloadKernel) {
  isa::Kernel doc = isa::assemble(docKernel("vecadd"), "ISA.md");
  isa::Kernel file = isa::assembleFile(std::string(SIMTLM_SOURCE_DIR) + "/workloads/kernels/vecadd.s");
  EXPECT_EQ(doc.code, file.code);
  EXPECT_EQ(doc.params.size(), file.params.size());
  EXPECT_EQ(doc.numRegs, file.numRegs);
}

TEST(SemanticsDoc, BlockSumAndHistogramExamplesRun) {
  std::vector<uint32_t> in(3 * 256);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = i * 7 + 1;
  RunResult r = runKernel(docKernel("blocksum"), {{"IN", in}, {"OUT", {0, 0, 0}}}, dim(3), dim(256));
  auto out = r["OUT"];
  for (uint32_t b = 0; b < 3; ++b) {
    uint32_t sum = 0;
    for (uint32_t i = 0; i < 256; ++i) sum += in[b * 256 + i];
    EXPECT_EQ(out[b], sum) << "block " << b;
  }
  const uint32_t n = 1000;
  std::vector<uint32_t> data(n), want(16, 0);
  for (uint32_t i = 0; i < n; ++i) {
    data[i] = i * 2654435761u;
    want[data[i] & 15]++;
  }
  RunResult h = runKernel(docKernel("histogram"), {{"IN", data}, {"BINS", std::vector<uint32_t>(16, 0)}},
                          dim(4), dim(256), 32, {n});
  EXPECT_EQ(h["BINS"], want);
}

TEST(SemanticsDoc, OpcodeTablesListEveryOpcode) {
  std::string doc = readFile(std::string(SIMTLM_SOURCE_DIR) + "/isa/ISA.md");
  ASSERT_FALSE(doc.empty());
  for (int i = 0; i < isa::kNumOps; ++i) {
    char row[64];
    std::snprintf(row, sizeof row, "| 0x%02x | `%s` |", i,
                  std::string(isa::info(static_cast<Op>(i)).name).c_str());
    EXPECT_NE(doc.find(row), std::string::npos) << "ISA.md lacks the row " << row;
  }
}

// ---------------------------------------------------------------------------------------------
// Coverage: every opcode of the table has a test
// ---------------------------------------------------------------------------------------------

bool hasLaneExpression(isa::Format fmt) {
  switch (fmt) {
    case isa::Format::Load: case isa::Format::Store: case isa::Format::Branch:
    case isa::Format::Barrier: case isa::Format::NoOperands:
      return false;
    default:
      return true;
  }
}

TEST(SemanticsCoverage, EveryOpcodeIsTested) {
  // Ops with a lane expression need rows in the tables (which also run on the interpreter);
  // all others must appear in a hand-written kernel above.
  std::set<Op> inTables;
  for (const Case& k : allCases()) inTables.insert(k.op);
  std::set<Op> inKernels;
  for (const char* text : {kFloatImmKernel, kIntImmKernel, kPredicateKernel, kMemoryKernel,
                           kAtomicOrderKernel, kSpecialKernel, kDivergedBarrierKernel,
                           kMissedBarrierKernel}) {
    isa::Kernel k = isa::assemble(text);
    for (const auto& in : k.instrs) inKernels.insert(in.op);
  }
  for (int i = 0; i < isa::kNumOps; ++i) {
    Op op = static_cast<Op>(i);
    const isa::OpInfo& oi = isa::info(op);
    if (hasLaneExpression(oi.format)) {
      EXPECT_TRUE(inTables.count(op)) << oi.name << " has no rows in the semantics tables";
    } else {
      EXPECT_TRUE(inKernels.count(op)) << oi.name << " appears in no interpreter test kernel";
    }
  }
  EXPECT_TRUE(inKernels.count(Op::S2R));
}

}  // namespace
