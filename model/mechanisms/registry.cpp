#include "model/mechanisms/registry.h"

#include "model/mechanisms/darsie/darsie_mechanism.h"

namespace simtlm::mechanisms {

namespace {

using Mechanism = config::Mechanism;

struct Entry {
  MechanismInfo info;
  sm::MechanismResources (*resources)(const config::GpuConfig&);
  std::unique_ptr<sm::SmMechanism> (*attach)(sm::SmContext&, stats::Registry&);
};

// The DARSIE variants are flags of one mechanism.
template <bool IgnoreStores, bool NoCfSync>
std::unique_ptr<sm::SmMechanism> attachDarsie(sm::SmContext& sm, stats::Registry& r) {
  return std::make_unique<darsie::DarsieMechanism>(sm, r, IgnoreStores, NoCfSync);
}

// One row per configuration name (config::mechanismName); baseline has none.
const Entry kMechanisms[] = {
    {{Mechanism::Darsie, "DARSIE: followers skip thread-block-redundant instructions (DARSIE Sec. 4)",
      "darsie.skipped"},
     darsie::DarsieMechanism::resources,
     attachDarsie<false, false>},
    {{Mechanism::DarsieIgnoreStore, "DARSIE whose stores clear no load entry (DARSIE Fig. 8; idealized time)",
      "darsie.skipped"},
     darsie::DarsieMechanism::resources,
     attachDarsie<true, false>},
    {{Mechanism::DarsieNoCfSync,
      "DARSIE without branch barriers or freelist synchronization (DARSIE Fig. 12; idealized time)",
      "darsie.skipped"},
     darsie::DarsieMechanism::resources,
     attachDarsie<false, true>},
};

const Entry* find(Mechanism m) {
  for (const Entry& e : kMechanisms)
    if (e.info.id == m) return &e;
  return nullptr;
}

}  // namespace

const std::vector<MechanismInfo>& registered() {
  static const std::vector<MechanismInfo> all = [] {
    std::vector<MechanismInfo> v{{Mechanism::Baseline, "the baseline SM: no mechanism attached", ""}};
    for (const Entry& e : kMechanisms) v.push_back(e.info);
    return v;
  }();
  return all;
}

const MechanismInfo& infoOf(Mechanism m) {
  for (const MechanismInfo& i : registered())
    if (i.id == m) return i;
  return registered().front();
}

sm::MechanismResources resourcesFor(const config::GpuConfig& cfg) {
  const Entry* e = find(cfg.mechanism);
  return e ? e->resources(cfg) : sm::MechanismResources{};
}

std::unique_ptr<sm::SmMechanism> attach(const config::GpuConfig& cfg, sm::SmContext& sm, stats::Registry& stats) {
  const Entry* e = find(cfg.mechanism);
  return e ? e->attach(sm, stats) : nullptr;
}

}  // namespace simtlm::mechanisms
