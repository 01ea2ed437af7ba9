// The mechanisms the timing model knows, by configuration name (docs/mechanisms.md): what each
// reserves in the SM before it is built, and how it attaches to an SM. The SM asks here and
// never names a mechanism itself.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/sm/sm_mechanism.h"

namespace simtlm::mechanisms {

// A configuration name the timing model runs, baseline included.
struct MechanismInfo {
  config::Mechanism id;
  std::string summary;      // one line for `simtlm mechanisms`
  // The per-SM statistic (after "smN.") counting warp instructions the mechanism removed
  // without issuing them, or empty: issued plus removed equals the interpreter's count.
  std::string removedStat;
};
const std::vector<MechanismInfo>& registered();
const MechanismInfo& infoOf(config::Mechanism m);

// Registers, banks and the like the configured mechanism needs in each SM (none for baseline).
sm::MechanismResources resourcesFor(const config::GpuConfig& cfg);
// The configured mechanism attached to one SM, or null for baseline. Its statistics are
// registered in `stats` under the SM's prefix.
std::unique_ptr<sm::SmMechanism> attach(const config::GpuConfig& cfg, sm::SmContext& sm, stats::Registry& stats);

}  // namespace simtlm::mechanisms
