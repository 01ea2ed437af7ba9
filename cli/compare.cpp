#include "cli/compare.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "cli/compare_energy.h"
#include "cli/plot.h"
#include "cli/energy_options.h"
#include "cli/options.h"
#include "cli/results.h"
#include "cli/run_limits.h"
#include "cli/scenario.h"
#include "cli/scenario_run.h"
#include "cli/subprocess.h"

namespace po = boost::program_options;

namespace simtlm::cli {
namespace {

struct Summary {
  std::string mechanism;
  ChildResult child;
  bool haveJson = false, passed = false;
  double cycles = 0, fetched = 0, executed = 0, skipped = 0, seconds = 0;
  // DARSIE's waits, each in its own unit: warps waiting (warp-cycles) for a leader's write-back,
  // at a majority-path branch barrier, at a freelist synchronization point; scheduler cycles whose
  // oldest warp was held by DARSIE at issue (issue.stall.sync).
  double leaderWbWaits = 0, branchWaits = 0, freelistWaits = 0, issueSync = 0;
  int checksPassed = 0, checks = 0;
  nlohmann::json checkList = nlohmann::json::array();
  std::string error;  // the run's own error (fault, deadlock), from its JSON
  EnergyColumn energy;
};

void readJson(Summary& s, const std::string& path) {
  std::ifstream in(path);
  if (!in) return;
  nlohmann::json j;
  try { j = nlohmann::json::parse(in); } catch (const std::exception&) { return; }
  const nlohmann::json& st = j["stats"];
  s.haveJson = true;
  s.passed = j.value("result", "") == "passed";
  s.cycles = st.value("gpu.cycles", 0.0);
  s.fetched = sumPerSm(st, "frontend.fetched");
  s.executed = sumPerSm(st, "issue.warp_instructions");
  s.skipped = sumPerSm(st, "darsie.skipped");
  s.leaderWbWaits = sumPerSm(st, "darsie.leaderwb_waits");
  s.branchWaits = sumPerSm(st, "darsie.branch_stall_cycles");
  s.freelistWaits = sumPerSm(st, "darsie.freelist_sync_waits");
  s.issueSync = sumPerSm(st, "issue.stall.sync");
  s.seconds = j["host"].value("seconds", 0.0);
  if (j.contains("error")) s.error = j["error"].get<std::string>();
  s.energy.have = j.contains("energy") && j["energy"].is_object();
  if (s.energy.have) s.energy.report = j["energy"];
  for (const auto& c : j["checks"]) {
    s.checks++;
    s.checksPassed += c.value("status", "") == "passed";
    s.checkList.push_back(c);
  }
}

// The lines of a failed child's output that say why (errors, failed checks), else its tail.
std::string whyFailed(const Summary& s) {
  std::stringstream in(s.child.output);
  std::string line, why, tail;
  std::vector<std::string> all;
  while (std::getline(in, line)) {
    all.push_back(line);
    if (line.find("error") != std::string::npos || line.find("FAILED") != std::string::npos) why += "  " + line + "\n";
  }
  if (!why.empty()) return why;
  for (size_t i = all.size() > 5 ? all.size() - 5 : 0; i < all.size(); ++i) tail += "  " + all[i] + "\n";
  return tail.empty() ? "  (no output)\n" : tail;
}

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f", v);
  return b;
}

void printTable(const std::vector<Summary>& rows, const Summary& ref) {
  size_t w = 14;
  for (const auto& r : rows) w = std::max(w, r.mechanism.size() + 2);
  auto line = [&](const std::string& label, auto cell) {
    std::printf("  %-26s", label.c_str());
    for (const auto& r : rows) std::printf("%*s", static_cast<int>(w), r.haveJson ? cell(r).c_str() : "-");
    std::printf("\n");
  };
  line("", [](const Summary& r) { return r.mechanism; });
  line("cycles", [](const Summary& r) { return num(r.cycles); });
  line("speedup vs " + ref.mechanism, [&](const Summary& r) {
    char b[32];
    if (!ref.haveJson || r.cycles <= 0) return std::string("-");
    std::snprintf(b, sizeof b, "%.3fx", ref.cycles / r.cycles);
    return std::string(b);
  });
  line("fetched (warp instr)", [](const Summary& r) { return num(r.fetched); });
  line("executed (issued)", [](const Summary& r) { return num(r.executed); });
  line("skipped", [](const Summary& r) { return num(r.skipped); });
  line("executed reduction", [&](const Summary& r) {
    char b[32];
    if (!ref.haveJson || ref.executed <= 0) return std::string("-");
    std::snprintf(b, sizeof b, "%.1f%%", 100.0 * (1.0 - r.executed / ref.executed));
    return std::string(b);
  });
  line("LeaderWB waits (warp-cyc)", [](const Summary& r) { return num(r.leaderWbWaits); });
  line("branch barriers (warp-cyc)", [](const Summary& r) { return num(r.branchWaits); });
  line("freelist waits (warp-cyc)", [](const Summary& r) { return num(r.freelistWaits); });
  line("issue sync (sched-cyc)", [](const Summary& r) { return num(r.issueSync); });
  line("checks", [](const Summary& r) {
    return std::string(r.passed ? "PASSED " : "FAILED ") + std::to_string(r.checksPassed) + "/" + std::to_string(r.checks);
  });
  line("host seconds", [](const Summary& r) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f", r.seconds);
    return std::string(b);
  });
}

