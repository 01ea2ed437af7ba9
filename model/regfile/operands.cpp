#include "model/regfile/operands.h"

#include <array>
#include <stdexcept>
#include <string>

#include "isa/liveness.h"

namespace simtlm::regfile {

namespace detail {

namespace {

// What isa::operandReadsOf says of field `field` (0 a, 1 b, 2 c) of `op`, probed with the four
// combinations of hasImm and hasBase and distinct register numbers in every field.
Read probeRead(isa::Op op, int field) {
  bool reads[2][2];
  for (int imm = 0; imm < 2; ++imm)
    for (int base = 0; base < 2; ++base) {
      isa::Instr in;
      in.op = op;
      in.d = 4, in.a = 1, in.b = 2, in.c = 3;
      in.hasImm = imm != 0;
      in.hasBase = base != 0;
      const uint64_t gpr = isa::operandReadsOf(in).gpr;
      if (gpr & ~uint64_t{0xe})  // a field other than a, b, c read as a register
        throw std::logic_error("regfile: opcode " + std::to_string(static_cast<int>(op)) +
                               " reads a register the operand table does not know of");
      reads[imm][base] = gpr >> (field + 1) & 1u;
    }
  if (reads[0][0] && reads[0][1] && reads[1][0] && reads[1][1]) return Read::Always;
  if (reads[0][0] && reads[0][1] && !reads[1][0] && !reads[1][1]) return Read::UnlessImm;
  if (!reads[0][0] && reads[0][1] && !reads[1][0] && reads[1][1]) return Read::IfBase;
  if (!reads[0][0] && !reads[0][1] && !reads[1][0] && !reads[1][1]) return Read::Never;
  throw std::logic_error("regfile: an operand rule of opcode " + std::to_string(static_cast<int>(op)) +
                         " that the operand table cannot express");
}

}  // namespace

// isa::info's table is constant-initialised, so this one can be built during static
// initialisation (no guard on every look-up, as a function-local static would have).
const std::array<OpOperands, isa::kNumOps> kOpOperands = [] {
  std::array<OpOperands, isa::kNumOps> t{};
  for (int i = 0; i < isa::kNumOps; ++i) {
    const auto op = static_cast<isa::Op>(i);
    const isa::Format f = isa::info(op).format;
    t[static_cast<size_t>(i)] = {probeRead(op, 0), probeRead(op, 1), probeRead(op, 2),
                                 isa::writesGpr(f), isa::writesPred(f), isa::isMemory(f)};
  }
  return t;
}();

}  // namespace detail

void Sources::add(PhysReg p) {
  if (contains(p)) return;
  if (count == kMaxSources) throw std::length_error("operand collector: more than 4 sources");
  reg[count++] = p;
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
