#include "cli/faults.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <thread>

#include "cli/options.h"
#include "cli/results.h"
#include "cli/scenario.h"
#include "cli/scenario_run.h"
#include "cli/subprocess.h"
#include "model/common/splitmix.h"

namespace po = boost::program_options;

namespace simtlm::cli {
namespace {

enum class Outcome { Detected, Silent, Masked, Stopped, NotInjected };
const char* name(Outcome o) {
  switch (o) {
    case Outcome::Detected: return "detected";
    case Outcome::Silent: return "silent";
    case Outcome::Masked: return "masked";
    case Outcome::Stopped: return "stopped";
    case Outcome::NotInjected: return "not_injected";
  }
  return "";
}

struct Injection {
  uint64_t seed = 0, cycle = 0;
  int sm = 0;
  Outcome outcome = Outcome::Stopped;
  uint64_t detections = 0;
};

nlohmann::json readJson(const std::string& path) {
  std::ifstream in(path);
  if (!in) return nullptr;
  try {
    return nlohmann::json::parse(in);
  } catch (const std::exception&) {
    return nullptr;
  }
}

// The run's outcome from its result file: memory is check 1 of --contract.
Outcome classify(const nlohmann::json& j, uint64_t& detections) {
  if (j.is_null() || !j.contains("stats")) return Outcome::Stopped;
  const nlohmann::json& st = j["stats"];
  if (sumPerSm(st, "uv.fault.injected") == 0) return Outcome::NotInjected;
  detections = static_cast<uint64_t>(sumPerSm(st, "uv.fault.detected"));
  if (detections > 0) return Outcome::Detected;  // (also when the run then stopped)
  if (j.value("partial", true)) return Outcome::Stopped;  // a fault, a hang: the run did not finish
  for (const auto& c : j["checks"])
    if (c.value("check", "").find("every buffer equals") != std::string::npos)
      return c.value("status", "") == "passed" ? Outcome::Masked : Outcome::Silent;
  return Outcome::Stopped;
}

}  // namespace

int cmdFaults(const std::vector<std::string>& args) {
  po::options_description desc("faults");
  desc.add_options()("scenario", po::value<std::string>()->required(), "scenario file (.yaml)")(
      "mechanism", po::value<std::string>()->default_value("uv"), "a UV mechanism with scalar execution")(
      "target", po::value<std::string>()->default_value("alu"), "alu or register")(
      "injections", po::value<int>()->default_value(20), "runs with one fault each, 1..100000")(
      "seed", po::value<long long>()->default_value(1), "the campaign's seed, 0..10^12")(
      "config", po::value<std::string>(), "machine configuration instead of the scenario's")(
      "set", po::value<std::vector<std::string>>()->composing(), "override key=value after the scenario's")(
      "jobs", po::value<int>()->default_value(2), "child processes at once, 1..64")(
      "json", po::value<std::string>(), "write the campaign (every injection and the totals) as JSON");
  po::variables_map vm = parseCommand("faults", "faults SCENARIO.yaml [options]", desc, {{"scenario", "SCENARIO"}}, args);
  const std::string file = vm["scenario"].as<std::string>();
  const std::string mechanism = vm["mechanism"].as<std::string>();
  if (mechanism != "uv" && mechanism != "uv-token" && mechanism != "uv-srf" && mechanism != "uv-srf-irb")
    throw std::invalid_argument("--mechanism '" + mechanism +
                                "': fault injection needs UV's scalar execution (uv, uv-token, uv-srf or uv-srf-irb)");
  const std::string target = vm["target"].as<std::string>();
  if (target != "alu" && target != "register")
    throw std::invalid_argument("--target '" + target + "': expected alu or register");
  const int injections = vm["injections"].as<int>();
  if (injections < 1 || injections > 100000)
    throw std::invalid_argument("--injections " + std::to_string(injections) + " is outside [1, 100000]");
  const long long seed = vm["seed"].as<long long>();
  if (seed < 0 || seed > 1'000'000'000'000LL)
    throw std::invalid_argument("--seed " + std::to_string(seed) + " is outside [0, 10^12]");
  const int jobs = vm["jobs"].as<int>();
  if (jobs < 1 || jobs > 64) throw std::invalid_argument("--jobs " + std::to_string(jobs) + " is outside [1, 64]");
  scenario::Overrides o;
  if (vm.count("config")) o.configFile = vm["config"].as<std::string>();
  if (vm.count("set")) o.sets = vm["set"].as<std::vector<std::string>>();
  o.sets.push_back("uv.reliability=true");
  scenario::Scenario s = scenario::loadScenario(file);  // one clear error instead of one per child
  scenario::applyOverrides(s, o);
  if (vm.count("json")) checkOutputs({{"json", vm["json"].as<std::string>()}}, {{"scenario file", file}});

  const std::string dir = std::filesystem::temp_directory_path().string() + "/simtlm-faults-" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  auto runArgs = [&](const std::string& json) {
    std::vector<std::string> a = {"run", file, "--mechanism", mechanism, "--contract", "--json", json};
    if (!o.configFile.empty()) a.insert(a.end(), {"--config", o.configFile});
    for (const auto& kv : o.sets) a.insert(a.end(), {"--set", kv});
    return a;
  };
  stopChildrenOnSignal();
  // The fault-free run: the coverages the campaign is compared with, and the cycles and SMs
  // the faults are drawn from.
  const ChildResult refChild = runSelf(runArgs(dir + "/reference.json"));
  const nlohmann::json ref = readJson(dir + "/reference.json");
  if (refChild.exitCode != 0 || ref.is_null() || ref.value("result", "") != "passed") {
    std::filesystem::remove_all(dir);
    throw std::runtime_error("faults: the fault-free run of " + file + " under " + mechanism +
                             " did not pass its contract:\n" + refChild.output);
  }
  const nlohmann::json& st = ref["stats"];
  const uint64_t cycles = st.value("gpu.cycles", uint64_t{1});
  int sms = 0;
  while (st.contains("sm" + std::to_string(sms) + ".cycles")) ++sms;
  auto ratio = [&](const char* num, const char* den) {
    const double d = sumPerSm(st, den);
    return d > 0 ? sumPerSm(st, num) / d : 0.0;
  };
  const double aluCoverage = ratio("uv.reliability.alu_protected", "uv.reliability.alu_ops");
  const double rfCoverage = ratio("uv.reliability.protected_registers", "uv.reliability.live_registers");

  std::vector<Injection> runs(static_cast<size_t>(injections));
  uint64_t state = static_cast<uint64_t>(seed);
  for (auto& r : runs) {
    r.seed = splitmixNext(state) % 1'000'000'000'000ull;
    r.cycle = splitmixNext(state) % std::max<uint64_t>(1, cycles);
    r.sm = static_cast<int>(splitmixNext(state) % static_cast<uint64_t>(std::max(1, sms)));
  }
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < runs.size(); i = next++) {
      Injection& r = runs[i];
      const std::string json = dir + "/" + std::to_string(i) + ".json";
      std::vector<std::string> a = runArgs(json);
      for (const std::string& kv : {"uv.fault.target=" + target, "uv.fault.cycle=" + std::to_string(r.cycle),
                                    "uv.fault.sm=" + std::to_string(r.sm), "uv.fault.seed=" + std::to_string(r.seed)})
        a.insert(a.end(), {"--set", kv});
      runSelf(a);
      r.outcome = classify(readJson(json), r.detections);
    }
  };
  std::cout << "simtlm faults: " << s.name << " under " << mechanism << ", " << injections << " " << target
            << " faults over " << cycles << " cycles and " << sms << " SMs" << std::endl;
  std::vector<std::thread> pool;
  for (int t = 0; t < std::min(jobs, injections); ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  std::filesystem::remove_all(dir);

  int count[5] = {};
  for (const auto& r : runs) count[static_cast<int>(r.outcome)]++;
  const int injected = injections - count[static_cast<int>(Outcome::NotInjected)];
  const double detectionRate = injected > 0 ? static_cast<double>(count[0]) / injected : 0.0;
  std::printf("  %-14s %8s\n", "outcome", "runs");
  for (int k = 0; k < 5; ++k) std::printf("  %-14s %8d\n", name(static_cast<Outcome>(k)), count[k]);
  std::printf("  detection rate (detected / injected): %.3f\n", detectionRate);
  std::printf("  coverage of the fault-free run: ALU %.3f, register file %.3f\n", aluCoverage, rfCoverage);

  if (vm.count("json")) {
    nlohmann::json j = {{"command", "faults"}, {"scenario", {{"name", s.name}, {"file", file}}},
                        {"mechanism", mechanism}, {"target", target}, {"seed", seed},
                        {"config_file", o.configFile}, {"config_set", o.sets}, {"cycles", cycles}, {"sms", sms},
                        {"alu_coverage", aluCoverage}, {"rf_coverage", rfCoverage},
                        {"detection_rate", detectionRate}};
    for (int k = 0; k < 5; ++k) j["outcomes"][name(static_cast<Outcome>(k))] = count[k];
    j["injections"] = nlohmann::json::array();
    for (const auto& r : runs)
      j["injections"].push_back({{"seed", r.seed}, {"cycle", r.cycle}, {"sm", r.sm},
                                 {"outcome", name(r.outcome)}, {"detections", r.detections}});
    writeJsonAtomically(vm["json"].as<std::string>(), j);
  }
  return 0;
}

}  // namespace simtlm::cli
