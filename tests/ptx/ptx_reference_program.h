// The reference PTX evaluator's decoded program (tests only; ptx_reference.h): the types,
// operations and operands decode (ptx_reference_decode.cpp) makes of a PTX entry and the
// threads (ptx_reference.cpp) run. Written from the PTX ISA specification, apart from the
// front end under test (isa/ptx/, isa/semantics.h), on purpose.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "isa/launch.h"
#include "isa/ptx/ptx_module.h"

namespace simtlm::test::ptxref {

using isa::ptx::Entry;
using isa::ptx::Module;
using isa::ptx::Operand;
using isa::ptx::Space;
using isa::ptx::Statement;


// ---------------------------------------------------------------------------------------------
// Types and helpers
// ---------------------------------------------------------------------------------------------

enum class Kind : uint8_t { None, U, S, B, F, Pred };
struct Type {
  Kind kind = Kind::None;
  int bits = 0;
  bool isInt() const { return kind == Kind::U || kind == Kind::S || kind == Kind::B; }
};

inline bool parseTypeName(const std::string& m, Type& t) {
  if (m == "pred") {
    t = {Kind::Pred, 1};
    return true;
  }
  if (m.size() < 2) return false;
  Kind k;
  switch (m[0]) {
    case 'u': k = Kind::U; break;
    case 's': k = Kind::S; break;
    case 'b': k = Kind::B; break;
    case 'f': k = Kind::F; break;
    default: return false;
  }
  const std::string n = m.substr(1);
  if (n != "8" && n != "16" && n != "32" && n != "64") return false;
  t = {k, std::stoi(n)};
  return true;
}

inline uint64_t maskOf(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
inline int64_t sext(uint64_t v, int bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  const int sh = 64 - bits;
  return static_cast<int64_t>(v << sh) >> sh;
}
inline float asFloat(uint64_t v) {
  const uint32_t w = static_cast<uint32_t>(v);
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}
inline uint32_t bitsOf(float f) {
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}
// The bits of an f32 arithmetic result: a NaN is PTX's canonical NaN.
inline uint32_t fpResult(float f) { return std::isnan(f) ? 0x7fffffffu : bitsOf(f); }

// ---------------------------------------------------------------------------------------------
// Decoded program
// ---------------------------------------------------------------------------------------------

enum class Op : uint8_t {
  Add, Sub, MulLo, MulHi, MulWide, MadLo, MadHi, MadWide, Div, Rem, Min, Max, Abs, Neg,
  And, Or, Xor, Not, Shl, Shr, Popc, Clz, Brev, Bfe, Bfi,
  FAdd, FSub, FMul, FFma, FDiv, FMin, FMax, FAbs, FNeg, FSqrt, FRcp,
  PAnd, POr, PXor, PNot, PMov,
  Setp, Selp, Mov, Cvt, CvtaGlobal, Ld, St, Bra, Ret, Nop,
};

enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };
enum class BoolOp : uint8_t { None, And, Or, Xor };
enum class Rnd : uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi };
enum class Mem : uint8_t { Global, Local, Param, Const };

enum Special : uint8_t { TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ, LaneId, kNumSpecials };

struct Src {
  enum class K : uint8_t { Reg, Imm, Special, Addr, Sink, Vec } k = K::Imm;
  int reg = -1;         // Reg; Addr: the base register or -1
  bool neg = false;     // !%p
  uint64_t imm = 0;     // Imm (also resolved symbol addresses); Addr: the offset, symbol included
  int special = 0;      // Special
  int param = -1;       // Addr of a parameter
  std::vector<Src> elems;  // Vec
};

struct Instr {
  Op op = Op::Nop;
  Type t;            // the instruction type (cvt: destination; mul/mad.wide: the source type)
  Type t2;           // cvt: source type
  Cmp cmp = Cmp::Eq;
  BoolOp bop = BoolOp::None;
  Rnd rnd = Rnd::None;
  Mem space = Mem::Global;
  int vec = 1;
  int guard = -1;
  bool guardNeg = false;
  std::vector<Src> o;
  bool hasQ = false;
  Src q;
  int target = -1;
  int line = 0;
};

struct Program {
  std::vector<Instr> code;
  std::vector<int> regWidth;   // per register: 1 (pred), 8, 16, 32, 64
  std::vector<bool> regIsPred;
  uint32_t localBytes = 0;
};

// Decodes `e` into a Program; throws std::runtime_error for anything outside the subset.
Program decode(const Module& m, const Entry& e, const isa::LaunchConfig& launch);

}  // namespace simtlm::test::ptxref
