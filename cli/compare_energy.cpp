#include "cli/compare_energy.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "model/energy/catalogue.h"

namespace simtlm::cli {
namespace {

// Components charged in any column, in the catalogue's order.
std::vector<std::string> components(const std::vector<EnergyColumn>& cols) {
  std::vector<std::string> out;
  for (const auto& spec : energy::catalogue())
    for (const auto& c : cols)
      if (c.have && c.report["components"].contains(spec.name)) {
        out.push_back(spec.name);
        break;
      }
  return out;
}

double componentPj(const EnergyColumn& c, const std::string& name) {
  if (!c.have || !c.report["components"].contains(name)) return 0;
  return c.report["components"][name].value("total_pj", 0.0);
}

std::string cell(double v, double ref, bool haveRef, const char* unitFormat) {
  char b[64];
  std::snprintf(b, sizeof b, unitFormat, v);
  std::string s = b;
  if (haveRef && ref > 0) {
    std::snprintf(b, sizeof b, " (%.3f)", v / ref);
    s += b;
  } else {
    s += " (-)";
  }
  return s;
}

}  // namespace

void printEnergyTable(const std::vector<EnergyColumn>& cols, size_t reference) {
  const EnergyColumn& ref = cols[reference];
  size_t w = 22;
  for (const auto& c : cols) w = std::max(w, c.mechanism.size() + 2);
  auto line = [&](const std::string& label, auto value) {
    std::printf("  %-26s", label.c_str());
    for (const auto& c : cols) std::printf("%*s", static_cast<int>(w), c.have ? value(c).c_str() : "-");
    std::printf("\n");
  };
  auto uj = [&](auto get) {
    return [&, get](const EnergyColumn& c) { return cell(get(c) * 1e-6, get(ref) * 1e-6, ref.have, "%.3f"); };
  };
  std::printf("  energy, uJ (x %s)\n", ref.mechanism.c_str());
  line("", [](const EnergyColumn& c) { return c.mechanism; });
  line("total", uj([](const EnergyColumn& c) { return c.report.value("total_pj", 0.0); }));
  line("dynamic", uj([](const EnergyColumn& c) { return c.report.value("dynamic_pj", 0.0); }));
  line("static", uj([](const EnergyColumn& c) { return c.report.value("static_pj", 0.0); }));
  for (const auto& name : components(cols)) {
    bool any = false;
    for (const auto& c : cols) any = any || componentPj(c, name) > 0;
    if (any) line("  " + name, uj([name](const EnergyColumn& c) { return componentPj(c, name); }));
  }
  line("mechanism overhead", [&](const EnergyColumn& c) {
    char b[64];
    const double o = c.report["overhead"].value("total_pj", 0.0);
    std::snprintf(b, sizeof b, "%.3f (%.2f%% dyn)", o * 1e-6, c.report["overhead"].value("percent_of_dynamic", 0.0));
    return std::string(b);
  });
  line("average power, W", [&](const EnergyColumn& c) {
    const auto& p = c.report["average_power_w"];
    return cell(p.is_number() ? p.get<double>() : 0.0,
                ref.report["average_power_w"].is_number() ? ref.report["average_power_w"].get<double>() : 0.0, ref.have, "%.3f");
  });
  line("energy-delay, J*s", [&](const EnergyColumn& c) {
    return cell(c.report.value("edp_js", 0.0), ref.report.value("edp_js", 0.0), ref.have, "%.4g");
  });
}

nlohmann::json energySummaryJson(const EnergyColumn& col, const EnergyColumn& ref) {
  if (!col.have) return nullptr;
  const nlohmann::json& e = col.report;
  auto norm = [&](double v, double r) { return ref.have && r > 0 ? nlohmann::json(v / r) : nlohmann::json(); };
  nlohmann::json j = {{"total_pj", e.value("total_pj", 0.0)}, {"dynamic_pj", e.value("dynamic_pj", 0.0)},
                      {"static_pj", e.value("static_pj", 0.0)}, {"overhead_pj", e["overhead"].value("total_pj", 0.0)},
                      {"average_power_w", e["average_power_w"]}, {"edp_js", e.value("edp_js", 0.0)},
                      {"table", e["table"].value("name", "")}};
  j["components_pj"] = nlohmann::json::object();
  j["normalized"] = {{"total", norm(e.value("total_pj", 0.0), ref.report.value("total_pj", 0.0))},
                     {"edp", norm(e.value("edp_js", 0.0), ref.report.value("edp_js", 0.0))}};
  j["normalized"]["components"] = nlohmann::json::object();
  for (const auto& [name, c] : e["components"].items()) {
    j["components_pj"][name] = c.value("total_pj", 0.0);
    j["normalized"]["components"][name] = norm(c.value("total_pj", 0.0), componentPj(ref, name));
  }
  return j;
}

}  // namespace simtlm::cli
