// The timing model's progress reporter (docs/cli.md), kept apart from cli/progress.h so that the
// interpreter's progress needs no model (the fuzz build has none).
#pragma once

#include <cstdint>

#include "cli/progress.h"
#include "model/common/stats.h"

namespace simtlm::cli {

// Reports the timing model's progress (gpu.cycles and the SMs' issued warp instructions from
// the statistics) every 20,000 GPU cycles. The GPU calls cycle() after each cycle
// (gpu::Gpu::observeCycles): the monitor has no SystemC process of its own, whose timed events
// would change the order of the model's processes due at the same instant and so the run's
// cycles (a terminal run of vecadd took 361,439 cycles against 371,364 in a pipe before).
class ProgressMonitor {
 public:
  ProgressMonitor(const stats::Registry& registry, Progress& progress) : registry_(registry), progress_(progress) {}
  void cycle();

 private:
  static constexpr uint64_t kInterval = 20000;
  const stats::Registry& registry_;
  Progress& progress_;
  uint64_t calls_ = 0;
};

}  // namespace simtlm::cli
