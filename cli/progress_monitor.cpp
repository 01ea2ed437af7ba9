#include "cli/progress_monitor.h"

#include <string>

namespace simtlm::cli {

ProgressMonitor::ProgressMonitor(sc_core::sc_module_name name, const stats::Registry& registry,
                                 sc_core::sc_time period, std::function<bool()> running, Progress& progress)
    : sc_module(name), registry_(registry), interval_(period * 20000.0), running_(std::move(running)),
      progress_(progress) {
  SC_METHOD(wake);  // runs once at start, then every interval while the run goes on
}

void ProgressMonitor::wake() {
  if (!running_()) return;  // no trigger left: the simulation may end
  // Looked up each time: a GPU that recovers from a fault rebuilds its units and their counters.
  uint64_t cycles = 0, issued = 0;
  for (const auto& e : registry_.entries()) {
    if (!e.counter) continue;
    if (e.name == "gpu.cycles") cycles = *e.counter;
    const auto dot = e.name.find('.');
    if (e.name.rfind("sm", 0) == 0 && dot != std::string::npos &&
        e.name.compare(dot, std::string::npos, ".issue.warp_instructions") == 0)
      issued += *e.counter;
  }
  progress_.update(cycles, issued);
  next_trigger(interval_);
}

}  // namespace simtlm::cli
