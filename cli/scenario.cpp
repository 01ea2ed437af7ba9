// Loading a scenario file: the top level, the machine configuration and the buffers.

#include "isa/input_file.h"
// Launches and checks are read in scenario_launch.cpp and scenario_checks.cpp.
#include "cli/scenario.h"
#include "isa/ptx/ptx_translate.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "cli/config_loader.h"
#include "cli/scenario_parse.h"
#include "isa/assembler.h"
#include "isa/binary.h"
#include "isa/diagnostics.h"
#include "model/mechanisms/registry.h"
#include "workloads/data_dir.h"

namespace simtlm::scenario {

// Defined in scenario_launch.cpp and scenario_checks.cpp.
Launch parseLaunch(const yaml::Value& v, const Scenario& s, const std::string& baseDir);
Check parseCheck(const yaml::Value& v, const Scenario& s, const std::string& baseDir);

std::vector<std::string> knownMechanisms() {
  std::vector<std::string> names;
  for (const auto& m : mechanisms::registered()) names.push_back(m.name);
  return names;
}

std::string mechanismProblem(const std::string& name) {
  try {
    mechanisms::parseMechanisms(name);
    return {};
  } catch (const config::ConfigError& e) {
    return e.what();
  }
}

std::vector<std::string> mechanismList(const std::string& option, const std::string& text) {
  std::vector<std::string> names;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) names.push_back(item);
  if (names.empty()) throw std::invalid_argument(option + ": expected a list such as baseline,darsie");
  for (size_t i = 0; i < names.size(); ++i) {
    if (const std::string why = mechanismProblem(names[i]); !why.empty()) throw std::invalid_argument(option + ": " + why);
    if (std::find(names.begin(), names.begin() + static_cast<long>(i), names[i]) != names.begin() + static_cast<long>(i))
      throw std::invalid_argument(option + ": '" + names[i] + "' is listed twice");
  }
  return names;
}

isa::Kernel loadKernelFile(const std::string& path, const std::string& entry) {
  if (isa::ptx::isPtxPath(path)) return isa::ptx::loadPtxFile(path, entry);
  if (!entry.empty()) throw InputError(path, 0, 0, "an entry names a kernel of a PTX module; this is not a .ptx file");
  if (path.size() > 4 && path.substr(path.size() - 4) == ".bin") {
    isa::Kernel k = isa::deserializeKernel(readInputFile(path, "kernel binary", false), path);
    isa::checkKernel(k);
    return k;
  }
  return isa::assembleFile(path);
}

const Buffer* Scenario::findBuffer(const std::string& n) const {
  for (const auto& b : buffers)
    if (b.name == n) return &b;
  return nullptr;
}

bool Scenario::expectsError() const {
  for (const auto& c : checks)
    if (c.kind == Check::Kind::ExpectError) return true;
  return false;
}

std::vector<std::pair<std::string, std::string>> Scenario::inputFiles() const {
  std::vector<std::pair<std::string, std::string>> out = {{"scenario file", file}};
  if (!configFile.empty()) out.emplace_back("configuration file", configFile);
  for (const auto& l : launches)
    if (!l.kernelFile.empty()) out.emplace_back("kernel file", l.kernelFile);
  for (const auto& b : buffers)
    if (!b.init.file.empty()) out.emplace_back("word file", b.init.file);
  for (const auto& c : checks)
    if (!c.expected.file.empty()) out.emplace_back("word file", c.expected.file);
  return out;
}

