// Failure classes of issue 14 that the timing model still gets wrong. While a class is listed
// here, the default random suite keeps the generator from producing it and its reach test
// (RandomKernelReach.*) is skipped with the symptom; remove the entry when its fix lands, and
// both start running. `--ignore-known-bugs` (or SIMTLM_RANDOM_IGNORE_KNOWN_BUGS=1) runs them
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

// Seeds of the long range (and reduced kernels in tests/random/regressions/) that fail for a bug
// found by this net beyond issue 14's six classes. The long range skips them and the regression
// tests are skipped while they are listed; remove an entry when its fix lands.
struct KnownSeed {
  uint64_t seed;
  const char* symptom;
};
inline const std::vector<KnownSeed> kKnownFailingSeeds = {
    {1257, "darsie, darsie-no-cf-sync (default sizes): a follower's register maps another instruction's version "
           "(regressions/seed1257_dr_run_wrong_version.s)"},
    {1504, "darsie (sizes small): a TB-redundant global load reads a later instruction's version around a global "
           "atomic (regressions/seed1504_load_after_atomic_wrong_version.s)"},
    {1571, "darsie, darsie-ignore-store (sizes small): a TB-redundant global load after a global atomic reads the "
           "version of the address computed before it (regressions/seed1571_load_after_atomic_address_version.s)"},
};

inline bool bugAffects(const KnownBug& b, config::Mechanism m) {
  if (b.only != config::Mechanism::Baseline) return m == b.only;
  return !b.darsieOnly || config::isDarsie(m);
}

}  // namespace simtlm::test
