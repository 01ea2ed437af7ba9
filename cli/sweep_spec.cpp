#include "cli/sweep_spec.h"

#include "isa/input_file.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/config_loader.h"
#include "cli/energy_options.h"
#include "cli/scenario.h"
#include "cli/scenario_parse.h"
#include "isa/diagnostics.h"
#include "model/common/yaml_reader.h"
#include "workloads/data_dir.h"

namespace simtlm::cli {
namespace {

std::string safe(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' ? c : '_';
  return out;
}

std::vector<std::string> names(const yaml::Value& v) {
  if (!v.isSequence() || v.items().empty()) v.fail("expected a non-empty list");
  std::vector<std::string> out;
  for (const yaml::Value& item : v.items()) {
    std::string n = item.str();
    for (const auto& seen : out)
      if (seen == n) item.fail("'" + n + "' is listed twice");
    out.push_back(std::move(n));
  }
  return out;
}

}  // namespace

std::string SweepPoint::id() const {
  std::string s = safe(scenario) + "__" + safe(mechanism);
  for (const auto& [k, v] : sets) s += "__" + safe(k) + "=" + safe(v);
  return s;
}

std::vector<std::string> SweepPoint::runArgs(const std::string& configFile, const std::string& energyFile,
                                             const std::string& json) const {
  std::vector<std::string> a = {"run", scenarioFile, "--mechanism", mechanism, "--json", json};
  if (!configFile.empty()) a.insert(a.end(), {"--config", configFile});
  if (!energyFile.empty()) a.insert(a.end(), {"--energy", energyFile});
  if (mechanism == "baseline") a.push_back("--limit-study");  // DARSIE Fig. 1/2 (mechanism-independent)
  for (const auto& [k, v] : sets) a.insert(a.end(), {"--set", k + "=" + v});
  return a;
}

SweepSpec loadSweep(const std::string& path) {
  const yaml::Value doc = yaml::parseDocument(readInputFile(path, "sweep file"), path);
  yaml::Map top(doc, {"name", "description", "scenarios", "mechanisms", "config", "energy", "set"});
  const std::string dir = std::filesystem::path(path).parent_path().string();
  const std::string data = workloads::dataDir();

  SweepSpec s;
  s.file = path;
  s.name = top.has("name") ? top.get("name").name() : std::filesystem::path(path).stem().string();
  if (auto c = top.opt("config")) {
    s.configFile = scenario::resolvePath(c->str(), {dir, data});
    if (!std::filesystem::is_regular_file(s.configFile)) c->fail("cannot find configuration '" + c->str() + "'");
    s.configFile = std::filesystem::absolute(s.configFile).lexically_normal().string();
  }
  if (auto e = top.opt("energy")) {  // checked here, so that a bad table fails before any point runs
    s.energyFile = scenario::resolvePath(e->str(), {dir, data});
    if (!std::filesystem::is_regular_file(s.energyFile)) e->fail("cannot find energy table '" + e->str() + "'");
    s.energyFile = std::filesystem::absolute(s.energyFile).lexically_normal().string();
    loadEnergyTable(s.energyFile);  // (a bad table's error names the table, line and column)
  }
  const yaml::Value mv = top.get("mechanisms");
  s.mechanisms = names(mv);
  for (size_t i = 0; i < s.mechanisms.size(); ++i)
    if (const std::string why = scenario::mechanismProblem(s.mechanisms[i]); !why.empty()) mv.items()[i].fail(why);

  // The grid: every combination of the listed values, first key varying slowest.
  std::vector<std::vector<std::string>> values;
  if (auto g = top.opt("set")) {
    yaml::Map grid(*g, {});  // any key: the run checks parameter names and values
    for (const auto& [key, v] : grid.entries()) {
      s.gridKeys.push_back(key);
      values.push_back(v.isSequence() ? names(v) : std::vector<std::string>{v.str()});
      // Each value must make a valid machine: one error here rather than one per point.
      const std::vector<yaml::Value> items = v.isSequence() ? v.items() : std::vector<yaml::Value>{v};
      for (const yaml::Value& item : items) {
        try {
          config::ConfigLoader loader;
          if (!s.configFile.empty()) loader.loadFile(s.configFile);
          loader.set(key + "=" + item.str(), path);
          loader.resolve();
        } catch (const InputError&) {
          throw;
        } catch (const std::exception& e) {
          item.fail(e.what());
        }
      }
    }
  }
  std::vector<std::vector<std::pair<std::string, std::string>>> combos{{}};
  for (size_t k = 0; k < s.gridKeys.size(); ++k) {
    std::vector<std::vector<std::pair<std::string, std::string>>> next;
    for (const auto& c : combos)
      for (const auto& v : values[k]) {
        next.push_back(c);
        next.back().emplace_back(s.gridKeys[k], v);
      }
    combos = std::move(next);
  }

  const yaml::Value sv = top.get("scenarios");
  for (const yaml::Value& item : sv.items()) {
    std::string f = item.str();
    if (f.find('/') == std::string::npos && f.find(".yaml") == std::string::npos) f = data + "/scenarios/" + f + ".yaml";
    else f = scenario::resolvePath(f, {dir, data});
    if (!std::filesystem::is_regular_file(f)) item.fail("cannot find scenario '" + item.str() + "'");
    f = std::filesystem::absolute(f).lexically_normal().string();  // command lines work from anywhere
    const std::string stem = std::filesystem::path(f).stem().string();
    for (const SweepPoint& p : s.points)
      if (p.scenario == stem) item.fail("scenario '" + stem + "' is listed twice");
    for (const auto& c : combos)
      for (const auto& m : s.mechanisms) s.points.push_back({stem, f, m, c});
  }
  if (sv.items().empty()) sv.fail("expected a non-empty list");
  return s;
}

}  // namespace simtlm::cli
