#include "cli/progress_monitor.h"

#include <string>

namespace simtlm::cli {

void ProgressMonitor::cycle() {
  if (++calls_ % kInterval != 0) return;
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
}

}  // namespace simtlm::cli
