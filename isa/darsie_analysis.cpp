#include "isa/darsie_analysis.h"

#include "isa/dataflow.h"

namespace simtlm::isa {

RedundancyClass RedundancyClass::meet(RedundancyClass a, RedundancyClass b) {
  if (a.isTop) return b;
  if (b.isTop) return a;
  return {a.vector || b.vector, static_cast<uint8_t>(a.deps | b.deps), false};
}

namespace {

using RC = RedundancyClass;
const RC kDR{false, 0, false};
const RC kV{true, 0, false};

RC specialClass(Special s, const DarsieOptions& opt) {
  switch (s) {
    case Special::TidX: return {false, kDepX, false};
    case Special::TidY: return opt.conditionalTidYZ ? RC{false, kDepY, false} : kV;
    case Special::TidZ: return opt.conditionalTidYZ ? RC{false, kDepZ, false} : kV;
    case Special::LaneId: return kDR;  // the same lane numbers in every warp
    case Special::WarpId: return kV;
    default: return kDR;               // ntid, ctaid, nctaid: block-invariant
  }
}

bool writesValue(Format f) { return writesGpr(f) || writesPred(f); }

}  // namespace

DarsieMarking markRedundancy(const Kernel& k, const Cfg& cfg, const DarsieOptions& opt) {
  SlotState<RC> entry;
  entry.fill(kDR);  // registers, and local memory (zeroed per launch), start as zero in every thread
  DarsieMarking m;
  m.instr.assign(k.size(), kV);

  // The class of the value instruction i computes, given the state before it.
  auto valueClass = [&](size_t i, const SlotState<RC>& s) -> RC {
    const Instr& in = k.instrs[i];
    const OpInfo& oi = info(in.op);
    RC c = s[predSlot(in.guard)];
    auto use = [&](int slot) { c = RC::meet(c, s[slot]); };
    switch (oi.format) {
      case Format::Unary: if (!in.hasImm) use(in.a); break;
      case Format::Binary: case Format::Compare: use(in.a); if (!in.hasImm) use(in.b); break;
      case Format::Ternary: use(in.a); use(in.b); use(in.c); break;
      case Format::Select: use(in.a); use(in.b); use(predSlot(in.c)); break;
      case Format::Special:
        c = RC::meet(c, in.a < kNumSpecials ? specialClass(static_cast<Special>(in.a), opt) : kV);
        break;
      case Format::PredBinary: use(predSlot(in.a)); use(predSlot(in.b)); break;
      case Format::PredUnary: use(predSlot(in.a)); break;
      case Format::Load:  // Sec. 4.2: a load takes the class of its address
        if (in.hasBase) use(in.a);
        // A local load reads the thread's own word: redundant where the address is and every
        // word it may read holds a redundant value (what the stores before it wrote there).
        if (in.op == Op::LD_LOCAL) {
          std::vector<int> slots;
          localSlots(in, slots);
          for (int slot : slots) use(slot);
        }
        break;
      default: return kV;  // stores, atomics, control: never skipped
    }
    // A guarded write keeps the old value in lanes where the guard is false.
    if (in.guard != kPredTrue || in.guardNeg) {
      int d = writesPred(oi.format) ? predSlot(in.d) : in.d;
      c = RC::meet(c, s[d]);
    }
    return c;
  };

  // st.local: the class of what each lane writes, its address and guard included (a store at
  // an address or under a guard that differs between warps leaves words that differ).
  auto storeLocal = [&](size_t i, SlotState<RC>& s) {
    const Instr& in = k.instrs[i];
    RC c = RC::meet(s[predSlot(in.guard)], s[in.b]);
    if (in.hasBase) c = RC::meet(c, s[in.a]);
    const bool guarded = in.guard != kPredTrue || in.guardNeg;
    std::vector<int> slots;
    localSlots(in, slots);
    // One word named statically is overwritten (strong update) unless guarded; a word that may
    // or may not be the one written keeps what it held, met with the new value (weak update).
    const bool strong = !in.hasBase && slots[0] != kOtherLocalSlot && !guarded;
    for (int slot : slots) s[slot] = strong ? c : RC::meet(s[slot], c);
  };
  auto transfer = [&](size_t i, SlotState<RC>& s) {
    const Instr& in = k.instrs[i];
    Format f = info(in.op).format;
    if (in.op == Op::ST_LOCAL) return storeLocal(i, s);
    RC c = valueClass(i, s);
    if (writesGpr(f)) s[in.d] = c;
    if (writesPred(f)) s[predSlot(in.d)] = c;
  };
  auto branchValue = [&](size_t i, const SlotState<RC>& s) {
    const Instr& in = k.instrs[i];
    return s[predSlot(in.guard)];
  };
  auto before = solveForward<RC>(k, cfg, entry, transfer, branchValue);
  for (size_t i = 0; i < k.size(); ++i) {
    if (before[i][0].isTop && cfg.blockOf(i) != 0) {  // unreachable code
      m.instr[i] = kV;
      continue;
    }
    RC c = writesValue(info(k.instrs[i].op).format) ? valueClass(i, before[i]) : kV;
    m.instr[i] = c.isTop ? kV : c;
  }
  m.regsAtBarrier.resize(k.size());
  for (size_t i = 0; i < k.size(); ++i) {
    if (k.instrs[i].op != Op::BAR_SYNC || before[i][0].isTop) continue;
    for (int r = 0; r < k.numRegs; ++r)
      m.regsAtBarrier[i].push_back(before[i][r].isTop ? kV : before[i][r]);
  }
  return m;
}

bool depsRepeatPerWarp(uint8_t deps, const Dim3& block, uint32_t warpSize) {
  // tid.x of lane l in warp w is (w*W + l) mod X: the same in every warp iff X divides W.
  // tid.y is ((w*W + l) / X) mod Y: iff X*Y divides W; tid.z: iff X*Y*Z divides W.
  // A component whose extent is 1 is always 0.
  uint64_t x = block.x, xy = x * block.y, xyz = xy * block.z;
  if ((deps & kDepX) && block.x > 1 && warpSize % x) return false;
  if ((deps & kDepY) && block.y > 1 && warpSize % xy) return false;
  if ((deps & kDepZ) && block.z > 1 && warpSize % xyz) return false;
  return true;
}

void applyStaticHints(Kernel& k, const DarsieMarking& m) {
  for (size_t i = 0; i < k.size(); ++i) k.instrs[i].darsie = m.instr[i].hint();
  k.reencode();
}

void promoteForLaunch(Kernel& k, const DarsieMarking& m, const Dim3& block, uint32_t warpSize) {
  for (size_t i = 0; i < k.size(); ++i) {
    const RC& c = m.instr[i];
    bool redundant = !c.vector && depsRepeatPerWarp(c.deps, block, warpSize);
    k.instrs[i].darsie = redundant ? Redundancy::Definite : Redundancy::Vector;
  }
  k.reencode();
}

}  // namespace simtlm::isa
