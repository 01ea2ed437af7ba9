// Diagnostic logging (spdlog): one logger per module, named by its place in the model ("gpu",
// "gpu.sm3", "gpu.sm3.issue", "gpu.mem.l2", "gpu.mem.dram", "cli"), all writing to stderr as
//   gpu.sm3: debug: block 12 (12,0,0) admitted at cycle 40
// Levels are set for every logger at once and per module; a module's level applies to its
// children ("gpu.sm3" covers "gpu.sm3.issue" but not "gpu.sm30"). The default is warn, so a run
// prints nothing unless something is wrong. The command line sets them with --log-level.
//
// A unit takes its logger once (log::get) and keeps the reference. In per-cycle code, test
// `logger.should_log(level)` before building a message, so that a silent logger costs one compare.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <spdlog/logger.h>

namespace simtlm::log {

using Level = spdlog::level::level_enum;

// The levels of every logger: one for all, and overrides for modules and their children.
struct Levels {
  Level global = spdlog::level::warn;
  std::vector<std::pair<std::string, Level>> modules;  // as given; the longest matching name wins
  // The level of the logger named `module`.
  Level levelOf(const std::string& module) const;
};

// "trace|debug|info|warn|error|off" optionally followed (or replaced) by MODULE=LEVEL items,
// comma-separated: "debug", "warn,gpu.sm3.issue=trace", "gpu.mem=debug". Throws
// std::invalid_argument naming `option` and the allowed values.
Levels parseLevels(const std::string& text, const std::string& option = "--log-level");

// The levels of every logger made so far and of every one made later.
void setLevels(const Levels& levels);
const Levels& levels();

// The logger of `module`, made on first use with the current levels. The reference stays valid
// for the whole program.
spdlog::logger& get(const std::string& module);

// The name of a level as --log-level spells it ("warn").
const char* levelName(Level level);

}  // namespace simtlm::log
