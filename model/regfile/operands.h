// The register operands an instruction reads from and writes to the vector register file.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>

#include "isa/instruction.h"
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
  const PhysReg* begin() const { return reg.data(); }
  const PhysReg* end() const { return reg.data() + count; }
};

// The registers an instruction writes: isa::writesOf, with the opcode's properties looked up in
// a table built once from isa::info (the SM asks for every instruction it issues, writes back
// and retires, and isa::writesOf goes through three calls).
isa::RegSet writtenRegs(const isa::Instr& in);
// Loads, stores and atomics (isa::isMemory of the opcode's format), from the same table.
bool accessesMemory(isa::Op op);

// Bit r set: named vector register r is read from the register file: register sources and the
// memory base (isa::usesOf), but not predicates (a separate file) and not the destination of a
// guarded write (isa::usesOf counts it as live, but lanes with a false guard just do not write).
uint64_t sourceGprs(const isa::Instr& in);
// The vector register written, if any (isa::writesOf; predicate destinations are not here).
std::optional<uint8_t> destGpr(const isa::Instr& in);

// The same, mapped to the warp's physical registers.
Sources physSources(const RegisterMap& map, uint32_t warp, const isa::Instr& in);
std::optional<PhysReg> physDest(const RegisterMap& map, uint32_t warp, const isa::Instr& in);

}  // namespace simtlm::regfile
