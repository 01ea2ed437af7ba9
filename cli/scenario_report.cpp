// Reporting a scenario run: the human summary and the JSON result.
#include <cstdio>

#include "cli/scenario_run.h"

#include "cli/interp_stats.h"

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

// The sum over SMs of sm<N>.<suffix> (0 when no SM has it).
double perSm(const nlohmann::json& stats, const std::string& suffix) {
  double total = 0;
  for (int i = 0;; ++i) {
    auto it = stats.find("sm" + std::to_string(i) + "." + suffix);
    if (it == stats.end()) {
      if (!stats.contains("sm" + std::to_string(i) + ".cycles")) break;
      continue;
    }
    total += it->get<double>();
  }
  return total;
}

std::string num(double v) {
  char b[48];
  if (v == static_cast<double>(static_cast<uint64_t>(v))) std::snprintf(b, sizeof b, "%llu", static_cast<unsigned long long>(v));
  else std::snprintf(b, sizeof b, "%.3f", v);
  return b;
}

// The short human table of a timing run: cycles and IPC, then one line per part of the machine,
// each listing the statistics the model produced.
void printTimingTable(std::ostream& out, const ScenarioResult& r) {
  const nlohmann::json& st = r.stats;
  const double cycles = st.value("gpu.cycles", 0.0);
  const double warp = perSm(st, "issue.warp_instructions"), thread = perSm(st, "issue.thread_instructions");
  char b[256];
  std::snprintf(b, sizeof b, "  cycles %s, IPC %.2f warp / %.1f thread instructions per cycle\n", num(cycles).c_str(),
                cycles ? warp / cycles : 0.0, cycles ? thread / cycles : 0.0);
  out << b;
  struct Line {
    const char* title;
    std::vector<std::pair<const char*, std::string>> items;  // label, per-SM suffix or global name
  };
  const Line lines[] = {
      {"instructions", {{"fetched", "sm:frontend.fetched"}, {"issued", "sm:issue.warp_instructions"},
                        {"thread", "sm:issue.thread_instructions"}, {"I-buffer flushes", "sm:frontend.flushes"}}},
      {"I-cache", {{"accesses", "sm:icache.accesses"}, {"hits", "sm:icache.hits"}, {"misses", "sm:icache.misses"}}},
      {"issue stalls (scheduler-cycles)",
       {{"no ready warp", "sm:issue.stall_no_ready"}, {"empty I-buffer", "sm:issue.stall.empty_ibuffer"},
        {"dependence", "sm:issue.stall.dependence"}, {"barrier", "sm:issue.stall.barrier"},
        {"memory", "sm:issue.stall.memory"}, {"structural", "sm:issue.stall.structural"}}},
      {"register file", {{"reads", "sm:regfile.reads"}, {"writes", "sm:regfile.writes"},
                         {"bank conflicts", "sm:regfile.conflicts"}}},
      {"shared memory", {{"accesses", "sm:shared.accesses"}, {"conflict cycles", "sm:shared.conflict_cycles"}}},
      {"L1", {{"accesses", "sm:l1.accesses"}, {"hits", "sm:l1.hits"}, {"misses", "sm:l1.misses"}}},
      {"L2", {{"reads", "l2.reads"}, {"hits", "l2.hits"}, {"misses", "l2.misses"}}},
      {"DRAM", {{"reads", "dram.reads"}, {"writes", "dram.writes"}, {"atomics", "dram.atomics"}, {"bytes", "dram.bytes"}}},
      {"TLM", {{"transactions", "tlm.transactions"}, {"reads", "tlm.reads"}, {"writes", "tlm.writes"},
               {"mean latency ps", "tlm.avg_latency_ps"}}},
      {"blocks", {{"completed", "sm:blocks"}, {"barriers", "sm:barriers"}, {"gated SM-cycles", "gpu.gated_sm_cycles"}}},
  };
  for (const Line& l : lines) {
    std::string text;
    for (const auto& [label, name] : l.items) {
      const bool sm = name.rfind("sm:", 0) == 0;
      const std::string key = sm ? name.substr(3) : name;
      const bool present = sm ? st.contains("sm0." + key) : st.contains(key);
      if (!present) continue;
      const double v = sm ? perSm(st, key) : st[key].get<double>();
      text += (text.empty() ? "" : ", ") + std::string(label) + " " + num(v);
    }
    if (!text.empty()) out << "  " << l.title << ": " << text << "\n";
  }
  if (r.hostSeconds > 0) {
    std::snprintf(b, sizeof b, "  host: %.2f s, %.3f M warp instructions/s, %.0f cycles/s\n", r.hostSeconds,
                  warp / r.hostSeconds / 1e6, cycles / r.hostSeconds);
    out << b;
  }
}

}  // namespace

