// A forward dataflow solver over per-register abstract values, shared by the redundancy
// (DARSIE) and value-structure (uniform/affine) analyses.
//
// Soundness under control flow (DESIGN.md rule 2): wherever paths that leave a conditional
// branch by different edges can meet again, every register written on the way is met with the
// abstract value of the branch's predicate. A value defined under a branch that not all warps
// (or lanes) take alike therefore loses its redundancy where the paths join. The meeting
// points are the branch's immediate post-dominator and every block of its influence region
// that paths from both edges reach first (a second entry into a region, a loop left by a
// warp-dependent break, the block where the surviving paths meet when one side may `exit` and
// the post-dominator is therefore the kernel exit).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "isa/cfg.h"
#include "isa/kernel.h"

namespace simtlm::isa {

// Slots: r0..r63, p0..p6, pt, then the thread's local memory (ld.local / st.local): one slot
// per word of the first kLocalWords words, which an absolute offset ([off]) names statically,
// and one slot for every other word. An access through a base register may touch any word.
inline constexpr int kLocalWords = 16;
inline constexpr int kFirstLocalSlot = kMaxRegs + kNumPreds + 1;
inline constexpr int kOtherLocalSlot = kFirstLocalSlot + kLocalWords;
inline constexpr int kNumSlots = kOtherLocalSlot + 1;
inline constexpr int predSlot(uint8_t p) { return kMaxRegs + p; }

// The local-memory slots a ld.local / st.local may touch.
inline void localSlots(const Instr& in, std::vector<int>& out) {
  const uint32_t word = static_cast<uint32_t>(in.off) / 4;
  if (!in.hasBase) {
    out.push_back(word < kLocalWords ? kFirstLocalSlot + static_cast<int>(word) : kOtherLocalSlot);
    return;
  }
  for (int s = kFirstLocalSlot; s <= kOtherLocalSlot; ++s) out.push_back(s);
}

// Registers, predicates and local-memory slots an instruction may write (guarded writes included).
inline void writtenSlots(const Instr& in, std::vector<int>& out) {
  Format f = info(in.op).format;
  if (writesGpr(f)) out.push_back(in.d);
  if (writesPred(f)) out.push_back(predSlot(in.d));
  if (in.op == Op::ST_LOCAL) localSlots(in, out);
}

// The blocks where paths leaving the conditional branch that ends block `b` by different edges
// can meet (Karrenberg and Hack's join points): its immediate post-dominator (unless that is
// the kernel exit) and every block of its influence region reached from two different edges
// or from two different earlier join points. Paths may run through `b` again (the branch in a
// loop), which only adds join points.
inline std::vector<int> joinBlocks(const Cfg& cfg, int b) {
  const int nb = cfg.numBlocks();
  const auto& blocks = cfg.blocks();
  const std::vector<int>& succs = blocks[b].succs;
  const int stop = cfg.ipdom(b);
  std::vector<int> out;
  if (succs.size() >= 2) {
    std::vector<char> inRegion(nb + 1, 0);
    for (int r : cfg.influenceRegion(b)) inRegion[r] = 1;
    // label: the edge of b (nb + 1 + i) or the join point (its own id) a block is reached from.
    std::vector<int> label(nb + 1, -1);
    std::vector<char> isJoin(nb + 1, 0);
    for (bool changed = true; changed;) {
      changed = false;
      for (int x : cfg.reversePostOrder()) {
        if (!inRegion[x] && x != stop) continue;
        int lab = -1;
        bool join = isJoin[x];
        auto reach = [&](int l) {
          if (l < 0) return;
          if (lab < 0) lab = l;
          else if (lab != l) join = true;
        };
        for (size_t i = 0; i < succs.size(); ++i)
          if (succs[i] == x) reach(nb + 1 + static_cast<int>(i));
        for (int p : blocks[x].preds)
          if (inRegion[p]) reach(label[p]);
        int nl = join ? x : lab;
        if (join != static_cast<bool>(isJoin[x]) || nl != label[x]) {
          isJoin[x] = join;
          label[x] = nl;
          changed = true;
        }
      }
    }
    for (int x = 0; x < nb; ++x)
      if (isJoin[x] || x == stop) out.push_back(x);
  } else if (stop < nb) {
    out.push_back(stop);
  }
  return out;
}

// Blocks of the influence region of the branch ending `b` from which `join` can be reached
// without passing through `join`: where the values that meet at `join` were written.
inline std::vector<int> blocksReaching(const Cfg& cfg, int b, int join) {
  const int nb = cfg.numBlocks();
  std::vector<char> inRegion(nb + 1, 0), seen(nb + 1, 0);
  for (int r : cfg.influenceRegion(b)) inRegion[r] = 1;
  std::vector<int> work(cfg.blocks()[join].preds), out;
  while (!work.empty()) {
    int x = work.back();
    work.pop_back();
    if (x == join || !inRegion[x] || seen[x]) continue;
    seen[x] = 1;
    out.push_back(x);
    for (int p : cfg.blocks()[x].preds) work.push_back(p);
  }
  return out;
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
    if (!conditional) continue;
    for (int jb : joinBlocks(cfg, b)) {
      Join j{jb, cfg.blocks()[b].last, {}};
      for (int r : blocksReaching(cfg, b, jb))
        for (size_t i = cfg.blocks()[r].first; i <= cfg.blocks()[r].last; ++i)
          writtenSlots(k.instrs[i], j.slots);
      joins.push_back(std::move(j));
    }
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
