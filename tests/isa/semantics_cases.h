// Semantics of every opcode of isa/opcodes.def, asserted exactly, in the semantics_*_test.cpp
// files. Three layers:
//   1. tables of (op, a, b, c) -> expected result, checked through isa::evalLane and through the
//      warp-wide isa::warpAlu (masked lanes, broadcast sources);
//   2. every table row again through an assembled kernel on the functional interpreter, once
//      with register sources and once with the last source as a hex immediate;
//   3. hand-written kernels for what has no lane expression (memory, atomics ordering, branches,
//      barriers, special registers) and for the assembler's immediate syntax in f32 context.
//
// This header holds what the layers share: the values, the Case row, the table and kernel
// declarations. Each table and kernel is defined next to the test that checks it;
// SemanticsCoverage.EveryOpcodeIsTested reads them all through allCases() and
// coverageKernels() and fails when an opcode has no test. A new table or kernel must be listed
// there, or its opcodes do not count as tested.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "isa/opcode.h"
#include "isa/semantics.h"

namespace simtlm::test {

using isa::Op;

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

inline uint32_t f(float x) { return isa::U(x); }
inline constexpr uint32_t kInf = 0x7F800000u;
inline constexpr uint32_t kNegInf = 0xFF800000u;
inline constexpr uint32_t kNaN = 0x7FC00000u;     // a quiet NaN
inline constexpr uint32_t kNegNaN = 0xFFC00000u;  // a quiet NaN with the sign bit set
inline constexpr uint32_t kSNaN = 0x7F800001u;    // a signalling NaN
inline constexpr uint32_t kCanonNaN = 0x7FFFFFFFu;
inline constexpr uint32_t kPosZero = 0x00000000u;
inline constexpr uint32_t kNegZero = 0x80000000u;
inline constexpr uint32_t kFltMax = 0x7F7FFFFFu;
inline constexpr uint32_t kFltMin = 0x00800000u;  // smallest normal
inline constexpr uint32_t kDenormMin = 0x00000001u;
inline constexpr uint32_t kIntMin = 0x80000000u;
inline constexpr uint32_t kIntMax = 0x7FFFFFFFu;
inline constexpr uint32_t kAllOnes = 0xFFFFFFFFu;
inline uint32_t s(int32_t x) { return static_cast<uint32_t>(x); }

// Arithmetic producing a NaN: the ISA fixes that the result is a NaN, not which one.
inline constexpr uint64_t kAnyNaN = 1ull << 32;

struct Case {
  Op op;
  uint32_t a, b, c;
  uint64_t want;  // a 32-bit result, or kAnyNaN
};

// Eight hex digits: "0x0000002a".
inline std::string hexWord(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

inline std::string describe(const Case& k) {
  return std::string(isa::info(k.op).name) + "(" + hexWord(k.a) + ", " + hexWord(k.b) + ", " +
         hexWord(k.c) + ") expected " +
         (k.want == kAnyNaN ? std::string("NaN") : hexWord(static_cast<uint32_t>(k.want)));
}

inline bool matches(uint64_t want, uint32_t got) {
  if (want == kAnyNaN) return std::isnan(isa::F(got));
  return got == static_cast<uint32_t>(want);
}

// ---------------------------------------------------------------------------------------------
// Tables, one per group of opcodes.def
// ---------------------------------------------------------------------------------------------

std::vector<Case> intArithCases();    // semantics_int_test.cpp
std::vector<Case> divRemCases();      // semantics_int_test.cpp
std::vector<Case> logicShiftCases();  // semantics_int_test.cpp
std::vector<Case> fpArithCases();     // semantics_fp_test.cpp
std::vector<Case> sfuCases();         // semantics_sfu_convert_test.cpp
std::vector<Case> convertCases();     // semantics_sfu_convert_test.cpp
std::vector<Case> moveCases();        // semantics_compare_test.cpp
std::vector<Case> compareCases();     // semantics_compare_test.cpp
std::vector<Case> predicateCases();   // semantics_compare_test.cpp
// Atomics: a = the old memory word, b = the operand, c = the swap value (cas); the expected
// value is the new memory word (the destination register receives the old word a).
std::vector<Case> atomicCases();      // semantics_atomic_test.cpp
std::vector<Case> bitCases();         // semantics_bits_test.cpp
std::vector<Case> roundingCases();    // semantics_bits_test.cpp
std::vector<Case> ftzCases();         // semantics_bits_test.cpp

inline std::vector<Case> allCases() {
  std::vector<Case> all;
  for (auto table : {intArithCases, divRemCases, logicShiftCases, fpArithCases, sfuCases,
                     convertCases, moveCases, compareCases, predicateCases, atomicCases, bitCases,
                     roundingCases, ftzCases}) {
    auto t = table();
    all.insert(all.end(), t.begin(), t.end());
  }
  return all;
}

// Layer 1: every row through evalLane.
inline void checkTable(const std::vector<Case>& table) {
  ASSERT_FALSE(table.empty());
  for (const Case& k : table) {
    uint32_t got = isa::evalLane(k.op, k.a, k.b, k.c);
    EXPECT_TRUE(matches(k.want, got)) << describe(k) << ", got " << hexWord(got);
  }
}

// ---------------------------------------------------------------------------------------------
// Hand-written kernels (layer 3) that the coverage test counts
// ---------------------------------------------------------------------------------------------

extern const char* const kFloatImmKernel;         // semantics_interp_test.cpp
extern const char* const kIntImmKernel;           // semantics_interp_test.cpp
extern const char* const kPredicateKernel;        // semantics_kernels_test.cpp
extern const char* const kMemoryKernel;           // semantics_kernels_test.cpp
extern const char* const kLocalKernel;            // semantics_kernels_test.cpp
extern const char* const kSpecialKernel;          // semantics_kernels_test.cpp
extern const char* const kDivergedBarrierKernel;  // semantics_kernels_test.cpp
extern const char* const kMissedBarrierKernel;    // semantics_kernels_test.cpp
extern const char* const kAtomicOrderKernel;      // semantics_atomic_test.cpp

inline std::vector<const char*> coverageKernels() {
  return {kFloatImmKernel,    kIntImmKernel,      kPredicateKernel,       kMemoryKernel,
          kAtomicOrderKernel, kSpecialKernel,     kDivergedBarrierKernel, kMissedBarrierKernel,
          kLocalKernel};
}

}  // namespace simtlm::test