nlohmann::json summaryJson(const Summary& r, const Summary& ref) {
  nlohmann::json j = {{"mechanism", r.mechanism}, {"exit_code", r.child.exitCode},
                      {"result", r.haveJson ? (r.passed ? "passed" : "failed") : "error"}};
  if (!r.haveJson) {
    j["message"] = r.child.output;
    return j;
  }
  j["cycles"] = r.cycles;
  j["speedup"] = ref.haveJson && r.cycles > 0 ? nlohmann::json(ref.cycles / r.cycles) : nlohmann::json();
  j["fetched"] = r.fetched;
  j["executed"] = r.executed;
  j["skipped"] = r.skipped;
  j["executed_reduction_percent"] =
      ref.haveJson && ref.executed > 0 ? nlohmann::json(100.0 * (1.0 - r.executed / ref.executed)) : nlohmann::json();
  j["leaderwb_wait_warp_cycles"] = r.leaderWbWaits;
  j["branch_barrier_wait_warp_cycles"] = r.branchWaits;
  j["freelist_wait_warp_cycles"] = r.freelistWaits;
  j["issue_stall_sync_scheduler_cycles"] = r.issueSync;
  j["checks"] = r.checkList;
  j["host_seconds"] = r.seconds;
  j["energy"] = energySummaryJson(r.energy, ref.energy);
  if (!r.error.empty()) j["error"] = r.error;
  if (r.child.exitCode != 0) j["message"] = whyFailed(r);
  return j;
}

}  // namespace

