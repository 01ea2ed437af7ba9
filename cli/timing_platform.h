// The timing model's platform as the command line builds it (`simtlm run`, `simtlm stats`).
#pragma once

#include <memory>
#include <string>

#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/gpu/platform.h"

namespace simtlm::cli {

// Configures `cfg` for the mechanism or composition `mechanism` (a name
// mechanisms::parseMechanisms accepts) and builds the default platform (model/gpu/platform.h) on
// it: every statistic of the GPU, the mechanism and the memory side is registered in `registry`
// once this returns. The platform keeps references to `cfg` and `registry`: both must outlive
// it. Launches come from `jobs`; nothing runs until sc_start. One platform per process.
std::unique_ptr<gpu::Platform> buildPlatform(config::GpuConfig& cfg, const std::string& mechanism,
                                             stats::Registry& registry, gpu::HostDriver::JobSource jobs);

}  // namespace simtlm::cli
