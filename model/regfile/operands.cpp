#include "model/regfile/operands.h"

#include <array>
#include <stdexcept>

#include "isa/liveness.h"

namespace simtlm::regfile {

namespace {

struct OpTraits {
  bool writesGpr = false, writesPred = false, memory = false;
};

// isa::info's table is constant-initialised, so this one can be built during static
// initialisation (no guard on every look-up, as a function-local static would have).
const std::array<OpTraits, isa::kNumOps> kTraits = [] {
  std::array<OpTraits, isa::kNumOps> t{};
  for (int i = 0; i < isa::kNumOps; ++i) {
    const isa::Format f = isa::info(static_cast<isa::Op>(i)).format;
    t[static_cast<size_t>(i)] = {isa::writesGpr(f), isa::writesPred(f), isa::isMemory(f)};
  }
  return t;
}();

const OpTraits& traits(isa::Op op) {
  return kTraits[static_cast<size_t>(op)];
}

}  // namespace

isa::RegSet writtenRegs(const isa::Instr& in) {
  const OpTraits& t = traits(in.op);
  isa::RegSet s;  // as isa::writesOf: rD, or pD (the always-true predicate is never tracked)
  if (t.writesGpr && in.d < isa::kMaxRegs) s.gpr = uint64_t{1} << in.d;
  if (t.writesPred && in.d < isa::kNumPreds) s.pred = static_cast<uint8_t>(1u << in.d);
  return s;
}

bool accessesMemory(isa::Op op) {
  return traits(op).memory;
}

void Sources::add(PhysReg p) {
  if (contains(p)) return;
  if (count == kMaxSources) throw std::length_error("operand collector: more than 4 sources");
  reg[count++] = p;
}

uint64_t sourceGprs(const isa::Instr& in) {
  return isa::operandReadsOf(in).gpr;
}

std::optional<uint8_t> destGpr(const isa::Instr& in) {
  if (writtenRegs(in).gpr == 0) return std::nullopt;
  return in.d;
}

Sources physSources(const RegisterMap& map, uint32_t warp, const isa::Instr& in) {
  Sources s;
  const uint64_t gprs = sourceGprs(in);
  if (gprs == 0) return s;
  // The warp's range once; named registers are distinct bits, so their physical registers are
  // distinct and need no duplicate check.
  const uint32_t base = map.base(warp), length = map.length(warp);
  for (uint64_t bits = gprs; bits != 0; bits &= bits - 1) {
    const auto r = static_cast<uint32_t>(__builtin_ctzll(bits));
    if (r >= length || s.count == kMaxSources) {
      s.add(map.phys(warp, r));  // throws out_of_range past the range, length_error past 4
      continue;
    }
    s.reg[s.count++] = PhysReg{base + r};
  }
  return s;
}

std::optional<PhysReg> physDest(const RegisterMap& map, uint32_t warp, const isa::Instr& in) {
  std::optional<uint8_t> d = destGpr(in);
  if (!d) return std::nullopt;
  return map.phys(warp, *d);
}

}  // namespace simtlm::regfile
