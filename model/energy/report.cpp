// The energy report of a run: JSON (the `energy` object of a result file) and the human lines.
#include <algorithm>
#include <cstdio>
#include <set>

#include "model/energy/catalogue.h"
#include "model/energy/model.h"

namespace simtlm::energy {
namespace {

// "sm12.icache.fills" -> "sm*.icache.fills"; other names unchanged.
std::string perSmPattern(const std::string& name) {
  if (name.size() < 4 || name.compare(0, 2, "sm") != 0) return name;
  size_t i = 2;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9') ++i;
  if (i == 2 || i >= name.size() || name[i] != '.') return name;
  return "sm*" + name.substr(i);
}

nlohmann::json part(const Breakdown::Part& p) {
  return {{"dynamic_pj", p.dynamic}, {"static_pj", p.statik}, {"total_pj", p.total()}};
}

// Energies of a report in uJ, or in nJ when the whole run is below 1 uJ (tiny kernels).
struct Unit {
  double perPj;
  const char* name;
};
Unit unitFor(double totalPj) { return totalPj >= 1e6 ? Unit{1e-6, "uJ"} : Unit{1e-3, "nJ"}; }

std::string in(const Unit& u, double pj) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", pj * u.perPj);
  return b;
}

}  // namespace

nlohmann::json toJson(const EnergyModel& m, const Breakdown& b, const std::vector<std::string>& missing) {
  const auto& cat = catalogue();
  const EnergyTable& t = m.table();
  const double seconds = m.seconds(b.cycles);
  nlohmann::json j;
  j["table"] = {{"name", t.name}, {"file", t.file}, {"description", t.description}, {"node_nm", t.nodeNm.value},
                {"voltage_v", t.voltageV.value}, {"clock_mhz", t.clockMhz.value}};
  j["operating_point"] = {{"voltage_v", m.voltageV()}, {"clock_mhz", m.clockMhz()},
                          {"dynamic_scale", m.dynamicScale()}, {"static_scale", m.staticScale()}};
  j["mechanism"] = m.run().mechanism;
  j["cycles"] = b.cycles;
  j["seconds"] = seconds;
  j["total_pj"] = b.total.total();
  j["dynamic_pj"] = b.total.dynamic;
  j["static_pj"] = b.total.statik;
  j["average_power_w"] = seconds > 0 ? nlohmann::json(b.total.total() * 1e-12 / seconds) : nlohmann::json();
  j["edp_js"] = b.total.total() * 1e-12 * seconds;
  j["overhead"] = part(b.overhead);
  j["overhead"]["percent_of_dynamic"] = b.total.dynamic > 0 ? 100.0 * b.overhead.dynamic / b.total.dynamic : 0.0;
  j["gpu_wide"] = part(b.gpuWide);
  nlohmann::json comps = nlohmann::json::object();
  nlohmann::json order = nlohmann::json::array();
  for (size_t c = 0; c < cat.size(); ++c) {
    if (!m.active(c)) continue;
    nlohmann::json x = part(b.components[c]);
    x["title"] = cat[c].title;
    x["overhead"] = !cat[c].mechanism.empty();
    x["events_pj"] = nlohmann::json::object();
    for (size_t e = 0; e < cat[c].events.size(); ++e) x["events_pj"][cat[c].events[e].name] = b.events[c][e];
    comps[cat[c].name] = x;
    order.push_back(cat[c].name);
  }
  j["components"] = comps;
  j["component_order"] = order;
  j["sms"] = nlohmann::json::array();
  for (const auto& s : b.sms) j["sms"].push_back(part(s));
  std::set<std::string> miss;
  for (const auto& n : missing) miss.insert(perSmPattern(n));
  j["missing_counters"] = miss;
  return j;
}

std::string formatReport(const EnergyModel& m, const Breakdown& b) {
  const auto& cat = catalogue();
  const EnergyTable& t = m.table();
  const double seconds = m.seconds(b.cycles), total = b.total.total();
  const Unit u = unitFor(total);
  auto uj = [&](double pj) { return in(u, pj); };
  const std::string un = u.name;
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "  energy: %s %s (dynamic %s, static %s), average power %.3f W over %.3f us, EDP %.4g J*s\n",
                uj(total).c_str(), u.name, uj(b.total.dynamic).c_str(), uj(b.total.statik).c_str(),
                seconds > 0 ? total * 1e-12 / seconds : 0.0, seconds * 1e6, total * 1e-12 * seconds);
  out += line;
  std::snprintf(line, sizeof line, "    table %s (%s): %g nm, %g V, made for %g MHz; evaluated at %g V, %g MHz\n",
                t.name.c_str(), t.file.c_str(), t.nodeNm.value, t.voltageV.value, t.clockMhz.value, m.voltageV(),
                m.clockMhz());
  out += line;
  std::snprintf(line, sizeof line, "    %-22s %12s %12s %12s %7s\n", "component", ("dynamic " + un).c_str(),
                ("static " + un).c_str(), ("total " + un).c_str(), "share");
  out += line;
  for (size_t c = 0; c < cat.size(); ++c) {
    if (!m.active(c)) continue;
    const auto& p = b.components[c];
    std::snprintf(line, sizeof line, "    %-22s %12s %12s %12s %6.2f%%\n", cat[c].name.c_str(), uj(p.dynamic).c_str(),
                  uj(p.statik).c_str(), uj(p.total()).c_str(), total > 0 ? 100.0 * p.total() / total : 0.0);
    out += line;
  }
  if (b.overhead.total() > 0 || m.run().mechanism != "baseline") {
    std::snprintf(line, sizeof line, "    %-22s %12s %12s %12s %6.2f%%  (%.3f%% of dynamic energy)\n",
                  "mechanism overhead", uj(b.overhead.dynamic).c_str(), uj(b.overhead.statik).c_str(),
                  uj(b.overhead.total()).c_str(), total > 0 ? 100.0 * b.overhead.total() / total : 0.0,
                  b.total.dynamic > 0 ? 100.0 * b.overhead.dynamic / b.total.dynamic : 0.0);
    out += line;
  }
  if (!b.sms.empty()) {
    auto cmp = [](const Breakdown::Part& a, const Breakdown::Part& c) { return a.total() < c.total(); };
    const auto lo = std::min_element(b.sms.begin(), b.sms.end(), cmp), hi = std::max_element(b.sms.begin(), b.sms.end(), cmp);
    std::snprintf(line, sizeof line, "    per SM: min %s %s (sm%ld), max %s %s (sm%ld); GPU-wide (L2, interconnect, DRAM, TLM) %s %s\n",
                  uj(lo->total()).c_str(), u.name, static_cast<long>(lo - b.sms.begin()), uj(hi->total()).c_str(),
                  u.name, static_cast<long>(hi - b.sms.begin()), uj(b.gpuWide.total()).c_str(), u.name);
    out += line;
  }
  return out;
}

}  // namespace simtlm::energy
