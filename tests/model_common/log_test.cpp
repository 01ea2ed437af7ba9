// Logging (model/common/log.h): --log-level's values, per-module levels that reach a module's
// children and not its siblings, and what a logger writes on stderr.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "model/common/log.h"

namespace simtlm {
namespace {

using spdlog::level::level_enum;

std::string errorOf(const std::string& text) {
  try {
    log::parseLevels(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(LogLevels, ParsesAGlobalLevelAndModuleLevels) {
  EXPECT_EQ(log::parseLevels("debug").global, spdlog::level::debug);
  EXPECT_TRUE(log::parseLevels("debug").modules.empty());
  EXPECT_EQ(log::parseLevels("off").global, spdlog::level::off);
  EXPECT_EQ(log::parseLevels("error").global, spdlog::level::err);

  const log::Levels l = log::parseLevels("warn,gpu.sm3.issue=trace");
  EXPECT_EQ(l.global, spdlog::level::warn);
  ASSERT_EQ(l.modules.size(), 1u);
  EXPECT_EQ(l.modules[0].first, "gpu.sm3.issue");
  EXPECT_EQ(l.modules[0].second, spdlog::level::trace);

  const log::Levels m = log::parseLevels("gpu.mem=debug");  // modules alone: the rest at warn
  EXPECT_EQ(m.global, spdlog::level::warn);
  EXPECT_EQ(m.levelOf("gpu.mem.l2"), spdlog::level::debug);
  EXPECT_EQ(m.levelOf("gpu.memory"), spdlog::level::warn);
}

TEST(LogLevels, TheLongestMatchingModuleWins) {
  const log::Levels l = log::parseLevels("error,gpu=info,gpu.sm3=trace,cli=off");
  EXPECT_EQ(l.levelOf("gpu.sm3.issue"), spdlog::level::trace);
  EXPECT_EQ(l.levelOf("gpu.sm3"), spdlog::level::trace);
  EXPECT_EQ(l.levelOf("gpu.sm30"), spdlog::level::info);  // a sibling whose name starts alike
  EXPECT_EQ(l.levelOf("gpu"), spdlog::level::info);
  EXPECT_EQ(l.levelOf("gpux"), spdlog::level::err);
  EXPECT_EQ(l.levelOf("cli.sweep"), spdlog::level::off);
  EXPECT_EQ(l.levelOf("interp"), spdlog::level::err);
  // The same module twice: the later one.
  EXPECT_EQ(log::parseLevels("gpu=debug,gpu=error").levelOf("gpu.sm0"), spdlog::level::err);
}

TEST(LogLevels, BadValuesNameTheOptionAndTheAllowedValues) {
  const std::string allowed = "(allowed: trace, debug, info, warn, error, off, or MODULE=LEVEL items after it";
  const std::pair<const char*, const char*> cases[] = {
      {"verbose", "unknown level 'verbose'"},
      {"WARN", "unknown level 'WARN'"},
      {"warn,gpu.sm3=loud", "unknown level 'loud'"},
      {"gpu.sm3=", "a level is missing"},
      {"warn,debug", "two levels for every module ('debug')"},
      {"gpu=debug,warn", "the level for every module comes first ('warn')"},
      {"", "an empty item"},
      {"warn,,gpu=debug", "an empty item"},
      {"=debug", "'' is not a module name"},
      {"gpu.=debug", "'gpu.' is not a module name"},
      {"gpu sm3=debug", "'gpu sm3' is not a module name"},
  };
  for (const auto& [text, why] : cases) {
    const std::string e = errorOf(text);
    EXPECT_EQ(e.rfind(std::string("--log-level '") + text + "': " + why, 0), 0u) << e;
    EXPECT_NE(e.find(allowed), std::string::npos) << e;
  }
}

TEST(Loggers, AModuleLevelEnablesItsChildrenNotItsSiblings) {
  spdlog::logger& before = log::get("gpu.sm3.issue");  // made before the levels are set
  EXPECT_FALSE(before.should_log(spdlog::level::info));  // default: warn
  EXPECT_TRUE(before.should_log(spdlog::level::warn));
  log::setLevels(log::parseLevels("warn,gpu.sm3=trace"));
  EXPECT_TRUE(before.should_log(spdlog::level::trace));
  EXPECT_TRUE(log::get("gpu.sm3").should_log(spdlog::level::trace));
  EXPECT_TRUE(log::get("gpu.sm3.fetch").should_log(spdlog::level::trace));  // made after
  EXPECT_FALSE(log::get("gpu.sm30.issue").should_log(spdlog::level::debug));
  EXPECT_FALSE(log::get("gpu.sm4.issue").should_log(spdlog::level::info));
  EXPECT_TRUE(log::get("gpu.sm4.issue").should_log(spdlog::level::warn));
  EXPECT_FALSE(log::get("gpu").should_log(spdlog::level::info));  // a parent is not a child
  EXPECT_EQ(&log::get("gpu.sm3.issue"), &before);                 // one logger per module

  testing::internal::CaptureStderr();
  before.trace("PC 0x{:x} issued", 0x40);
  log::get("gpu.sm4.issue").debug("not shown");
  log::get("gpu.sm4.issue").warn("shown");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "gpu.sm3.issue: trace: PC 0x40 issued\ngpu.sm4.issue: warning: shown\n");
  log::setLevels(log::Levels{});
  EXPECT_FALSE(before.should_log(spdlog::level::debug));
}

}  // namespace
}  // namespace simtlm
