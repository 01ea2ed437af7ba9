// Failure classes of issue 14 that the timing model still gets wrong. While a class is listed
// here, the default random suite keeps the generator from producing it and its reach test
// (RandomKernelReach.*) is skipped with the symptom; remove the entry when its fix lands, and
// both start running. `--ignore-known-bugs` (or SIMTLM_RANDOM_IGNORE_KNOWN_BUGS=1) runs them
// anyway, to see them fail.
#pragma once

#include <vector>

#include "model/common/config.h"
#include "tests/random/kernel_generator.h"

namespace simtlm::test {

struct KnownBug {
  int item;         // issue 14 item
  Feature feature;  // the generator construct that reaches it
  bool darsieOnly;  // only the DARSIE variants fail (else every mechanism)
  config::Mechanism only = config::Mechanism::Baseline;  // if not Baseline: only this mechanism
  const char* symptom;
};

inline const std::vector<KnownBug> kKnownBugs = {
    {1, Feature::ControlAtJoin, false, config::Mechanism::Baseline,
     "a bra / guarded bra / exit at a join hangs the timing model (stuck, waits for instruction fetch)"},
    {2, Feature::BarrierAtJoin, true, config::Mechanism::Baseline,
     "bar.sync at the join of a divergent if/else with a non-empty taken path hangs under DARSIE"},
    {3, Feature::TwoBarrierPcs, true, config::Mechanism::Baseline,
     "two bar.sync PCs with one id give wrong values or a stuck warp under DARSIE"},
    {4, Feature::LongBranchHistory, true, config::Mechanism::DarsieNoCfSync,
     "darsie-no-cf-sync: a warp > 64 guarded branches behind gives wrong values or hangs"},
    {5, Feature::SharedStoreReload, true, config::Mechanism::DarsieIgnoreStore,
     "darsie-ignore-store: a TB-redundant reload after a shared store reads a stale value"},
    {6, Feature::Regs64, false, config::Mechanism::Baseline,
     "`.regs 64` or r63: every run stops with 'unknown register r1 (the kernel declares 64)'"},
};

inline bool bugAffects(const KnownBug& b, config::Mechanism m) {
  if (b.only != config::Mechanism::Baseline) return m == b.only;
  return !b.darsieOnly || config::isDarsie(m);
}

}  // namespace simtlm::test