int cmdCompare(const std::vector<std::string>& args) {
  po::options_description desc("compare");
  desc.add_options()("scenario", po::value<std::string>()->required(), "scenario file (.yaml)")(
      "mechanisms", po::value<std::string>()->default_value("baseline,darsie"), "comma-separated mechanisms")(
      "config", po::value<std::string>(), "machine configuration instead of the scenario's")(
      "set", po::value<std::vector<std::string>>()->composing(), "override key=value after the scenario's")(
      "json", po::value<std::string>(), "write every mechanism's summary as JSON")(
      "jobs", po::value<int>()->default_value(1), "child processes at once, 1..64")(
      "chart", po::value<std::string>(), "draw stacked energy per component as OUT.svg and OUT.png (matplotlib)");
  addLimitOptions(desc, true);
  addEnergyOptions(desc, false);
  po::variables_map vm = parseCommand("compare", "compare SCENARIO.yaml [options]", desc, {{"scenario", "SCENARIO"}}, args);
  const std::string file = vm["scenario"].as<std::string>();
  auto endsWith = [&](const std::string& x) {
    return file.size() > x.size() && file.compare(file.size() - x.size(), x.size(), x) == 0;
  };
  if (!endsWith(".yaml") && !endsWith(".yml"))
    throw std::invalid_argument("compare: '" + file + "' is not a scenario file (.yaml); see docs/scenarios.md");
  const int jobs = vm["jobs"].as<int>();
  if (jobs < 1 || jobs > 64) throw std::invalid_argument("--jobs " + std::to_string(jobs) + " is outside [1, 64]");
  const std::vector<std::string> mechanisms = scenario::mechanismList("--mechanisms", vm["mechanisms"].as<std::string>());
  // Validate the scenario and the overrides here: one clear error instead of one per child.
  scenario::Overrides o;
  if (vm.count("config")) o.configFile = vm["config"].as<std::string>();
  if (vm.count("set")) o.sets = vm["set"].as<std::vector<std::string>>();
  for (const auto& kv : limitSets(vm)) o.sets.push_back(kv);
  scenario::Scenario s = scenario::loadScenario(file);
  scenario::applyOverrides(s, o);
  energyRequestFrom(vm);  // the energy table and operating point, checked once here
  const std::vector<std::string> energyArgs = energyArguments(vm);
  {
    std::vector<InputFile> inputs;
    for (const auto& [what, path] : s.inputFiles()) inputs.push_back({what, path});
    std::vector<OutputFile> outputs;
    for (const char* o : {"json", "chart"})
      if (vm.count(o)) outputs.push_back({o, vm[o].as<std::string>()});
    checkOutputs(outputs, inputs);
  }
  std::string chart;
  if (vm.count("chart")) {
    chart = vm["chart"].as<std::string>();
    const auto dot = chart.rfind('.');
    if (dot == std::string::npos || (chart.substr(dot) != ".svg" && chart.substr(dot) != ".png"))
      throw std::invalid_argument("--chart '" + chart + "': name the chart OUT.svg or OUT.png (both are written)");
    // Before minutes of simulation: the one output asked for that cannot be made.
    if (const std::string why = plottingUnavailable(); !why.empty())
      throw std::invalid_argument("--chart: cannot draw the chart: " + why + " (or leave out --chart)");
  }

  const std::string dir = std::filesystem::temp_directory_path().string() + "/simtlm-compare-" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  std::vector<Summary> rows(mechanisms.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < rows.size(); i = next++) {
      Summary& r = rows[i];
      r.mechanism = mechanisms[i];
      r.energy.mechanism = r.mechanism;
      const std::string json = dir + "/" + r.mechanism + ".json";
      std::vector<std::string> a = {"run", file, "--mechanism", r.mechanism, "--json", json};
      if (!o.configFile.empty()) a.insert(a.end(), {"--config", o.configFile});
      for (const auto& kv : o.sets) a.insert(a.end(), {"--set", kv});
      a.insert(a.end(), energyArgs.begin(), energyArgs.end());
      r.child = runSelf(a);
      readJson(r, json);
    }
  };
  std::cout << "simtlm compare: scenario " << s.name << " (" << file << "), " << mechanisms.size()
            << " mechanisms, one child process each" << std::endl;
  stopChildrenOnSignal();
  std::vector<std::thread> pool;
  for (int t = 0; t < std::min<int>(jobs, static_cast<int>(rows.size())); ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  std::filesystem::remove_all(dir);

  const auto refIt = std::find_if(rows.begin(), rows.end(), [](const Summary& r) { return r.mechanism == "baseline"; });
  const Summary& ref = refIt != rows.end() ? *refIt : rows.front();
  printTable(rows, ref);
  std::vector<EnergyColumn> energyCols;
  for (const auto& r : rows) energyCols.push_back(r.energy);
  const size_t refIndex = static_cast<size_t>(&ref - rows.data());
  printEnergyTable(energyCols, refIndex);
  std::fflush(stdout);

  bool ok = true;
  nlohmann::json j = {{"command", "compare"}, {"scenario", {{"name", s.name}, {"file", file}}},
                      {"reference", ref.mechanism}, {"config_file", o.configFile}, {"config_set", o.sets}};
  j["mechanisms"] = nlohmann::json::array();
  for (const auto& r : rows) {
    j["mechanisms"].push_back(summaryJson(r, ref));
    if (r.child.exitCode == 0 && r.passed) continue;
    ok = false;
    std::cerr << "simtlm: error: compare: mechanism " << r.mechanism << " failed (exit code " << r.child.exitCode
              << "):\n" << whyFailed(r);
  }
  j["result"] = ok ? "passed" : "failed";
  if (vm.count("json")) writeJsonAtomically(vm["json"].as<std::string>(), j);
  if (!chart.empty()) {  // drawn from the JSON: --json's file, or a temporary one
    const std::string json = vm.count("json") ? vm["json"].as<std::string>() : dir + ".json";
    if (!vm.count("json")) writeJsonAtomically(json, j);
    try {
      runPlotScript({"energy", json, chart});
    } catch (...) {
      if (!vm.count("json")) std::filesystem::remove(json);
      throw;
    }
    if (!vm.count("json")) std::filesystem::remove(json);
  }
  if (ok) std::cout << "compare " << s.name << ": every mechanism PASSED every check\n";
  return ok ? 0 : 1;
}

}  // namespace simtlm::cli
