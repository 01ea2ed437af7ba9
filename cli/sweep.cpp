// `simtlm sweep SWEEP.yaml`: every point of a sweep (cli/sweep_spec.h) as its own `simtlm run`
// child, several at a time, or as the tasks of a Slurm job array (cli/sweep_slurm.h); one result
// file per point (a point whose result exists is not run again, so an interrupted sweep
// resumes); then results.csv and the figures (docs/sweeps.md).
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
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/subprocess.h"
#include "cli/sweep_results.h"
#include "cli/sweep_slurm.h"
#include "cli/sweep_spec.h"
#include "model/common/log.h"

namespace po = boost::program_options;

namespace simtlm::cli {
namespace {

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

static int aggregate(const SweepSpec& spec, const std::string& out,
                     const std::function<std::string(const SweepPoint&)>& jsonOf, bool everyPointRan);

int cmdSweep(const std::vector<std::string>& args) {
  po::options_description desc("sweep");
  desc.add_options()("sweep", po::value<std::string>()->required(), "the sweep file")(
      "out", po::value<std::string>(), "output directory (default: results/sweep-NAME)")(
      "jobs", po::value<int>()->default_value(2),
      "local: child processes at once, 1..64; slurm: array tasks running at once (default: no limit)")(
      "print-commands", "print one command line per point (for a batch system) and stop")(
      "backend", po::value<std::string>()->default_value("local"),
      "where the points run: local (child processes) or slurm (one job array)")(
      "partition", po::value<std::string>(), "slurm: the partition (sbatch --partition)")(
      "time", po::value<std::string>(), "slurm: each task's time limit (sbatch --time, e.g. 30:00)")(
      "sbatch-arg", po::value<std::vector<std::string>>(), "slurm: one more sbatch argument (repeatable)")(
      "no-wait", "slurm: submit and return; collect later with --collect")(
      "collect", "slurm: wait for the submitted array, submit the points still without a result again, aggregate")(
      "wait-timeout", po::value<double>()->default_value(0), "slurm: stop waiting after this many seconds (0: no limit)");
  addLogOption(desc);
  po::variables_map vm = parseCommand("sweep", "sweep SWEEP.yaml [options]", desc, {{"sweep", "SWEEP"}}, args);
  applyLogOption(vm);
  const std::string backend = vm["backend"].as<std::string>();
  if (backend != "local" && backend != "slurm")
    throw std::invalid_argument("--backend '" + backend + "': expected local or slurm");
  const bool slurm = backend == "slurm" || vm.count("collect");
  if (vm.count("collect") && !vm["backend"].defaulted() && backend != "slurm")
    throw std::invalid_argument("--collect collects a Slurm submission: it takes --backend slurm, not --backend " + backend);
  if (!slurm)
    for (const char* o : {"partition", "time", "sbatch-arg", "no-wait"})
      if (vm.count(o)) throw std::invalid_argument(std::string("--") + o + " is an option of --backend slurm");
  if (!slurm && !vm["wait-timeout"].defaulted())
    throw std::invalid_argument("--wait-timeout is an option of --backend slurm");
  const int jobs = vm["jobs"].as<int>();
  // Local: child processes at once. Slurm: array tasks running at once (--array=...%N).
  if (!slurm && (jobs < 1 || jobs > 64)) throw std::invalid_argument("--jobs " + std::to_string(jobs) + " is outside [1, 64]");
  if (slurm && jobs < 1) throw std::invalid_argument("--jobs " + std::to_string(jobs) + " is below 1");
  const double waitTimeout = vm["wait-timeout"].as<double>();
  if (!(waitTimeout >= 0)) {
    std::ostringstream v;
    v << waitTimeout;
    throw std::invalid_argument("--wait-timeout " + v.str() + " is below 0");
  }
  const SweepSpec spec = loadSweep(vm["sweep"].as<std::string>());
  const std::string out = vm.count("out") ? vm["out"].as<std::string>() : "results/sweep-" + spec.name;
  checkOutputFolder("out", out);
  // Absolute, so that printed command lines run from any directory.
  const std::string pointsDir = std::filesystem::absolute(out + "/points").lexically_normal().string();
  auto jsonOf = [&](const SweepPoint& p) { return pointsDir + "/" + p.id() + ".json"; };

  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  auto commandOf = [&](const SweepPoint& p) {
    std::string line = shellQuote(self);
    for (const auto& a : p.runArgs(spec.configFile, spec.energyFile, jsonOf(p))) line += " " + shellQuote(a);
    return line;
  };
  if (vm.count("print-commands")) {  // the batch system runs them; `sweep` again aggregates
    std::filesystem::create_directories(pointsDir);
    for (const SweepPoint& p : spec.points) std::cout << commandOf(p) << "\n";
    return 0;
  }

  std::filesystem::create_directories(pointsDir);
  if (slurm) {
    SlurmOptions o;
    if (vm.count("partition")) o.partition = vm["partition"].as<std::string>();
    if (vm.count("time")) o.time = vm["time"].as<std::string>();
    if (vm.count("sbatch-arg")) o.sbatchArgs = vm["sbatch-arg"].as<std::vector<std::string>>();
    o.arrayLimit = vm["jobs"].defaulted() ? 0 : jobs;
    o.wait = !vm.count("no-wait");
    o.waitTimeout = waitTimeout;
    o.collect = vm.count("collect") > 0;
    const SweepFiles files{jsonOf, commandOf, [&](const SweepPoint& p) { return hasResult(jsonOf(p)); }};
    switch (runSweepOnSlurm(spec, out, files, o)) {
      case SlurmOutcome::kSubmitted: return 0;
      case SlurmOutcome::kStillQueued: return 2;
      case SlurmOutcome::kFinished: return aggregate(spec, out, jsonOf, true);
    }
  }
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
  return aggregate(spec, out, jsonOf, failures.empty());
}

// results.csv, the figures and the table on stdout, from the points' result files; the exit
// status: 0 when every point has a result and passed its checks.
static int aggregate(const SweepSpec& spec, const std::string& out,
                     const std::function<std::string(const SweepPoint&)>& jsonOf, bool everyPointRan) {
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
  return everyPointRan && table.allPassed ? 0 : 1;
}

}  // namespace simtlm::cli
