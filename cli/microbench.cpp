// `simtlm microbench`: runs the scenarios of scenarios/micro/ on the timing model (one child
// process each, as compare does: SystemC elaborates once per process), derives each row of
// cli/microbench_rows.cpp from the per-launch statistics and prints simtlm's value beside its
// published target, the tolerance and pass / gap / FAIL. Exit code 1 when a row FAILs or a run
// fails (every run also checks its memory against the functional interpreter).
#include "cli/microbench.h"

#include <unistd.h>

#include <atomic>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>

#include "cli/microbench_rows.h"
#include "cli/options.h"
#include "cli/results.h"
#include "cli/scenario.h"
#include "cli/scenario_run.h"
#include "cli/subprocess.h"
#include "workloads/data_dir.h"

namespace po = boost::program_options;

namespace simtlm::cli {
namespace {

struct RunResult {
  ChildResult child;
  microbench::Launches launches;
  std::string error;  // why the run gave no usable result
};

std::string scenarioPath(const microbench::Run& r) { return workloads::dataDir() + "/scenarios/micro/" + r.scenario; }

void runOne(const microbench::Run& run, const std::vector<std::string>& userArgs, const std::string& json,
            RunResult& out) {
  // The rows read per-SM statistics of single launches: every launch's statistics in full.
  std::vector<std::string> a = {"run", scenarioPath(run), "--json", json, "--launch-stats", "all"};
  a.insert(a.end(), userArgs.begin(), userArgs.end());
  for (const auto& kv : run.sets) a.insert(a.end(), {"--set", kv});
  out.child = runSelf(a);
  if (out.child.exitCode != 0) {
    // The child's own one-line error (the last "simtlm: error:" line it wrote), not its report.
    std::string why = "exit code " + std::to_string(out.child.exitCode);
    const size_t at = out.child.output.rfind("simtlm: error: ");
    if (at != std::string::npos) {
      const size_t from = at + 15;
      why = out.child.output.substr(from, out.child.output.find('\n', from) - from);
    }
    out.error = why;
    return;
  }
  try {
    std::ifstream in(json);
    const nlohmann::json j = nlohmann::json::parse(in);
    for (const auto& l : j.at("launches")) out.launches.push_back(l);
  } catch (const std::exception& e) {
    out.error = std::string("unreadable result: ") + e.what();
  }
}

std::string number(double v) {
  if (std::isnan(v)) return "-";
  char b[32];
  std::snprintf(b, sizeof b, std::fabs(v) >= 100 ? "%.0f" : "%.2f", v);
  return b;
}

}  // namespace

int cmdMicrobench(const std::vector<std::string>& args) {
  po::options_description desc("microbench");
  desc.add_options()("config", po::value<std::string>(), "machine configuration instead of configs/pascal.ini")(
      "set", po::value<std::vector<std::string>>()->composing(), "override key=value (before each row's own)")(
      "json", po::value<std::string>(), "write the table as JSON")(
      "jobs", po::value<int>()->default_value(1), "child processes at once, 1..64")(
      "source", po::value<std::string>()->default_value("assembly"),
      "assembly: the hand-written kernels; cuda: their CUDA twins (nvcc's PTX)");
  po::variables_map vm = parseCommand("microbench", "microbench [options]", desc, {}, args);
  const int jobs = vm["jobs"].as<int>();
  if (jobs < 1 || jobs > 64) throw std::invalid_argument("--jobs " + std::to_string(jobs) + " is outside [1, 64]");
  const std::string sourceName = vm["source"].as<std::string>();
  if (sourceName != "assembly" && sourceName != "cuda")
    throw std::invalid_argument("--source '" + sourceName + "' is neither assembly nor cuda");
  const microbench::Source source = sourceName == "cuda" ? microbench::Source::Cuda : microbench::Source::Assembly;
  std::vector<std::string> userArgs;
  scenario::Overrides o;
  if (vm.count("config")) {
    o.configFile = vm["config"].as<std::string>();
    userArgs.insert(userArgs.end(), {"--config", o.configFile});
  }
  if (vm.count("set")) o.sets = vm["set"].as<std::vector<std::string>>();
  for (const auto& kv : o.sets) userArgs.insert(userArgs.end(), {"--set", kv});
  // One clear error for a bad configuration or override, instead of one per child.
  {
    scenario::Scenario s = scenario::loadScenario(scenarioPath(microbench::runs(source).front()));
    scenario::applyOverrides(s, o);
    std::vector<InputFile> inputs;
    for (const auto& [what, path] : s.inputFiles()) inputs.push_back({what, path});
    std::vector<OutputFile> outputs;
    if (vm.count("json")) outputs.push_back({"json", vm["json"].as<std::string>()});
    checkOutputs(outputs, inputs);
  }

  // With --source cuda, the assembly runs the CUDA rows' twins are measured on run too, after
  // the CUDA runs: their values stand beside the CUDA rows (column `assembly`).
  std::vector<microbench::Run> runs = microbench::runs(source);
  const size_t ownRuns = runs.size();
  std::map<int, size_t> twinRunAt;  // an assembly run's index -> its place in `runs`
  std::map<std::string, const microbench::Row*> twinRow;
  if (source == microbench::Source::Cuda)
    for (const auto& a : microbench::rows(microbench::Source::Assembly))
      for (const auto& r : microbench::rows(source))
        if (r.twin == a.name) {
          twinRow[a.name] = &a;
          if (!twinRunAt.count(a.run)) {
            twinRunAt[a.run] = runs.size();
            runs.push_back(microbench::runs(microbench::Source::Assembly)[a.run]);
          }
        }
  const std::string dir = std::filesystem::temp_directory_path().string() + "/simtlm-microbench-" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  std::vector<RunResult> results(runs.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < runs.size(); i = next++)
      runOne(runs[i], userArgs, dir + "/run" + std::to_string(i) + ".json", results[i]);
  };
  std::cout << "simtlm microbench: " << (o.configFile.empty() ? "configs/pascal.ini" : o.configFile);
  for (const auto& kv : o.sets) std::cout << " --set " << kv;
  if (source == microbench::Source::Cuda)
    std::cout << "; " << ownRuns << " runs of scenarios/micro/cuda/ and the " << runs.size() - ownRuns
              << " of their assembly twins, one child process each" << std::endl;
  else
    std::cout << "; " << runs.size() << " runs of scenarios/micro/, one child process each" << std::endl;
  stopChildrenOnSignal();
  std::vector<std::thread> pool;
  for (int t = 0; t < std::min<int>(jobs, static_cast<int>(runs.size())); ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  std::filesystem::remove_all(dir);

  bool ok = true;
  std::string failed;  // the rows outside both their tolerance and their documented range
  nlohmann::json j = {{"command", "microbench"}, {"source", sourceName}, {"config_file", o.configFile},
                      {"config_set", o.sets}};
  j["rows"] = nlohmann::json::array();
  const bool cuda = source == microbench::Source::Cuda;
  // The value column(s): simtlm's, and with --source cuda the assembly twin's beside it.
  auto values = [&](const std::string& v, const std::string& twin) {
    char b[40];
    std::snprintf(b, sizeof b, cuda ? "%8s %8s" : "%8s", v.c_str(), twin.c_str());
    return std::string(b);
  };
  std::printf("  %-34s %-20s %s %8s %8s %-9s %-6s %s\n", "row", "unit", values("simtlm", "assembly").c_str(), "target",
              "config", "tolerance", "status", "source of the target");
  for (const auto& r : microbench::rows(source)) {
    const RunResult& rr = results[r.run];
    double v = std::nan("");
    std::string st = "FAIL";
    if (rr.error.empty()) {
      try {
        v = r.value(rr.launches);
        st = microbench::status(r, v);
      } catch (const std::exception& e) {
        st = "FAIL";
      }
    }
    if (st == "FAIL") {
      ok = false;
      failed += (failed.empty() ? "" : ", ") + r.name;
    }
    double tv = std::nan("");  // the assembly twin's value
    if (twinRow.count(r.twin)) {
      const microbench::Row& a = *twinRow.at(r.twin);
      const RunResult& ar = results[twinRunAt.at(a.run)];
      if (ar.error.empty()) try {
          tv = a.value(ar.launches);
        } catch (const std::exception&) {
        }
    }
    std::printf("  %-34s %-20s %s %8s %8s %-9s %-6s %s\n", r.name.c_str(), r.unit.c_str(),
                values(number(v), number(tv)).c_str(), number(r.target).c_str(), number(r.config).c_str(),
                r.tolerance.c_str(), st.c_str(), r.source.c_str());
    nlohmann::json row = {{"row", r.name}, {"unit", r.unit}, {"value", std::isnan(v) ? nlohmann::json() : nlohmann::json(v)},
                          {"target", std::isnan(r.target) ? nlohmann::json() : nlohmann::json(r.target)},
                          {"config", std::isnan(r.config) ? nlohmann::json() : nlohmann::json(r.config)},
                          {"accepted", {r.lo, r.hi}}, {"tolerance", r.tolerance}, {"status", st},
                          {"source", r.source}, {"scenario", runs[r.run].scenario}, {"run_set", runs[r.run].sets}};
    if (r.gap) row["gap_range"] = {r.gapLo, r.gapHi};
    if (cuda) {
      row["assembly_twin"] = r.twin.empty() ? nlohmann::json() : nlohmann::json(r.twin);
      row["assembly_value"] = std::isnan(tv) ? nlohmann::json() : nlohmann::json(tv);
    }
    j["rows"].push_back(row);
  }
  std::printf("  target: measured on Pascal where published; config: GPGPU-Sim's Pascal configuration value.\n"
              "  sources: [JIA] Jia et al. 2018 (arXiv 1804.06826), Tables 3.1, 4.1, 4.2; [GS] GPGPU-Sim\n"
              "  SM6_TITANX gpgpusim.config; [AT] Accel-Sim tuner's composition of those latencies; [CG] CUDA C\n"
              "  Programming Guide, cc 6.1; [TI] GTX 1080 Ti, 484 GB/s at 1480 MHz.\n"
              "  gap: a known difference, documented with its cause in docs/microbenchmarks.md; the value must\n"
              "  stay in the documented range.\n");
  if (cuda)
    std::printf("  simtlm: the CUDA kernel's value (scenarios/micro/cuda/micro.cu); assembly: the hand-written\n"
                "  twin's (scenarios/micro/kernels/); status and gap ranges are the CUDA kernel's.\n");
  std::fflush(stdout);
  std::string runErrors;
  for (size_t i = 0; i < runs.size(); ++i)
    if (!results[i].error.empty()) {
      runErrors += "; scenarios/micro/" + runs[i].scenario + " failed: " + results[i].error;
      ok = false;  // (an assembly twin's run too)
    }
  if (!ok && !failed.empty())
    std::cerr << "simtlm: error: microbench: outside the tolerance and the documented gap range: " << failed
              << runErrors << "\n";
  else if (!ok)
    std::cerr << "simtlm: error: microbench: " << runErrors.substr(2) << "\n";
  j["result"] = ok ? "passed" : "failed";
  if (vm.count("json")) writeJsonAtomically(vm["json"].as<std::string>(), j);
  if (ok) std::cout << "microbench: every row within its tolerance or its documented gap range\n";
  return ok ? 0 : 1;
}

}  // namespace simtlm::cli
