// Register liveness: per-instruction use/def sets and a backward may-analysis over the CFG.
//
// Liveness is per thread. A guarded write reads its destination (lanes whose guard is false keep
// the old value), so it never ends a live range; only unguarded writes kill. The always-true
// predicate pt is never tracked.
#include "isa/liveness.h"

namespace simtlm::isa {
namespace {

bool guarded(const Instr& in) { return in.guard != kPredTrue || in.guardNeg; }

void addGpr(RegSet& s, uint8_t r) {
  if (r < kMaxRegs) s.gpr |= uint64_t{1} << r;
}
void addPred(RegSet& s, uint8_t p) {
  if (p < kNumPreds) s.pred = static_cast<uint8_t>(s.pred | 1u << p);
}

}  // namespace

RegSet operandReadsOf(const Instr& in) {
  RegSet s;
  switch (info(in.op).format) {
    case Format::Unary: if (!in.hasImm) addGpr(s, in.a); break;
    case Format::Binary:
    case Format::Compare: addGpr(s, in.a); if (!in.hasImm) addGpr(s, in.b); break;
    case Format::Ternary: addGpr(s, in.a); addGpr(s, in.b); addGpr(s, in.c); break;
    case Format::Select: addGpr(s, in.a); addGpr(s, in.b); addPred(s, in.c); break;
    case Format::PredBinary: addPred(s, in.a); addPred(s, in.b); break;
    case Format::PredUnary: addPred(s, in.a); break;
    case Format::Load: if (in.hasBase) addGpr(s, in.a); break;
    case Format::Store:
    case Format::Atomic: if (in.hasBase) addGpr(s, in.a); addGpr(s, in.b); break;
    case Format::AtomicCas:
      if (in.hasBase) addGpr(s, in.a);
      addGpr(s, in.b);
      addGpr(s, in.c);
      break;
    case Format::Special: case Format::Branch: case Format::Barrier: case Format::NoOperands:
      break;
  }
  return s;
}

RegSet usesOf(const Instr& in) {
  RegSet s = operandReadsOf(in);
  if (guarded(in)) {
    addPred(s, in.guard);
    s = s | writesOf(in);  // inactive lanes keep the old destination value
  }
  return s;
}

RegSet writesOf(const Instr& in) {
  RegSet s;
  Format f = info(in.op).format;
  if (writesGpr(f)) addGpr(s, in.d);
  if (writesPred(f)) addPred(s, in.d);
  return s;
}

RegSet killsOf(const Instr& in) { return guarded(in) ? RegSet{} : writesOf(in); }

Liveness::Liveness(const Kernel& k, const Cfg& cfg) : in_(k.size()), out_(k.size()) {
  const int nb = cfg.numBlocks();
  std::vector<RegSet> uses(k.size()), kills(k.size());
  for (size_t i = 0; i < k.size(); ++i) {
    uses[i] = usesOf(k.instrs[i]);
    kills[i] = killsOf(k.instrs[i]);
  }
  // Block-level live-in sets; the virtual exit has nothing live. Iterate blocks from last to
  // first (unreachable ones included) until nothing changes.
  std::vector<RegSet> blockIn(nb);
  for (bool changed = true; changed;) {
    changed = false;
    for (int b = nb - 1; b >= 0; --b) {
      const BasicBlock& bb = cfg.blocks()[b];
      RegSet live;
      for (int s : bb.succs)
        if (s < nb) live = live | blockIn[s];
      for (size_t i = bb.last + 1; i-- > bb.first;) {
        out_[i] = live;
        live = uses[i] | live.minus(kills[i]);
        in_[i] = live;
      }
      if (!(live == blockIn[b])) {
        blockIn[b] = live;
        changed = true;
      }
    }
  }
}

}  // namespace simtlm::isa
