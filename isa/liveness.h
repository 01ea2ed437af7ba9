// Register liveness (general and predicate registers) over the CFG.
#pragma once

#include <cstdint>
#include <vector>

#include "isa/cfg.h"
#include "isa/kernel.h"

namespace simtlm::isa {

struct RegSet {
  uint64_t gpr = 0;  // bit r: register r
  uint8_t pred = 0;  // bit p: predicate p (pt is never tracked)
  bool hasGpr(int r) const { return gpr >> r & 1u; }
  bool hasPred(int p) const { return pred >> p & 1u; }
  RegSet operator|(RegSet o) const { return {gpr | o.gpr, static_cast<uint8_t>(pred | o.pred)}; }
  RegSet operator&(RegSet o) const { return {gpr & o.gpr, static_cast<uint8_t>(pred & o.pred)}; }
  RegSet minus(RegSet o) const { return {gpr & ~o.gpr, static_cast<uint8_t>(pred & ~o.pred)}; }
  bool operator==(const RegSet& o) const { return gpr == o.gpr && pred == o.pred; }
  bool empty() const { return gpr == 0 && pred == 0; }
};

// Registers an instruction reads: sources, memory base, guard predicate, and for a guarded
// write the destination too (lanes with a false guard keep its old value).
RegSet usesOf(const Instr& in);
// The registers its operands name (what usesOf reads apart from the guard and, under a guard,
// the old destination).
RegSet operandReadsOf(const Instr& in);
// Registers an instruction writes (guarded or not).
RegSet writesOf(const Instr& in);
// Registers it overwrites in every active lane (unguarded writes): these end a live range.
RegSet killsOf(const Instr& in);

class Liveness {
 public:
  Liveness(const Kernel& k, const Cfg& cfg);
  RegSet liveIn(size_t instr) const { return in_[instr]; }
  RegSet liveOut(size_t instr) const { return out_[instr]; }

 private:
  std::vector<RegSet> in_, out_;
};

}  // namespace simtlm::isa