namespace {

void parseConfig(const yaml::Map& top, Scenario& s, const std::string& baseDir) {
  config::ConfigLoader loader;
  std::optional<yaml::Value> where;
  std::vector<std::pair<std::string, yaml::Value>> setValues;
  if (auto c = top.opt("config")) {
    where = c;
    s.configFile = resolvePath(c->str(), {baseDir, workloads::dataDir()});
    std::error_code ec;
    if (std::filesystem::is_directory(s.configFile, ec)) c->fail("'" + s.configFile + "' is a folder, not a configuration file");
    if (!std::filesystem::is_regular_file(s.configFile, ec)) c->fail("cannot open '" + s.configFile + "'");
    loader.loadFile(s.configFile);  // its errors name the INI file, line and column
  }
  if (auto set = top.opt("set")) {
    where = set;
    yaml::Map m(*set, {});
    for (const auto& [key, value] : m.entries()) {
      std::string text = value.str();
      config::GpuConfig probe = loader.current();
      std::string err = config::assignmentError(probe, key, text);
      if (!err.empty()) value.fail(err);
      loader.set(key + "=" + text, s.file + ":" + std::to_string(value.where().line));
      s.sets.emplace_back(key, text);
      setValues.emplace_back(key, value);
    }
  }
  if (auto limits = top.opt("limits")) {  // limits: {max_cycles: N, max_instructions: N}
    where = limits;
    yaml::Map m(*limits, {"max_cycles", "max_instructions"});
    for (const auto& [key, value] : m.entries()) {
      const std::string param = "limits." + key, text = value.str();
      config::GpuConfig probe = loader.current();
      std::string err = config::assignmentError(probe, param, text);
      if (!err.empty()) value.fail(err);
      loader.set(param + "=" + text, s.file + ":" + std::to_string(value.where().line));
      s.sets.emplace_back(param, text);
    }
  }
  try {
    s.config = loader.resolve();
  } catch (const config::ConfigError& e) {
    std::string msg = e.what();
    for (const auto& [key, value] : setValues)  // point at an override the message names
      if (msg.find(key + " = ") != std::string::npos) value.fail(msg);
    if (where) where->fail(msg);
    throw InputError(s.file, 0, 0, msg);
  }
}

Buffer parseBuffer(const yaml::Value& v, const std::string& baseDir) {
  yaml::Map m(v, {"name", "words", "bytes", "type", "init"});
  Buffer b;
  b.where = v.where();
  b.name = m.get("name").name();
  if (auto t = m.opt("type")) b.type = parseType(*t);
  if (m.has("words") && m.has("bytes")) m.get("bytes").fail("give either words or bytes, not both");
  if (auto w = m.opt("words")) b.words = static_cast<uint32_t>(w->integer(1, kMaxBufferWords));
  if (auto by = m.opt("bytes")) {
    int64_t n = by->integer(4, int64_t{kMaxBufferWords} * 4);
    if (n % 4) by->fail(std::to_string(n) + " is not a multiple of 4 (buffers hold 32-bit words)");
    b.words = static_cast<uint32_t>(n / 4);
  }
  if (auto init = m.opt("init")) b.init = parseContents(*init, b.type, baseDir, false);
  if (b.words == 0) {
    if (b.init.kind != Contents::Kind::Words) v.fail("missing key 'words' (or 'bytes')");
    b.words = static_cast<uint32_t>(b.init.words.size());  // sized by its file
  }
  checkFits(b.init, b.words);
  return b;
}

template <typename T, typename F>
std::vector<T> parseList(const yaml::Value& v, size_t maxItems, F parse) {
  std::vector<T> out;
  auto items = v.items();
  if (items.size() > maxItems) v.fail("at most " + std::to_string(maxItems) + " entries");
  for (const auto& item : items) out.push_back(parse(item));
  return out;
}

}  // namespace

Scenario loadScenarioText(const std::string& text, const std::string& fileName, const std::string& baseDir) {
  yaml::Value doc = yaml::parseDocument(text, fileName);
  if (doc.isNull()) doc.fail("the scenario is empty (see docs/scenarios.md)");
  yaml::Map top(doc, {"name", "description", "config", "set", "limits", "mechanism", "buffers", "launches", "checks"});
  Scenario s;
  s.file = fileName;
  s.name = top.has("name") ? top.get("name").name() : std::filesystem::path(fileName).stem().string();
  if (auto d = top.opt("description")) s.description = d->str();
  if (auto m = top.opt("mechanism")) {
    s.mechanism = m->str();
    if (const std::string why = mechanismProblem(s.mechanism); !why.empty()) m->fail(why);
  }
  parseConfig(top, s, baseDir);
  uint64_t total = 0;
  if (auto bufs = top.opt("buffers")) {
    for (const auto& item : bufs->items()) {
      Buffer b = parseBuffer(item, baseDir);
      if (const Buffer* prev = s.findBuffer(b.name))
        item.fail("buffer '" + b.name + "' is declared twice (first on line " + std::to_string(prev->where.line) + ")");
      total += uint64_t{b.words} * 4;
      if (total > kMaxTotalBytes) item.fail("the buffers exceed " + std::to_string(kMaxTotalBytes >> 20) + " MiB in all");
      s.buffers.push_back(std::move(b));
    }
  }
  yaml::Value launches = top.get("launches");
  s.launches = parseList<Launch>(launches, 256, [&](const yaml::Value& v) { return parseLaunch(v, s, baseDir); });
  if (s.launches.empty()) launches.fail("at least one launch is needed");
  if (auto checks = top.opt("checks")) {
    s.checks = parseList<Check>(*checks, 1024, [&](const yaml::Value& v) { return parseCheck(v, s, baseDir); });
    for (size_t i = 0; i < s.checks.size() && s.checks.size() > 1; ++i)
      if (s.checks[i].kind == Check::Kind::ExpectError)
        yaml::fail(s.checks[i].where, "checks[" + std::to_string(i) +
                                          "]: expect_error must be the only check (a run that stops has nothing else to check)");
  }
  return s;
}

Scenario loadScenario(const std::string& path) {
  const std::string text = readInputFile(path, "scenario file");
  std::string dir = std::filesystem::path(path).parent_path().string();
  return loadScenarioText(text, path, dir.empty() ? "." : dir);
}

}  // namespace simtlm::scenario
