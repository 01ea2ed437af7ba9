// One decoded instruction and its 64-bit encoding.
//
// Encoding (bit ranges inclusive, little end first):
//   [7:0]   opcode (row index in opcodes.def)
//   [10:8]  guard predicate p0..p6, 7 = pt (always)      [11]    guard negated
//   [13:12] DARSIE hint (Redundancy)                      [15:14] BOW write-back hint (BowHint)
//   [16]    last source is a 32-bit immediate held in [63:32]
//   [22:17] rD (or pD)                                    [28:23] rA (or pA, base, special id)
//   [29]    memory operand has a base register            [31:30] reserved, zero
//   when [16] is clear:  [37:32] rB   [43:38] rC   [63:44] signed 20-bit memory offset
#pragma once

#include <cstdint>

#include "isa/opcode.h"

namespace simtlm::isa {

inline constexpr int kMaxRegs = 64;
inline constexpr int kNumPreds = 7;  // p0..p6
inline constexpr uint8_t kPredTrue = 7;
inline constexpr int32_t kMinOffset = -(1 << 19);
inline constexpr int32_t kMaxOffset = (1 << 19) - 1;

// DARSIE's compiler marking (Sec. 4.2): vector, conditionally redundant, definitely redundant.
enum class Redundancy : uint8_t { Vector = 0, Conditional = 1, Definite = 2 };
// BOW's write-back destination hint (Sec. IV-B). None = no hint: hardware's default.
enum class BowHint : uint8_t { None = 0, RegisterFile = 1, Bypass = 2, Both = 3 };

enum class Special : uint8_t {
  TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ,
  LaneId, WarpId, Count_
};
inline constexpr int kNumSpecials = static_cast<int>(Special::Count_);
const char* specialName(Special s);  // "tid.x", without the '%'

struct Instr {
  Op op = Op::NOP;
  uint8_t guard = kPredTrue;
  bool guardNeg = false;
  Redundancy darsie = Redundancy::Vector;
  BowHint bow = BowHint::None;
  bool hasImm = false;
  bool hasBase = false;
  uint8_t d = 0, a = 0, b = 0, c = 0;
  int32_t off = 0;   // memory offset (bytes)
  uint32_t imm = 0;  // immediate, branch target (byte offset in kernel) or barrier id

  bool operator==(const Instr& o) const;
};

uint64_t encode(const Instr& in);
// Decodes a word; returns false for an opcode outside the table or reserved bits set.
bool decode(uint64_t word, Instr& out);

}  // namespace simtlm::isa
