// `simtlm sweep SWEEP.yaml`: every point of a sweep (cli/sweep_spec.h) as its own `simtlm run`
// child, several at a time; one result file per point (a point whose result exists is not run
// again, so an interrupted sweep resumes); then results.csv and the figures (docs/sweeps.md).
#include "cli/sweep.h"
#include "cli/options.h"
#include "cli/results.h"

#include <algorithm>
#include <atomic>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/subprocess.h"
#include "cli/sweep_results.h"
#include "cli/sweep_spec.h"
#include "model/common/log.h"

namespace po = boost::program_options;

namespace simtlm::cli {
namespace {

// A shell word: quoted only when it has to be.
std::string shellWord(const std::string& w) {
  if (!w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,/:") ==
                        std::string::npos)
    return w;
  std::string q = "'";
  for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// A point is done when its result file says it passed: a failed point runs again on resume.
bool hasResult(const std::string& json) {
  std::ifstream in(json);
  if (!in) return false;
  try {
    return nlohmann::json::parse(in).value("result", "") == "passed";
  } catch (const std::exception&) {
    return false;  // a partial file is not a result (run writes atomically, but be safe)
  }
}

}  // namespace

int cmdSweep(const std::vector<std::string>& args) {
  po::options_description desc("sweep");
  desc.add_options()("sweep", po::value<std::string>()->required(), "the sweep file")(
      "out", po::value<std::string>(), "output directory (default: results/sweep-NAME)")(
      "jobs", po::value<int>()->default_value(2), "child processes at once, 1..64")(
      "print-commands", "print one command line per point (for a batch system) and stop");
  addLogOption(desc);
  po::variables_map vm = parseCommand("sweep", "sweep SWEEP.yaml [options]", desc, {{"sweep", "SWEEP"}}, args);
  applyLogOption(vm);
  const int jobs = vm["jobs"].as<int>();
  if (jobs < 1 || jobs > 64) throw std::invalid_argument("--jobs " + std::to_string(jobs) + " is outside [1, 64]");
  const SweepSpec spec = loadSweep(vm["sweep"].as<std::string>());
  const std::string out = vm.count("out") ? vm["out"].as<std::string>() : "results/sweep-" + spec.name;
  checkOutputFolder("out", out);
  // Absolute, so that printed command lines run from any directory.
  const std::string pointsDir = std::filesystem::absolute(out + "/points").lexically_normal().string();
  auto jsonOf = [&](const SweepPoint& p) { return pointsDir + "/" + p.id() + ".json"; };

  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  auto commandOf = [&](const SweepPoint& p) {
    std::string line = shellWord(self);
    for (const auto& a : p.runArgs(spec.configFile, spec.energyFile, jsonOf(p))) line += " " + shellWord(a);
    return line;
  };
  if (vm.count("print-commands")) {  // the batch system runs them; `sweep` again aggregates
    std::filesystem::create_directories(pointsDir);
    for (const SweepPoint& p : spec.points) std::cout << commandOf(p) << "\n";
    return 0;
  }

  std::filesystem::create_directories(pointsDir);
  std::vector<size_t> todo;
  for (size_t i = 0; i < spec.points.size(); ++i)
    if (!hasResult(jsonOf(spec.points[i]))) todo.push_back(i);
  std::cerr << "simtlm sweep " << spec.name << ": " << spec.points.size() << " points, " << todo.size()
            << " to run, " << jobs << " at a time, results in " << out << std::endl;

  stopChildrenOnSignal();
  std::atomic<size_t> next{0};
  std::mutex printing;
  size_t done = 0;
  std::vector<std::string> failures;
  spdlog::logger& logger = log::get("cli.sweep");
  auto worker = [&] {
    for (size_t k = next++; k < todo.size(); k = next++) {
      const SweepPoint& p = spec.points[todo[k]];
      if (logger.should_log(spdlog::level::debug)) logger.debug("{} starts: {}", p.id(), commandOf(p));
      const auto start = std::chrono::steady_clock::now();
      const ChildResult r = runSelf(p.runArgs(spec.configFile, spec.energyFile, jsonOf(p)));
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::lock_guard<std::mutex> lock(printing);
      ++done;
      char line[64];
      std::snprintf(line, sizeof line, "%.1f s", s);
      std::cerr << "[" << done << "/" << todo.size() << "] " << p.id() << ": "
                << (r.exitCode == 0 ? "passed" : "FAILED (exit " + std::to_string(r.exitCode) + ")") << ", "
                << line << std::endl;
      if (r.exitCode != 0 && !std::filesystem::exists(jsonOf(p))) failures.push_back(p.id() + ":\n" + r.output);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < std::min<int>(jobs, static_cast<int>(todo.size())); ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  for (const auto& f : failures) std::cerr << "simtlm sweep: no result for " << f << "\n";

  const SweepTable table = aggregateSweep(spec, jsonOf);
  printSweepTable(std::cout, table);
  std::cout << std::flush;
  const bool figures = writeSweepOutputs(spec, table, out);
  std::cout << "simtlm sweep " << spec.name << ": "
            << std::count_if(table.rows.begin(), table.rows.end(), [](const SweepRow& r) { return r.hasResult; }) << " of " << spec.points.size()
            << " points with results; " << out << "/results.csv";
  if (figures)
    std::cout << "; figures (.png and .svg): " << out << "/fig8_speedup, " << out << "/fig9_instructions"
              << (table.hasEnergy ? ", " + out + "/fig11_energy" : "")
              << (std::any_of(table.rows.begin(), table.rows.end(), [](const SweepRow& r) { return r.hasLimit; })
                      ? ", " + out + "/fig1_redundancy, " + out + "/fig2_taxonomy"
                      : "");
  std::cout << "\n";
  return failures.empty() && table.allPassed ? 0 : 1;
}

}  // namespace simtlm::cli
