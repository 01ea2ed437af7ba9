// BOW-WR compiler write-back hints (BOW, Sec. IV-B and Fig. 6/7).
//
// A window of IW instructions lets a value produced by instruction i be forwarded from the
// bypassing operand collector (BOC) to instructions i+1 .. i+IW-1. Every read extends the
// value's presence by another IW-1 instructions (the "extended instruction window", Sec. IV-A).
// For each instruction with a general-register result:
//   RegisterFile  its first read is not within the next IW-1 instructions (Fig. 7, left bar);
//   Bypass        every read is reached by a chain of accesses, each within IW-1 instructions
//                 of the previous one, and the value is dead after the chain (transient);
//   Both          read within the window but still live afterwards (persistent).
// Instructions without a general-register result (stores, setp, branches, ...) get None.
//
// Choices where the paper is vague (it reasons about the dynamic stream; this analysis is
// static and must be sound for every execution):
//  * Chains only run inside one basic block, where static distance equals dynamic distance
//    for any mask the warp runs with. A value that reaches the block end while live-out, or
//    that has a later read beyond the window, needs the register file: Both (or RegisterFile
//    when no read is within the window). Reads in a successor block never count as in-window.
//  * A guarded (predicated) definition never gets Bypass: lanes whose guard is false keep the
//    old value, which only the register file holds in full.
//  * A guarded redefinition of the register reads the old value (its false lanes keep it), and
//    the merged result may later be read from the register file, so the old value must reach
//    the register file: it counts as an in-window read when close enough, but makes the
//    definition persistent (Both), never Bypass.
//  * A value that is never read (dead on definition) gets Bypass when unguarded: no reader
//    exists, so the register file write is pure waste. Guarded dead values get RegisterFile.
//  * Predicates are not held in the register file banks, so setp/pand/... get None.
//  * Window capacity (bow-wr-half's smaller BOC) is not considered; the paper restricts the
//    window to its nominal size, and a hardware eviction of a Bypass-only entry before its last
//    read must write it back to the register file.
#include "isa/bow_hints.h"

#include <stdexcept>

namespace simtlm::isa {
namespace {

bool guarded(const Instr& in) { return in.guard != kPredTrue || in.guardNeg; }

BowHint hintFor(const Kernel& k, const Cfg& cfg, const Liveness& live, size_t i, int iw) {
  const Instr& def = k.instrs[i];
  if (!writesGpr(info(def.op).format)) return BowHint::None;
  const int r = def.d;
  const size_t end = cfg.blocks()[cfg.blockOf(i)].last;
  const size_t reach = static_cast<size_t>(iw - 1);
  size_t last = i;           // last access of the value (its definition, then each chained read)
  int windowReads = 0;       // reads reached by the chain
  bool liveAfter = false;    // some read is not reached by the chain, or live past the block
  bool persistent = false;   // a guarded redefinition needs the value in the register file
  bool ended = false;        // an unguarded redefinition ends the value
  for (size_t j = i + 1; j <= end && !ended; ++j) {
    const Instr& in = k.instrs[j];
    if (usesOf(in).hasGpr(r)) {
      if (j - last > reach) { liveAfter = true; break; }
      last = j;
      ++windowReads;
      if (guarded(in) && writesOf(in).hasGpr(r)) persistent = true;
    }
    if (killsOf(in).hasGpr(r)) ended = true;
  }
  if (!ended && !liveAfter) liveAfter = live.liveOut(end).hasGpr(r);
  if (windowReads == 0)
    return liveAfter || guarded(def) ? BowHint::RegisterFile : BowHint::Bypass;
  if (liveAfter || persistent || guarded(def)) return BowHint::Both;
  return BowHint::Bypass;
}

}  // namespace

std::vector<BowHint> computeBowHints(const Kernel& k, const Cfg& cfg, const Liveness& live,
                                     int windowSize) {
  if (windowSize < 1) throw std::invalid_argument("BOW window size must be at least 1");
  std::vector<BowHint> hints(k.size(), BowHint::None);
  for (size_t i = 0; i < k.size(); ++i) hints[i] = hintFor(k, cfg, live, i, windowSize);
  return hints;
}

void applyBowHints(Kernel& k, int windowSize) {
  Cfg cfg(k);
  Liveness live(k, cfg);
  std::vector<BowHint> hints = computeBowHints(k, cfg, live, windowSize);
  for (size_t i = 0; i < k.size(); ++i) k.instrs[i].bow = hints[i];
  k.reencode();
}

}  // namespace simtlm::isa
