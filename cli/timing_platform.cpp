#include "cli/timing_platform.h"

#include <cstdlib>

#include "model/mechanisms/registry.h"

namespace simtlm::cli {

std::unique_ptr<gpu::Platform> buildPlatform(config::GpuConfig& cfg, const std::string& mechanism,
                                             stats::Registry& registry, gpu::HostDriver::JobSource jobs) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);  // the banner would mix into our output
  mechanisms::configure(cfg, mechanism);  // one mechanism or a composition
  return std::make_unique<gpu::Platform>("top", cfg, registry, std::move(jobs));
}

}  // namespace simtlm::cli
