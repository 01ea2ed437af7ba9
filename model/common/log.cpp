#include "model/common/log.h"

#include <cctype>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include <spdlog/sinks/stdout_sinks.h>

namespace simtlm::log {
namespace {

constexpr std::pair<const char*, Level> kLevels[] = {
    {"trace", spdlog::level::trace}, {"debug", spdlog::level::debug}, {"info", spdlog::level::info},
    {"warn", spdlog::level::warn},   {"error", spdlog::level::err},   {"off", spdlog::level::off}};

const char* const kUsage =
    "allowed: trace, debug, info, warn, error, off, or MODULE=LEVEL items after it, comma-separated, "
    "e.g. warn,gpu.sm3.issue=trace";

// Loggers live as long as the program: units keep references to them.
struct Registry {
  std::mutex mutex;
  Levels levels;
  std::map<std::string, std::shared_ptr<spdlog::logger>> loggers;
  std::shared_ptr<spdlog::sinks::stderr_sink_mt> sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
};

Registry& registry() {
  static Registry r;
  return r;
}

// `prefix` names `module` or one of its ancestors.
bool covers(const std::string& prefix, const std::string& module) {
  return module.compare(0, prefix.size(), prefix) == 0 && (module.size() == prefix.size() || module[prefix.size()] == '.');
}

bool validModule(const std::string& m) {
  if (m.empty() || m.front() == '.' || m.back() == '.' || m.find("..") != std::string::npos) return false;
  for (char c : m)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')) return false;
  return true;
}

}  // namespace

Level Levels::levelOf(const std::string& module) const {
  Level level = global;
  size_t best = 0;
  for (const auto& [prefix, l] : modules)
    if (covers(prefix, module) && prefix.size() >= best) {
      best = prefix.size();
      level = l;
    }
  return level;
}

Levels parseLevels(const std::string& text, const std::string& option) {
  const auto fail = [&](const std::string& why) {
    throw std::invalid_argument(option + " '" + text + "': " + why + " (" + kUsage + ")");
  };
  const auto level = [&](const std::string& name) {
    for (const auto& [n, l] : kLevels)
      if (name == n) return l;
    fail(name.empty() ? "a level is missing" : "unknown level '" + name + "'");
    return spdlog::level::off;
  };
  Levels out;
  bool global = false;
  size_t start = 0;
  do {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? std::string::npos : comma + 1;
    if (item.empty()) fail("an empty item");
    const size_t eq = item.find('=');
    if (eq == std::string::npos) {
      if (global) fail("two levels for every module ('" + item + "'); name a module as MODULE=LEVEL");
      if (!out.modules.empty()) fail("the level for every module comes first ('" + item + "')");
      out.global = level(item);
      global = true;
      continue;
    }
    const std::string module = item.substr(0, eq);
    if (!validModule(module)) fail("'" + module + "' is not a module name (letters, digits, '_', '-', dot-separated)");
    out.modules.emplace_back(module, level(item.substr(eq + 1)));
  } while (start != std::string::npos);
  return out;
}

void setLevels(const Levels& levels) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.levels = levels;
  for (auto& [name, logger] : r.loggers) logger->set_level(levels.levelOf(name));
}

const Levels& levels() { return registry().levels; }

spdlog::logger& get(const std::string& module) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto& logger = r.loggers[module];
  if (!logger) {
    logger = std::make_shared<spdlog::logger>(module, r.sink);
    logger->set_pattern("%n: %l: %v");
    logger->set_level(r.levels.levelOf(module));
    logger->flush_on(spdlog::level::trace);  // stderr: no message waits behind a crash
  }
  return *logger;
}

const char* levelName(Level level) {
  for (const auto& [n, l] : kLevels)
    if (l == level) return n;
  return "?";
}

}  // namespace simtlm::log
