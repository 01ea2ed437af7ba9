// BOW bypass-opportunity study (isa/bow_study.h). A partial write (fewer lanes than the warp's
// live ones: a false guard or divergence) merges into the old value, which the register file
// must then hold in full: like a guarded write in isa/bow_hints, it counts as an access of the
// old value, makes it need the register file, and its own merged result always needs it too.
#include "isa/bow_study.h"

#include "isa/bow_hints.h"
#include "isa/liveness.h"

namespace simtlm::isa {
namespace {

constexpr int kMin = BowStudyResult::kMinWindow;
constexpr uint8_t kAllWindows = (1u << (BowStudyResult::kMaxWindow - kMin + 1)) - 1;

}  // namespace

const char* bowDestName(BowDest d) {
  switch (d) {
    case BowDest::RegisterFile: return "rf_only";
    case BowDest::Boc: return "boc_only";
    case BowDest::Both: return "both";
  }
  return "?";
}

void BowStudy::onLaunch(const Kernel& k, const LaunchConfig&) {
  Cfg cfg(k);
  Liveness live(k, cfg);
  hints_ = computeBowHints(k, cfg, live, BowStudyResult::kHintWindow);
}

void BowStudy::onBlockStart(uint32_t, uint32_t numWarps) { warps_.assign(numWarps, WarpState{}); }

void BowStudy::onBlockEnd(uint32_t) {
  // Registers are dead when the warp ends: values still in a chain never need the register file.
  for (WarpState& w : warps_)
    for (int r = 0; r < kMaxRegs; ++r)
      if (w.hasValue >> r & 1u) finish(w, r, true);
  warps_.clear();
}

void BowStudy::touch(WarpState& w, int r) {
  if (w.accessed >> r & 1u && w.hasValue >> r & 1u) {
    const uint64_t dist = w.time - w.last[r];
    for (int i = 0; i < kNumWindows; ++i) {
      if (dist <= static_cast<uint64_t>(i + kMin - 1)) w.windowRead[r] |= 1u << i;
      else w.needsRf[r] |= 1u << i;
    }
  }
  w.accessed |= uint64_t{1} << r;
  w.last[r] = w.time;
}

void BowStudy::finish(WarpState& w, int r, bool atExit) {
  BowDest atHint = BowDest::Boc;
  for (int i = 0; i < kNumWindows; ++i) {
    BowDest d = !(w.needsRf[r] >> i & 1u)      ? BowDest::Boc
                : (w.windowRead[r] >> i & 1u) ? BowDest::Both
                                              : BowDest::RegisterFile;
    r_.windows[i].dest[static_cast<int>(d)]++;
    if (i + kMin == BowStudyResult::kHintWindow) atHint = d;
  }
  if (atHint == BowDest::Boc) {
    if (w.windowRead[r] == 0) r_.bocUnread++;
    else if (atExit) r_.bocAtExit++;
  }
  const BowHint h = hints_[w.defInstr[r]];
  if (h != BowHint::None) r_.hintVsDynamic[static_cast<int>(h) - 1][static_cast<int>(atHint)]++;
  w.hasValue &= ~(uint64_t{1} << r);
}

void BowStudy::define(WarpState& w, int r, uint32_t instr, bool partial) {
  if (w.hasValue >> r & 1u) {
    if (partial) {
      touch(w, r);
      w.needsRf[r] = kAllWindows;
    }
    finish(w, r);
  }
  w.hasValue |= uint64_t{1} << r;
  w.windowRead[r] = 0;
  w.needsRf[r] = partial ? kAllWindows : 0;
  w.defInstr[r] = instr;
  w.accessed |= uint64_t{1} << r;
  w.last[r] = w.time;
}

void BowStudy::onWarpStep(const WarpStep& s) {
  WarpState& w = warps_.at(s.warp);
  const Instr& in = *s.instr;
  r_.warpInstructions++;
  // Distinct registers: an instruction reading one register twice fetches it once.
  const uint64_t reads = operandReadsOf(in).gpr;
  for (uint64_t m = reads; m; m &= m - 1) {
    const int r = __builtin_ctzll(m);
    r_.reads++;
    if (w.accessed >> r & 1u) {
      const uint64_t dist = w.time - w.last[r];
      for (int i = 0; i < kNumWindows; ++i)
        if (dist <= static_cast<uint64_t>(i + kMin - 1)) r_.windows[i].readBypassed++;
    }
    touch(w, r);
  }
  const Format f = info(in.op).format;
  if (writesGpr(f)) {
    const uint32_t idx = static_cast<uint32_t>(Kernel::indexOf(s.pc));
    const bool partial = s.execMask != (s.warpMask & ~w.exited);
    r_.writes++;
    if (partial) r_.partialWrites++;
    const BowHint h = hints_[idx];
    if (h != BowHint::None) r_.hints[static_cast<int>(h) - 1]++;
    define(w, in.d, idx, partial);
  }
  if (in.op == Op::EXIT) w.exited |= s.execMask;
  w.time++;
}

}  // namespace simtlm::isa
