// Progress of a long run on a terminal (docs/cli.md): when stderr is a terminal, a line at most
// every few seconds with cycles, warp instructions, their rates and, where a run limit is set,
// the time until the run reaches it. Nothing when stderr is not a terminal (logs, pipes, tests).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <systemc>

#include "model/common/stats.h"

namespace simtlm::cli {

class Progress {
 public:
  // `what` names the engine ("interpreter", "timing model"); limits of 0 mean none.
  Progress(std::string what, uint64_t maxCycles, uint64_t maxInstructions);
  bool enabled() const { return enabled_; }
  // Prints a line when the last one is old enough. `cycles` is 0 for the interpreter.
  void update(uint64_t cycles, uint64_t instructions);

 private:
  using Clock = std::chrono::steady_clock;
  std::string what_;
  uint64_t maxCycles_, maxInstructions_;
  bool enabled_;
  double interval_;  // seconds between lines (SIMTLM_PROGRESS_INTERVAL, default 3)
  Clock::time_point start_, last_;
};

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
