// Opcodes and their static properties, generated from opcodes.def.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace simtlm::isa {

// Operand signature of an opcode. Assembly syntax per format (brackets = optional immediate):
enum class Format : uint8_t {
  Unary,       // op rD, rA|imm
  Binary,      // op rD, rA, rB|imm
  Ternary,     // op rD, rA, rB, rC
  Select,      // op rD, rA, rB, pC
  Special,     // op rD, %special
  Compare,     // op pD, rA, rB|imm
  PredBinary,  // op pD, pA, pB
  PredUnary,   // op pD, pA
  Load,        // op rD, [rA+off] | [off]
  Store,       // op [rA+off] | [off], rB
  Atomic,      // op rD, [rA+off], rB
  AtomicCas,   // op rD, [rA+off], rB, rC
  Branch,      // op label
  Barrier,     // op imm (barrier id 0..15)
  NoOperands,  // op
};

// What an instruction counts as in statistics (warp and thread instruction counts).
enum class OpClass : uint8_t {
  Int, IntMul, IntDiv, Fp, FpDiv, Sfu, Convert, Move, Compare, Predicate,
  LoadGlobal, LoadShared, LoadParam, StoreGlobal, StoreShared, AtomicGlobal, AtomicShared,
  Control, Barrier, Fence, Exit, Nop,
  Count_
};
inline constexpr int kNumOpClasses = static_cast<int>(OpClass::Count_);

// Execution unit in the timing model.
enum class Unit : uint8_t { Sp, Sfu, LdSt, Ctrl };

enum class Op : uint8_t {
#define OP(id, name, fmt, cls, unit, expr) id,
#include "opcodes.def"
#undef OP
  Count_
};
inline constexpr int kNumOps = static_cast<int>(Op::Count_);

struct OpInfo {
  Op op;
  std::string_view name;
  Format format;
  OpClass cls;
  Unit unit;
};

// The opcode table (isa/opcodes.def), in the header so that info() inlines: the timing model
// asks for every instruction it fetches, issues and dispatches.
inline constexpr std::array<OpInfo, kNumOps> kOpTable = {{
#define OP(id, name, fmt, cls, unit, expr) {Op::id, name, Format::fmt, OpClass::cls, Unit::unit},
#include "isa/opcodes.def"
#undef OP
}};
inline const OpInfo& info(Op op) { return kOpTable[static_cast<size_t>(op)]; }
// ld.local / st.local: the address is an offset in the thread's local space.
inline bool isLocal(Op op) { return op == Op::LD_LOCAL || op == Op::ST_LOCAL; }
// The cache a global load goes through in the timing model: the L1 data cache as configured
// (l1.enabled), the L1 always (read-only data: GPGPU-Sim caches .nc loads in the L1 even with
// -gpgpu_gmem_skip_L1D 1), or the constant cache.
enum class LoadPath : uint8_t { Data, ReadOnly, Constant };
inline LoadPath loadPath(Op op) {
  return op == Op::LD_GLOBAL_NC ? LoadPath::ReadOnly
         : op == Op::LD_CONST   ? LoadPath::Constant
                                : LoadPath::Data;
}
std::optional<Op> opByName(std::string_view name);
std::string_view className(OpClass c);

// Format properties used by the assembler, interpreter and analyses.
bool writesGpr(Format f);        // has a general-register destination rD
bool writesPred(Format f);       // has a predicate destination pD
bool isMemory(Format f);
bool allowsImmediate(Format f);  // the last source may be an immediate
int numGprSources(Format f);     // general-register sources (excluding memory base)

}  // namespace simtlm::isa
