// A forward dataflow solver over per-register abstract values, shared by the redundancy
// (DARSIE) and value-structure (uniform/affine) analyses.
//
// Soundness under control flow (DESIGN.md rule 2): at the immediate post-dominator of a
// conditional branch, every register written anywhere in the branch's influence region is met
// with the abstract value of the branch's predicate. A value defined under a branch that not
// all warps (or lanes) take alike therefore loses its redundancy where the paths join.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "isa/cfg.h"
#include "isa/kernel.h"

namespace simtlm::isa {

// Slots: r0..r63 then p0..p6 then pt.
inline constexpr int kNumSlots = kMaxRegs + kNumPreds + 1;
inline constexpr int predSlot(uint8_t p) { return kMaxRegs + p; }

// Registers and predicates an instruction may write (guarded writes included).
inline void writtenSlots(const Instr& in, std::vector<int>& out) {
  Format f = info(in.op).format;
  if (writesGpr(f)) out.push_back(in.d);
  if (writesPred(f)) out.push_back(predSlot(in.d));
}

// V must provide: static V top(); V meet(V, V); bool operator==.
template <class V>
using SlotState = std::array<V, kNumSlots>;

// Transfer: void(size_t instrIndex, SlotState<V>& state) updates the state across one
// instruction. BranchValue: V(size_t branchIndex, const SlotState<V>& stateBefore) is the
// value met into registers written under that branch at its join.
template <class V, class Transfer, class BranchValue>
std::vector<SlotState<V>> solveForward(const Kernel& k, const Cfg& cfg, const SlotState<V>& entry,
                                       Transfer transfer, BranchValue branchValue) {
  const int nb = cfg.numBlocks();
  SlotState<V> topState;
  topState.fill(V::top());
  std::vector<SlotState<V>> in(nb, topState), out(nb, topState);
  std::vector<SlotState<V>> before(k.size(), topState);

  // Joins: for each conditional branch, (join block, branch index, written slots of region).
  struct Join {
    int joinBlock;
    size_t branch;
    std::vector<int> slots;
  };
  std::vector<Join> joins;
  for (int b = 0; b < nb; ++b) {
    const Instr& last = k.instrs[cfg.blocks()[b].last];
    bool conditional = (last.op == Op::BRA || last.op == Op::EXIT) &&
                       (last.guard != kPredTrue || last.guardNeg);
    if (!conditional || cfg.ipdom(b) >= nb) continue;
    Join j{cfg.ipdom(b), cfg.blocks()[b].last, {}};
    for (int r : cfg.influenceRegion(b))
      for (size_t i = cfg.blocks()[r].first; i <= cfg.blocks()[r].last; ++i)
        writtenSlots(k.instrs[i], j.slots);
    joins.push_back(std::move(j));
  }

  for (bool changed = true; changed;) {
    changed = false;
    for (int b : cfg.reversePostOrder()) {
      SlotState<V> s = b == 0 ? entry : topState;
      for (int p : cfg.blocks()[b].preds)
        for (int r = 0; r < kNumSlots; ++r) s[r] = V::meet(s[r], out[p][r]);
      for (const Join& j : joins) {
        if (j.joinBlock != b) continue;
        V pv = branchValue(j.branch, before[j.branch]);
        for (int r : j.slots) s[r] = V::meet(s[r], pv);
      }
      in[b] = s;
      for (size_t i = cfg.blocks()[b].first; i <= cfg.blocks()[b].last; ++i) {
        before[i] = s;
        transfer(i, s);
      }
      if (!(s == out[b])) { out[b] = s; changed = true; }
    }
  }
  return before;
}

}  // namespace simtlm::isa