void printScenarioResult(std::ostream& out, const ScenarioResult& r) {
  const Scenario& s = *r.scenario;
  out << "scenario " << s.name << (s.description.empty() ? "" : ": " + s.description) << "\n";
  out << "  " << s.file << "; config " << (s.configFile.empty() ? "defaults" : s.configFile);
  if (!s.sets.empty()) out << " + " << s.sets.size() << " override" << (s.sets.size() > 1 ? "s" : "");
  const bool timing = r.engine == Engine::Timing;
  out << "; mechanism " << s.mechanism << "; " << (timing ? "timing model" : "functional interpreter") << "\n";
  for (size_t i = 0; i < r.launches.size(); ++i) {
    const auto& l = r.launches[i];
    out << "  launch " << i + 1 << ": " << l.label << ", grid " << l.launch.grid.str() << ", block "
        << l.launch.block.str() << ", warp size " << l.launch.warpSize << ": ";
    if (timing) out << r.launchDeltas.value(i, "gpu.cycles") << " cycles";
    else out << stat(l.stats, "interp.warp_instructions") << " warp instructions";
    out << (l.partial ? " (stopped: statistics until then)\n" : "\n");
  }
  if (timing) {
    printTimingTable(out, r);
    out << r.energyText;
  } else {
    out << "  warp instructions " << stat(r.stats, "interp.warp_instructions") << ", thread instructions "
        << stat(r.stats, "interp.thread_instructions");
    if (r.limitStudy && r.stats.contains("limit.tb_redundant"))
      out << ", TB-redundant " << percent(r.stats, "limit.tb_redundant");
    out << "\n";
  }
  if (!r.error.empty()) out << "  the run stopped: " << r.error << "\n";
  size_t passed = 0, skipped = 0;
  for (size_t i = 0; i < s.checks.size(); ++i) {
    const auto& c = s.checks[i];
    const auto& o = r.checks[i];
    skipped += o.skipped;  // not evaluated: neither passed nor failed
    passed += o.passed && !o.skipped;
    out << "  check " << i + 1 << " (line " << c.where.line << ") " << c.describe() << ": "
        << (o.skipped ? "skipped" : o.passed ? "PASSED" : "FAILED");
    if (!o.message.empty() && (!o.passed || c.kind == Check::Kind::Stat)) out << " (" << o.message << ")";
    out << "\n";
  }
  out << "scenario " << s.name << ": " << (r.passed ? "PASSED" : "FAILED");
  if (!s.checks.empty()) {
    out << " (" << passed << " of " << s.checks.size() << " checks passed";
    if (skipped) out << ", " << skipped << " skipped";
    out << ")";
  }
  out << "\n";
}

nlohmann::json toJson(const ScenarioResult& r, LaunchStats which) {
  const Scenario& s = *r.scenario;
  nlohmann::json j;
  const bool timing = r.engine == Engine::Timing;
  j["command"] = timing ? "run" : "emulate";
  j["engine"] = timing ? "timing" : "interpreter";
  j["scenario"] = {{"name", s.name}, {"file", s.file}, {"description", s.description}};
  j["mechanism"] = s.mechanism;
  j["config_file"] = s.configFile;
  nlohmann::json sets = nlohmann::json::object();
  for (const auto& [k, v] : s.sets) sets[k] = v;
  j["config_set"] = sets;
  j["config"] = config::toJson(s.config);
  // The timing model ran the launches' warp size (scenario_timing.cpp): report the machine run.
  if (timing && !r.launches.empty()) j["config"]["gpu.warp_size"] = r.launches[0].launch.warpSize;
  j["launches"] = nlohmann::json::array();
  for (size_t i = 0; i < r.launches.size(); ++i) {
    const auto& l = r.launches[i];
    j["launches"].push_back({{"label", l.label}, {"grid", dim(l.launch.grid)}, {"block", dim(l.launch.block)},
                             {"warp_size", l.launch.warpSize}, {"partial", l.partial}});
    if (which != LaunchStats::None) j["launches"].back()["stats"] = launchStats(r, i, which);
  }
  // A run that stopped keeps its statistics: those gathered until the stop.
  j["partial"] = !r.error.empty();
  j["stats"] = r.stats;
  j["units"] = cli::unitsOf(r.stats, r.modelUnits.is_null() ? nlohmann::json::object() : r.modelUnits);  // name -> unit
  if (!r.energy.is_null()) j["energy"] = r.energy;
  if (!r.error.empty()) j["error"] = r.error;
  j["checks"] = nlohmann::json::array();
  for (size_t i = 0; i < s.checks.size(); ++i)
    j["checks"].push_back({{"check", s.checks[i].describe()}, {"line", s.checks[i].where.line},
                           {"status", r.checks[i].skipped ? "skipped" : r.checks[i].passed ? "passed" : "failed"}, {"message", r.checks[i].message}});
  j["result"] = r.passed ? "passed" : "failed";
  j["host"] = {{"seconds", r.hostSeconds}};  // wall time: not deterministic, kept out of stats
  return j;
}

}  // namespace simtlm::scenario
