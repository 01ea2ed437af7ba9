// Failure classes of issue 14. While a class's item is in kKnownBugs, the default random suite
// keeps the generator from producing it and its reach test (RandomKernelReach.*) is skipped with
// the symptom; remove the item when its fix lands, and both start running. `--ignore-known-bugs` (or SIMTLM_RANDOM_IGNORE_KNOWN_BUGS=1) runs them
// anyway, to see them fail.
#pragma once

#include <cstdint>
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

// Issue 14's six failure classes (the reach tests force each one on), and the items among them
// the timing model still gets wrong: none since their fixes landed.
inline const std::vector<KnownBug> kFailureClasses = {
    {1, Feature::ControlAtJoin, false, config::Mechanism::Baseline,
     "a bra / guarded bra / exit at a join hung the timing model (stuck, waits for instruction fetch)"},
    {2, Feature::BarrierAtJoin, true, config::Mechanism::Baseline,
     "bar.sync at the join of a divergent if/else with a non-empty taken path hung under DARSIE"},
    {3, Feature::TwoBarrierPcs, true, config::Mechanism::Baseline,
     "two bar.sync PCs with one id gave wrong values or a stuck warp under DARSIE"},
    {4, Feature::LongBranchHistory, true, config::Mechanism::DarsieNoCfSync,
     "darsie-no-cf-sync: a warp > 64 guarded branches behind gave wrong values or hung"},
    {5, Feature::SharedStoreReload, true, config::Mechanism::DarsieIgnoreStore,
     "darsie-ignore-store: a TB-redundant reload after a shared store read a stale value"},
    {6, Feature::Regs64, false, config::Mechanism::Baseline,
     "`.regs 64` or r63: every run stopped with 'unknown register r1 (the kernel declares 64)'"},
};
inline const std::vector<int> kKnownBugs = {};  // issue 14 items still failing

// Seeds of the long range (and reduced kernels in tests/random/regressions/) that fail for a bug
// found by this net beyond issue 14's six classes. The long range skips them and the regression
// tests are skipped while they are listed; remove an entry when its fix lands.
struct KnownSeed {
  uint64_t seed;
  const char* symptom;
};
inline const std::vector<KnownSeed> kKnownFailingSeeds = {};

inline bool bugAffects(const KnownBug& b, config::Mechanism m) {
  if (b.only != config::Mechanism::Baseline) return m == b.only;
  return !b.darsieOnly || m != config::Mechanism::Baseline;
}

}  // namespace simtlm::test
