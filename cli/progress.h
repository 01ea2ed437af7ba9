// Progress of a long run on a terminal (docs/cli.md): when stderr is a terminal, a line at most
// every few seconds with cycles, warp instructions, their rates and, where a run limit is set,
// the time until the run reaches it. Nothing when stderr is not a terminal (logs, pipes, tests).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

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

}  // namespace simtlm::cli
