// Compact affine execution (Kim et al., "Microarchitectural Mechanisms to Exploit Value Structure
// in SIMT Architectures", Sec. 4; docs/affine.md), a mechanism of the SM attached through its
// hooks (model/sm/sm_mechanism.h). affine-a: affine arithmetic with lazy expansion.
//
// Each warp has an affine SIMT register file (asrf.h): per register a tag (generic, uniform,
// affine) and a base and stride. Seeds (Sec. 4.1): s2r of a special register whose values across
// the warp form an affine sequence (tid.x, ntid.x, ctaid.x, ...), ld.param of a uniform address,
// and immediates (uniform operands). The affine unit executes add, sub, mul.lo, mad.lo and shl on
// base/stride pairs (mul and shl with one uniform factor), mov, and any SP-unit ALU operation
// whose operands are all uniform (its integer and floating-point units; Sec. 4.2).
//
// A qualifying instruction executed by the whole warp, unguarded, with an ASRF entry free
// (compact): one cycle on the affine unit, no lane computes, no vector register-file read or
// write; its destination's entry gets base and stride. A vector instruction reads an affine
// source through the broadcast path, expanded: lane i gets base + stride * i from the ASRF.
// Lazy expansion (Sec. 4.3): a qualifying instruction under divergence or a guard (suppressed),
// or with the ASRF full, still computes base and stride on the affine unit, but the result is
// expanded into the executing lanes of the vector register and the destination becomes
// generic; a destination that held an entry first gets its old value expanded into every lane
// (the inactive lanes keep it). A vector instruction that writes a register with an entry
// expands its old value the same way when it leaves lanes unwritten. Expansions cost cycles of
// the instruction's unit (warp size / SIMD width each).
//
// affine-ab adds affine and uniform branches (Sec. 4.2): a compare of two uniform operands, or of
// a uniform value and an affine sequence that lies wholly on one side of it (so every lane gets
// the same outcome), by the whole warp, runs on the affine unit in one cycle and leaves a
// uniform predicate; a guarded branch on a uniform predicate is resolved once for the warp
// (counted). Any other compare takes the normal path.
//
// affine-abm adds affine memory operations (Sec. 4.1): a global load or store by the whole warp,
// unguarded, whose address register holds an ASRF entry (or which has an absolute address) skips
// address generation on the lanes: the LD/ST unit gets base and stride (compactAddress hook) and
// generates the transactions from them; the address is not read from the vector register file.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "model/mechanisms/affine/asrf.h"
#include "model/mechanisms/broadcast_rows.h"
#include "model/sm/sm_mechanism.h"

namespace spdlog {
class logger;
}

namespace simtlm::affine {

struct AffineVariant {
  bool branches;  // affine-ab: affine and uniform compares and branches
  bool memory;    // affine-abm: affine global loads and stores
};

class AffineMechanism final : public sm::SmMechanism {
 public:
  AffineMechanism(sm::SmContext& sm, stats::Registry& stats, AffineVariant variant);

  void kernelStarted() override;
  void blockAdmitted(int blockSlot) override;
  void planExecute(int slot, const isa::Instr& in, uint32_t pc, sm::ExecutePlan& plan) override;
  bool compactAddress(int slot, const isa::Instr& in, uint32_t exec, sm::CompactAddress& out) override;
  void afterExecute(int slot, const isa::Instr& in) override;
  void issuing(int slot, const sm::IBufferEntry& e, uint32_t exec) override;

 private:
  enum class Kind { None, Compact, Expanded, Vector, ParamSeed };

  // The instruction's result as base and stride when the affine unit can compute it from its
  // operands' tags (reads the sources' ASRF entries), else nothing.
  std::optional<AffineValue> affineResult(int slot, const isa::Instr& in);
  // The value of a special register across the warp when it is an affine sequence.
  std::optional<AffineValue> specialValue(int slot, const isa::Instr& in);
  // Maps the warp's ASRF sources of `in` onto rows holding their expansions (broadcast path).
  int expandSources(int slot, uint64_t held);
  // The warp's register r gets the expansion of its entry in every lane (lazy expansion).
  void expandOld(int slot, uint8_t r, sm::ExecutePlan& plan);
  void mapScratch(int slot, uint8_t r);
  uint64_t expansionCycles(int slot) const;
  // affine-ab: a compare of ASRF operands whose outcome is the same in every lane (Sec. 4.2's
  // rule); `affine` is set when one operand is an affine sequence.
  bool coherentCompare(int slot, const isa::Instr& in, bool& affine);
  // affine-abm: the lanes' addresses of a global load or store by the whole warp as base and
  // stride, when its address register holds an entry (or it has none: an absolute address).
  std::optional<AffineValue> affineAddress(int slot, const isa::Instr& in, bool converged) const;

  sm::SmContext& sm_;
  spdlog::logger& log_;
  AffineVariant variant_;
  Asrf asrf_;
  std::vector<uint8_t> uniformPreds_;  // affine-ab, per warp slot: bit p, predicate p is uniform
  // The instruction between planExecute and afterExecute.
  Kind kind_ = Kind::None;
  AffineValue result_{};
  uint32_t lanes_ = 0;
  std::optional<AffineValue> address_;  // affine-abm: the access's compact address
  int addressSlot_ = -1;
  mechanisms::BroadcastRows rows_;  // the broadcast path: sources expanded, a scratch destination
  uint64_t compact_ = 0, uniform_ = 0, suppressed_ = 0, full_ = 0, unitOps_ = 0;
  uint64_t expansions_ = 0, expansionCycles_ = 0, expandedOperands_ = 0, seeds_ = 0;
  uint64_t readsSaved_ = 0, writesSaved_ = 0, cyclesSaved_ = 0;
  uint64_t compares_ = 0, affineCompares_ = 0, branches_ = 0;
  uint64_t memops_ = 0, memLoads_ = 0, memStores_ = 0, memopsTotal_ = 0;
};

}  // namespace simtlm::affine
