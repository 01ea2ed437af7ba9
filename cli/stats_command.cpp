#include "cli/stats_command.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>

#include "cli/config_loader.h"
#include "cli/interp_stats.h"
#include "cli/options.h"
#include "cli/scenario.h"
#include "cli/subprocess.h"
#include "cli/timing_platform.h"
#include "model/common/log.h"
#include "model/mechanisms/registry.h"

namespace po = boost::program_options;

namespace simtlm::cli {
namespace {

void printText(std::ostream& out, const std::vector<StatPattern>& rows) {
  size_t wName = 4, wUnit = 4;
  for (const auto& r : rows) {
    wName = std::max(wName, r.name.size());
    wUnit = std::max(wUnit, r.unit.size());
  }
  auto line = [&](const std::string& n, const std::string& u, const std::string& d) {
    out << n << std::string(wName - n.size() + 2, ' ') << u << std::string(wUnit - u.size() + 2, ' ') << d << "\n";
  };
  line("name", "unit", "description");
  for (const auto& r : rows) line(r.name, r.unit, r.description + (r.derived ? " (derived)" : ""));
}

// The interpreter's statistics, every optional group included.
std::vector<StatPattern> interpreterPatterns() {
  isa::ExecCounts counts;
  isa::LimitStudyResult limit;
  isa::BowStudyResult bow;
  stats::Registry r;
  registerInterpreterStats(r, counts, &limit, &bow);
  return collapse(r.entries());
}

// The timing model's statistics for a configuration and mechanism, from a platform built as
// `simtlm run` builds it (nothing runs).
std::vector<StatPattern> timingPatterns(const config::GpuConfig& resolved, const std::string& mechanism) {
  config::GpuConfig cfg = resolved;  // declared before the platform, which refers to both
  stats::Registry registry;
  const auto top = buildPlatform(cfg, mechanism, registry, [](gpu::HostJob&) { return false; });
  return collapse(registry.entries());
}

// Runs `simtlm stats --format json` once per mechanism (SystemC elaborates one platform per
// process), and prints the generated section of docs/statistics.md.
int printDoc(const std::vector<std::string>& configArgs, const std::string& configNote) {
  std::vector<MechanismListing> timing;
  for (const auto& m : mechanisms::registered()) {
    std::vector<std::string> args = {"stats", "--format", "json", "--mechanism", m.name};
    args.insert(args.end(), configArgs.begin(), configArgs.end());
    const ChildResult child = runSelf(args);
    nlohmann::json j;
    try {
      if (child.exitCode != 0) throw std::runtime_error("exit code " + std::to_string(child.exitCode));
      j = nlohmann::json::parse(child.output);
    } catch (const std::exception& e) {
      throw std::runtime_error("--markdown-doc: 'simtlm stats --mechanism " + m.name + "' failed (" + e.what() +
                               "): " + child.output.substr(0, child.output.find('\n')));
    }
    if (!j.at("mismatches").empty())  // one row per pattern would hide what differs
      throw std::runtime_error("--markdown-doc: with mechanism " + m.name + ", statistics of one pattern differ: " +
                               j.at("mismatches").at(0).get<std::string>());
    timing.push_back({m.name, m.summary, listingFromJson(j)});
  }
  std::cout << statisticsDoc(timing, interpreterPatterns(), configNote);
  return 0;
}

}  // namespace

nlohmann::json listingJson(const std::vector<StatPattern>& rows) {
  nlohmann::json list = nlohmann::json::array(), mismatches = nlohmann::json::array();
  for (const auto& r : rows) {
    list.push_back({{"name", r.name}, {"unit", r.unit}, {"description", r.description},
                    {"kind", r.derived ? "derived" : "counter"}, {"instances", r.instances}});
    for (const auto& m : r.mismatches) mismatches.push_back(m);
  }
  return {{"statistics", list}, {"mismatches", mismatches}};
}

std::vector<StatPattern> listingFromJson(const nlohmann::json& j) {
  std::vector<StatPattern> rows;
  for (const auto& s : j.at("statistics"))
    rows.push_back({s.at("name"), s.at("unit"), s.at("description"), s.at("kind") == "derived",
                    s.at("instances").get<size_t>(), {}});
  return rows;
}

int cmdStats(const std::vector<std::string>& args) {
  po::options_description desc("stats");
  desc.add_options()("config", po::value<std::string>(), "machine configuration (INI)")(
      "set", po::value<std::vector<std::string>>()->composing(), "override key=value")(
      "mechanism", po::value<std::string>(), "mechanism (or a composition a+b); default baseline")(
      "format", po::value<std::string>()->default_value("text"), "text, markdown or json")(
      "interpreter", "the functional interpreter's statistics (interp.*, limit.*, bow.*) instead")(
      "markdown-doc", "print the generated reference section of docs/statistics.md (every mechanism)");
  auto vm = parseCommand("stats", "stats [options]", desc, {}, args);
  const std::string format = vm["format"].as<std::string>();
  if (format != "text" && format != "markdown" && format != "json")
    throw std::invalid_argument("--format '" + format + "': expected text, markdown or json");
  // Checked as `simtlm run` checks them: the mechanism, then the configuration.
  const std::string mechanism = vm.count("mechanism") ? vm["mechanism"].as<std::string>() : "baseline";
  if (const std::string why = scenario::mechanismProblem(mechanism); !why.empty())
    throw config::ConfigError("--mechanism: " + why);
  config::ConfigLoader loader;
  std::vector<std::string> configArgs;
  if (vm.count("config")) {
    loader.loadFile(vm["config"].as<std::string>());
    configArgs = {"--config", vm["config"].as<std::string>()};
  }
  if (vm.count("set")) {
    loader.setAll(vm["set"].as<std::vector<std::string>>());
    for (const auto& kv : vm["set"].as<std::vector<std::string>>()) configArgs.insert(configArgs.end(), {"--set", kv});
  }
  const config::GpuConfig cfg = loader.resolve();
  if (vm.count("markdown-doc")) {
    for (const char* o : {"mechanism", "interpreter"})
      if (vm.count(o)) throw std::invalid_argument(std::string("--markdown-doc lists every mechanism and the interpreter: drop --") + o);
    if (!vm["format"].defaulted()) throw std::invalid_argument("--markdown-doc writes markdown: drop --format");
    std::string note = vm.count("config") ? "configuration `" + vm["config"].as<std::string>() + "`" : "the default configuration";
    if (vm.count("set")) note += " with " + std::to_string(vm["set"].as<std::vector<std::string>>().size()) + " --set";
    return printDoc(configArgs, note);
  }
  if (vm.count("interpreter") && vm.count("mechanism"))
    throw std::invalid_argument("--interpreter lists the interpreter's statistics: drop --mechanism");
  const std::vector<StatPattern> rows = vm.count("interpreter") ? interpreterPatterns() : timingPatterns(cfg, mechanism);
  if (format == "json") {  // its "mismatches" list says what a warning would
    nlohmann::json j = listingJson(rows);
    j["mechanism"] = vm.count("interpreter") ? "interpreter" : mechanism;
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  for (const auto& r : rows)
    for (const auto& m : r.mismatches) log::get("stats").warn("{} (pattern {})", m, r.name);
  if (format == "markdown") {
    markdownTable(std::cout, rows);
  } else {
    printText(std::cout, rows);
  }
  return 0;
}

}  // namespace simtlm::cli
