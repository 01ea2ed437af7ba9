// Reporting a scenario run: the human summary and the JSON result.
#include <cstdio>

#include "cli/scenario_run.h"

namespace simtlm::scenario {
namespace {

uint64_t stat(const nlohmann::json& stats, const char* name) { return stats.value(name, uint64_t{0}); }

std::string percent(const nlohmann::json& stats, const char* name) {
  uint64_t all = stat(stats, "interp.warp_instructions");
  char b[32];
  std::snprintf(b, sizeof b, "%.1f%%", all ? 100.0 * static_cast<double>(stat(stats, name)) / static_cast<double>(all) : 0.0);
  return b;
}

nlohmann::json dim(const isa::Dim3& d) { return {d.x, d.y, d.z}; }

}  // namespace

void printScenarioResult(std::ostream& out, const ScenarioResult& r) {
  const Scenario& s = *r.scenario;
  out << "scenario " << s.name << (s.description.empty() ? "" : ": " + s.description) << "\n";
  out << "  " << s.file << "; config " << (s.configFile.empty() ? "defaults" : s.configFile);
  if (!s.sets.empty()) out << " + " << s.sets.size() << " override" << (s.sets.size() > 1 ? "s" : "");
  out << "; mechanism " << s.mechanism << "; functional interpreter\n";
  for (size_t i = 0; i < r.launches.size(); ++i) {
    const auto& l = r.launches[i];
    out << "  launch " << i + 1 << ": " << l.label << ", grid " << l.launch.grid.str() << ", block "
        << l.launch.block.str() << ", warp size " << l.launch.warpSize << ": "
        << stat(l.stats, "interp.warp_instructions") << " warp instructions\n";
  }
  out << "  warp instructions " << stat(r.stats, "interp.warp_instructions") << ", thread instructions "
      << stat(r.stats, "interp.thread_instructions");
  if (r.limitStudy && r.stats.contains("limit.tb_redundant"))
    out << ", TB-redundant " << percent(r.stats, "limit.tb_redundant");
  out << "\n";
  if (!r.error.empty()) out << "  the run stopped: " << r.error << "\n";
  size_t failed = 0;
  for (size_t i = 0; i < s.checks.size(); ++i) {
    const auto& c = s.checks[i];
    const auto& o = r.checks[i];
    failed += !o.passed;
    out << "  check " << i + 1 << " (line " << c.where.line << ") " << c.describe() << ": "
        << (o.passed ? "PASSED" : "FAILED");
    if (!o.message.empty() && (!o.passed || c.kind == Check::Kind::Stat)) out << " (" << o.message << ")";
    out << "\n";
  }
  out << "scenario " << s.name << ": " << (r.passed ? "PASSED" : "FAILED");
  if (!s.checks.empty()) out << " (" << s.checks.size() - failed << " of " << s.checks.size() << " checks passed)";
  out << "\n";
}

nlohmann::json toJson(const ScenarioResult& r) {
  const Scenario& s = *r.scenario;
  nlohmann::json j;
  j["command"] = "emulate";
  j["engine"] = "interpreter";
  j["scenario"] = {{"name", s.name}, {"file", s.file}, {"description", s.description}};
  j["mechanism"] = s.mechanism;
  j["config_file"] = s.configFile;
  nlohmann::json sets = nlohmann::json::object();
  for (const auto& [k, v] : s.sets) sets[k] = v;
  j["config_set"] = sets;
  j["config"] = config::toJson(s.config);
  j["launches"] = nlohmann::json::array();
  for (const auto& l : r.launches)
    j["launches"].push_back({{"label", l.label}, {"grid", dim(l.launch.grid)}, {"block", dim(l.launch.block)},
                             {"warp_size", l.launch.warpSize}, {"stats", l.stats}});
  j["stats"] = r.stats;
  if (!r.error.empty()) j["error"] = r.error;
  j["checks"] = nlohmann::json::array();
  for (size_t i = 0; i < s.checks.size(); ++i)
    j["checks"].push_back({{"check", s.checks[i].describe()}, {"line", s.checks[i].where.line},
                           {"status", r.checks[i].passed ? "passed" : "failed"}, {"message", r.checks[i].message}});
  j["result"] = r.passed ? "passed" : "failed";
  j["host"] = {{"seconds", r.hostSeconds}};  // wall time: not deterministic, kept out of stats
  return j;
}

}  // namespace simtlm::scenario
