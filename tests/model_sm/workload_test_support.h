// Shared by the workload tests: a workload run on the timing model (sm::runGrid, Pascal
// defaults with `sms` SMs) next to the functional interpreter, each on its own memory.
#pragma once

#include <cstdint>
#include <string>

#include "model/sm/grid_runner.h"
#include "workloads/workload.h"

namespace simtlm::test {

struct TimedRun {
  std::string error, verify;  // the run's fault; what verify() says of the timed memory
  bool equal = false;         // timed memory == the interpreter's
  uint64_t cycles = 0, skipped = 0;  // skipped: DARSIE's, summed over SMs
};

inline TimedRun runAgainstInterpreter(const workloads::Workload& w, config::Mechanism m, int sms = 2) {
  isa::Kernel k = workloads::loadKernel(w);
  isa::GlobalMemory golden, timed;
  auto l1 = w.setup(golden);
  auto l2 = w.setup(timed);
  isa::Interpreter(k, golden).run(l1);
  config::GpuConfig cfg;  // Pascal defaults
  cfg.gpu.num_sms = sms;
  cfg.mechanism = m;
  stats::Registry reg;
  auto r = sm::runGrid(cfg, k, l2, timed, reg);
  TimedRun out{r.error, w.verify(timed), golden == timed, r.cycles, 0};
  for (int i = 0; i < sms; ++i)
    out.skipped += static_cast<uint64_t>(reg.value("sm" + std::to_string(i) + ".darsie.skipped").value_or(0));
  return out;
}

}  // namespace simtlm::test
