#include "model/mechanisms/registry.h"

#include "model/mechanisms/darsie/darsie_mechanism.h"

namespace simtlm::mechanisms {

namespace {

using Mechanism = config::Mechanism;

struct Entry {
  Mechanism mechanism;
  sm::MechanismResources (*resources)(const config::GpuConfig&);
  std::unique_ptr<sm::SmMechanism> (*attach)(sm::SmContext&, stats::Registry&);
};

// One row per configuration name (config::mechanismName); baseline has none.
const Entry kMechanisms[] = {
    {Mechanism::Darsie, darsie::DarsieMechanism::resources,
     [](sm::SmContext& sm, stats::Registry& r) -> std::unique_ptr<sm::SmMechanism> {
       return std::make_unique<darsie::DarsieMechanism>(sm, r, false, false);
     }},
    {Mechanism::DarsieIgnoreStore, darsie::DarsieMechanism::resources,
     [](sm::SmContext& sm, stats::Registry& r) -> std::unique_ptr<sm::SmMechanism> {
       return std::make_unique<darsie::DarsieMechanism>(sm, r, true, false);
     }},
    {Mechanism::DarsieNoCfSync, darsie::DarsieMechanism::resources,
     [](sm::SmContext& sm, stats::Registry& r) -> std::unique_ptr<sm::SmMechanism> {
       return std::make_unique<darsie::DarsieMechanism>(sm, r, false, true);
     }},
};

const Entry* find(Mechanism m) {
  for (const Entry& e : kMechanisms)
    if (e.mechanism == m) return &e;
  return nullptr;
}

}  // namespace

sm::MechanismResources resourcesFor(const config::GpuConfig& cfg) {
  const Entry* e = find(cfg.mechanism);
  return e ? e->resources(cfg) : sm::MechanismResources{};
}

std::unique_ptr<sm::SmMechanism> attach(const config::GpuConfig& cfg, sm::SmContext& sm, stats::Registry& stats) {
  const Entry* e = find(cfg.mechanism);
  return e ? e->attach(sm, stats) : nullptr;
}

}  // namespace simtlm::mechanisms
