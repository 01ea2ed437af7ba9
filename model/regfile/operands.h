// The register operands an instruction reads from and writes to the vector register file.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>

#include "isa/instruction.h"
#include "isa/opcode.h"
#include "isa/liveness.h"
#include "model/regfile/register_map.h"
#include "model/regfile/types.h"

namespace simtlm::regfile {

inline constexpr int kMaxSources = 4;  // the ISA reads at most 3 vector registers

// The distinct physical registers one instruction reads (a register named twice is read once).
struct Sources {
  std::array<PhysReg, kMaxSources> reg{};
  uint8_t count = 0;

  Sources() = default;
  Sources(std::initializer_list<PhysReg> regs) {
    for (PhysReg p : regs) add(p);
  }
  bool contains(PhysReg p) const {
    for (int i = 0; i < count; ++i)
      if (reg[i] == p) return true;
    return false;
  }
  void add(PhysReg p);  // ignores a duplicate; throws std::length_error past kMaxSources
  void remove(PhysReg p) {  // (order kept: the collector reads in order)
    for (int i = 0; i < count; ++i)
      if (reg[i] == p) {
        for (int j = i + 1; j < count; ++j) reg[j - 1] = reg[j];
        --count;
        return;
      }
  }
  const PhysReg* begin() const { return reg.data(); }
  const PhysReg* end() const { return reg.data() + count; }
};

// Per opcode, which of an instruction's register fields are vector-register reads and what it
// writes: a table derived once from isa::operandReadsOf and isa::writesOf (operands.cpp), so that
// the SM's look-ups below are a few inline instructions each (it asks for every instruction at
// issue, at dispatch, at write-back and at release).
namespace detail {
enum class Read : uint8_t { Never, Always, UnlessImm, IfBase };
struct OpOperands {
  Read a = Read::Never, b = Read::Never, c = Read::Never;
  bool writesGpr = false, writesPred = false, memory = false;
};
extern const std::array<OpOperands, isa::kNumOps> kOpOperands;
inline const OpOperands& operandsOf(isa::Op op) { return kOpOperands[static_cast<size_t>(op)]; }
inline uint64_t readBit(Read rule, uint8_t r, const isa::Instr& in) {
  const bool reads = rule == Read::Always || (rule == Read::UnlessImm && !in.hasImm) ||
                     (rule == Read::IfBase && in.hasBase);
  return reads && r < isa::kMaxRegs ? uint64_t{1} << r : 0;
}
}  // namespace detail

// The registers an instruction writes: isa::writesOf (rD, or pD; the always-true predicate is
// never tracked).
inline isa::RegSet writtenRegs(const isa::Instr& in) {
  const detail::OpOperands& t = detail::operandsOf(in.op);
  isa::RegSet s;
  if (t.writesGpr && in.d < isa::kMaxRegs) s.gpr = uint64_t{1} << in.d;
  if (t.writesPred && in.d < isa::kNumPreds) s.pred = static_cast<uint8_t>(1u << in.d);
  return s;
}
// Loads, stores and atomics (isa::isMemory of the opcode's format).
inline bool accessesMemory(isa::Op op) { return detail::operandsOf(op).memory; }

// Bit r set: named vector register r is read from the register file: register sources and the
// memory base (isa::operandReadsOf), but not predicates (a separate file) and not the
// destination of a guarded write (isa::usesOf counts it as live, but lanes with a false guard
// just do not write).
inline uint64_t sourceGprs(const isa::Instr& in) {
  const detail::OpOperands& t = detail::operandsOf(in.op);
  return detail::readBit(t.a, in.a, in) | detail::readBit(t.b, in.b, in) | detail::readBit(t.c, in.c, in);
}
// The vector register written, if any (isa::writesOf; predicate destinations are not here).
inline std::optional<uint8_t> destGpr(const isa::Instr& in) {
  if (!detail::operandsOf(in.op).writesGpr || in.d >= isa::kMaxRegs) return std::nullopt;
  return in.d;
}

// The same, mapped to the warp's physical registers.
Sources physSources(const RegisterMap& map, uint32_t warp, const isa::Instr& in);
std::optional<PhysReg> physDest(const RegisterMap& map, uint32_t warp, const isa::Instr& in);

}  // namespace simtlm::regfile
