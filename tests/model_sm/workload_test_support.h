// Shared by the workload tests: a workload run on the timing model (sm::runGrid, Pascal
// defaults with `sms` SMs) next to the functional interpreter, each on its own memory. A
// workload of several launches runs them in order; cycles and skips add up.
#pragma once

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "model/mechanisms/registry.h"
#include "model/sm/grid_runner.h"
#include "workloads/workload.h"

namespace simtlm::test {

struct TimedRun {
  std::string error, verify;  // the run's fault; what verify() says of the timed memory
  bool equal = false;         // timed memory == the interpreter's
  uint64_t cycles = 0, skipped = 0;  // skipped: DARSIE's, summed over SMs and launches
};

inline TimedRun runAgainstInterpreter(const workloads::Workload& w, config::Mechanism m, int sms = 2) {
  isa::GlobalMemory golden, timed;
  workloads::runOnInterpreter(w, golden);
  const auto kernels = workloads::loadKernels(w);
  config::GpuConfig cfg;  // Pascal defaults
  cfg.gpu.num_sms = sms;
  cfg.mechanism = m;
  TimedRun out;
  for (const auto& step : w.launches(timed)) {
    stats::Registry reg;  // runGrid registers its units' statistics afresh
    auto r = sm::runGrid(cfg, mechanisms::factoryFor(cfg), kernels.at(step.kernel), step.launch,
                         timed, reg);
    out.cycles += r.cycles;
    for (int i = 0; i < sms; ++i)
      out.skipped += static_cast<uint64_t>(reg.value("sm" + std::to_string(i) + ".darsie.skipped").value_or(0));
    if (!r.error.empty()) {
      out.error = r.error;
      break;
    }
  }
  out.verify = w.verify(timed);
  out.equal = golden == timed;
  return out;
}

// What every workload's timing test requires first: the run completed, its memory equals the
// interpreter's, and the workload's own verify() passes on it.
inline ::testing::AssertionResult matchesInterpreter(const TimedRun& t) {
  if (!t.error.empty()) return ::testing::AssertionFailure() << "the timed run failed: " << t.error;
  if (!t.equal) return ::testing::AssertionFailure() << "memory differs from the interpreter";
  if (!t.verify.empty()) return ::testing::AssertionFailure() << "verify: " << t.verify;
  return ::testing::AssertionSuccess();
}

}  // namespace simtlm::test
