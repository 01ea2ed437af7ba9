#include "model/regfile/operands.h"

#include <stdexcept>

#include "isa/liveness.h"

namespace simtlm::regfile {

void Sources::add(PhysReg p) {
  if (contains(p)) return;
  if (count == kMaxSources) throw std::length_error("operand collector: more than 4 sources");
  reg[count++] = p;
}

uint64_t sourceGprs(const isa::Instr& in) {
  isa::Instr unguarded = in;
  unguarded.guard = isa::kPredTrue;
  unguarded.guardNeg = false;
  return isa::usesOf(unguarded).gpr;
}

std::optional<uint8_t> destGpr(const isa::Instr& in) {
  if (isa::writesOf(in).gpr == 0) return std::nullopt;
  return in.d;
}

Sources physSources(const RegisterMap& map, uint32_t warp, const isa::Instr& in) {
  Sources s;
  for (uint64_t bits = sourceGprs(in); bits != 0; bits &= bits - 1)
    s.add(map.phys(warp, static_cast<uint32_t>(__builtin_ctzll(bits))));
  return s;
}

std::optional<PhysReg> physDest(const RegisterMap& map, uint32_t warp, const isa::Instr& in) {
  std::optional<uint8_t> d = destGpr(in);
  if (!d) return std::nullopt;
  return map.phys(warp, *d);
}

}  // namespace simtlm::regfile
