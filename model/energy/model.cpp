#include "model/energy/model.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "model/energy/catalogue.h"

namespace simtlm::energy {
namespace {

// The register-file, collector and copy energies of a table are per 32-lane (128-byte) access.
constexpr double kTableWarpLanes = 32;

std::string range(double v, double lo, double hi, const char* unit) {
  std::ostringstream s;
  s << v << " " << unit << " is outside [" << lo << ", " << hi << "] " << unit;
  return s.str();
}

}  // namespace

RunInfo runInfoFromConfig(const nlohmann::json& config, const std::string& mechanism) {
  RunInfo r;
  r.numSms = config.value("gpu.num_sms", 1);
  r.laneGroup = config.value("regfile.lane_group", 8);
  r.l2Line = config.value("l2.line", 128);
  r.clockMhz = config.value("gpu.core_clock_mhz", 1480.0);
  r.mechanism = mechanism;
  r.l2 = config.value("l2.enabled", true);
  return r;
}

int EnergyModel::counterIndex(const std::string& name) {
  auto [it, added] = counterIndex_.emplace(name, static_cast<int>(counters_.size()));
  if (added) counters_.push_back(name);
  return it->second;
}

void EnergyModel::addStatic(int component, int sm, double pjPerCycle) {
  if (pjPerCycle == 0) return;
  const double g = table_.gatedSmLeakage.value;
  if (sm < 0) {
    terms_.push_back({counterIndex("gpu.cycles"), pjPerCycle, component, -1, -1});
    return;
  }
  // An SM leaks while clocked (sm<N>.cycles) and, by the fraction g, while gated
  // (gpu.cycles - sm<N>.cycles): g x gpu.cycles + (1 - g) x sm<N>.cycles.
  if (g != 0) terms_.push_back({counterIndex("gpu.cycles"), g * pjPerCycle, component, -1, sm});
  if (g != 1)
    terms_.push_back({counterIndex("sm" + std::to_string(sm) + ".cycles"), (1 - g) * pjPerCycle, component, -1, sm});
}

EnergyModel::EnergyModel(const EnergyTable& table, const RunInfo& run, const OperatingPoint& op)
    : table_(table), run_(run) {
  voltage_ = op.voltageV > 0 ? op.voltageV : table.voltageV.value;
  clock_ = op.clockMhz > 0 ? op.clockMhz : run.clockMhz;
  if (voltage_ < kMinVoltage || voltage_ > kMaxVoltage)
    throw std::invalid_argument("energy voltage " + range(voltage_, kMinVoltage, kMaxVoltage, "V"));
  if (clock_ < kMinClockMhz || clock_ > kMaxClockMhz)
    throw std::invalid_argument("energy clock " + range(clock_, kMinClockMhz, kMaxClockMhz, "MHz"));
  if (run.numSms < 1 || run.laneGroup < 1 || run.l2Line < 1)
    throw std::invalid_argument("energy: the run's configuration is incomplete (gpu.num_sms, regfile.lane_group, l2.line)");
  const double ratio = voltage_ / table.voltageV.value;
  dynScale_ = ratio * ratio;
  statScale_ = ratio;
  const double pjPerMwCycle = 1e3 / clock_;  // 1 mW for one cycle of clock_ MHz, in pJ

  const auto& cat = catalogue();
  for (size_t c = 0; c < cat.size(); ++c) {
    const ComponentSpec& spec = cat[c];
    const ComponentEntry& entry = table.components[c];
    active_.push_back(mechanismUses(run.mechanism, spec.mechanism) && (spec.needs != "l2" || run.l2));
    if (!active_.back()) continue;
    const double dyn = spec.onChip ? dynScale_ : 1.0, stat = spec.onChip ? statScale_ : 1.0;
    const int sms = spec.scope == Scope::PerSm ? run.numSms : 1;
    for (int sm = 0; sm < sms; ++sm) {
      const int smIndex = spec.scope == Scope::PerSm ? sm : -1;
      const std::string prefix = smIndex >= 0 ? "sm" + std::to_string(sm) + "." : "";
      for (size_t e = 0; e < spec.events.size(); ++e) {
        const double pj = entry.events[e].value * dyn;
        for (const Input& in : spec.events[e].inputs) {
          double w = 1;
          if (in.weight == Weight::Minus) w = -1;
          if (in.weight == Weight::LaneGroup) w = run.laneGroup / kTableWarpLanes;
          if (in.weight == Weight::PerL2Line) w = 1.0 / run.l2Line;
          if (pj != 0)
            terms_.push_back({counterIndex(prefix + in.counter), pj * w, static_cast<int>(c), static_cast<int>(e), smIndex});
          else
            counterIndex(prefix + in.counter);  // still read, so that a missing one is reported
        }
      }
      addStatic(static_cast<int>(c), smIndex, entry.staticMw.value * stat * pjPerMwCycle);
    }
  }
  counterIndex("gpu.cycles");
}

std::vector<double> EnergyModel::valuesOf(const nlohmann::json& stats, std::vector<std::string>* missing) const {
  std::vector<double> v(counters_.size(), 0.0);
  for (size_t i = 0; i < counters_.size(); ++i) {
    auto it = stats.find(counters_[i]);
    if (it != stats.end() && it->is_number()) v[i] = it->get<double>();
    else if (missing) missing->push_back(counters_[i]);
  }
  return v;
}

Breakdown EnergyModel::evaluate(const std::vector<double>& values) const {
  const auto& cat = catalogue();
  Breakdown b;
  b.components.resize(cat.size());
  b.events.resize(cat.size());
  for (size_t c = 0; c < cat.size(); ++c) b.events[c].assign(cat[c].events.size(), 0.0);
  b.sms.resize(static_cast<size_t>(run_.numSms));
  for (const Term& t : terms_) {
    const double e = values[static_cast<size_t>(t.counter)] * t.pjPerCount;
    Breakdown::Part& comp = b.components[static_cast<size_t>(t.component)];
    Breakdown::Part& where = t.sm >= 0 ? b.sms[static_cast<size_t>(t.sm)] : b.gpuWide;
    if (t.event >= 0) {
      comp.dynamic += e;
      where.dynamic += e;
      b.events[static_cast<size_t>(t.component)][static_cast<size_t>(t.event)] += e;
    } else {
      comp.statik += e;
      where.statik += e;
    }
  }
  for (size_t c = 0; c < cat.size(); ++c) {
    b.total.dynamic += b.components[c].dynamic;
    b.total.statik += b.components[c].statik;
    if (!cat[c].mechanism.empty()) {
      b.overhead.dynamic += b.components[c].dynamic;
      b.overhead.statik += b.components[c].statik;
    }
  }
  for (size_t i = 0; i < counters_.size(); ++i)
    if (counters_[i] == "gpu.cycles") b.cycles = values[i];
  return b;
}

}  // namespace simtlm::energy
