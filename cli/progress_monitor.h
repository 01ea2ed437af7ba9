// The timing model's progress reporter (docs/cli.md): a SystemC process, kept apart from
// cli/progress.h so that the interpreter's progress needs no SystemC (the fuzz build has none).
#pragma once

#include <functional>

#include <systemc>

#include "cli/progress.h"
#include "model/common/stats.h"

namespace simtlm::cli {

// A SystemC process that reports the timing model's progress (gpu.cycles and the SMs' issued
// warp instructions from the statistics) every 20,000 clock periods while `running` says the
// run goes on. It only reads counters: it never changes what the model does.
class ProgressMonitor : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ProgressMonitor);
  ProgressMonitor(sc_core::sc_module_name name, const stats::Registry& registry, sc_core::sc_time period,
                  std::function<bool()> running, Progress& progress);

 private:
  void wake();
  const stats::Registry& registry_;
  sc_core::sc_time interval_;
  std::function<bool()> running_;
  Progress& progress_;
};

}  // namespace simtlm::cli
