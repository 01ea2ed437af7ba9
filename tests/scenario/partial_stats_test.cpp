// A run that stops (a kernel fault, a deadlock) keeps the statistics gathered until then in its
// result: the launch that stopped is listed with what it did, marked partial, its counts are in
// the totals, and the result as a whole says it is partial. On the interpreter and on the
// timing model. Each test is its own process (one timing simulation per process).
#include <gtest/gtest.h>

#include "cli/scenario.h"
#include "cli/scenario_run.h"
#include "scenario_test_support.h"

using namespace simtlm::scenario;

namespace {

// A histogram launch that completes, then a launch whose block 1 deadlocks at its barrier.
const std::string kStops = "\n" + simtlm::test::kHistogramScenario + "  - {kernel: kernels/barrier_deadlock.s, grid: 3, block: 96}\n";

Scenario load(const std::string& text) { return loadScenarioText(text, "t.yaml", SIMTLM_SOURCE_DIR "/scenarios"); }

uint64_t count(const nlohmann::json& stats, const std::string& name) {
  EXPECT_TRUE(stats.contains(name)) << name;
  return stats.value(name, uint64_t{0});
}

}  // namespace

TEST(PartialStats, TheInterpreterKeepsTheStoppedLaunchsCounts) {
  const Scenario s = load(kStops);
  const ScenarioResult r = runScenario(s, false);
  ASSERT_NE(r.error.find("deadlock"), std::string::npos) << r.error;
  const nlohmann::json j = toJson(r);
  EXPECT_EQ(j["partial"], true);
  ASSERT_EQ(j["launches"].size(), 2u);
  EXPECT_EQ(j["launches"][0]["partial"], false);
  EXPECT_EQ(j["launches"][1]["partial"], true);
  // Block 0 of the deadlocking launch ran to its end, block 1 stopped: 2 blocks, 6 warps seen.
  const nlohmann::json& stopped = j["launches"][1]["stats"];
  EXPECT_EQ(count(stopped, "interp.blocks"), 2u);
  EXPECT_GT(count(stopped, "interp.warp_instructions"), 0u);
  EXPECT_EQ(count(j["stats"], "interp.warp_instructions"),
            count(j["launches"][0]["stats"], "interp.warp_instructions") + count(stopped, "interp.warp_instructions"));
}

TEST(PartialStats, TheTimingModelKeepsTheStoppedLaunchsCounts) {
  const Scenario s = load(std::string("config: configs/tiny.ini\n") + kStops);
  const ScenarioResult r = runScenarioTimed(s);
  ASSERT_NE(r.error.find("deadlock"), std::string::npos) << r.error;
  const nlohmann::json j = toJson(r, LaunchStats::All);
  EXPECT_EQ(j["partial"], true);
  ASSERT_EQ(j["launches"].size(), 2u);
  EXPECT_EQ(j["launches"][0]["partial"], false);
  EXPECT_EQ(j["launches"][1]["partial"], true);
  const nlohmann::json& stopped = j["launches"][1]["stats"];
  EXPECT_GT(count(stopped, "gpu.cycles"), 0u);
  EXPECT_GT(count(stopped, "sm0.issue.warp_instructions") + count(stopped, "sm1.issue.warp_instructions"), 0u);
  EXPECT_EQ(count(j["stats"], "gpu.cycles"),
            count(j["launches"][0]["stats"], "gpu.cycles") + count(stopped, "gpu.cycles"));
  EXPECT_EQ(count(j["stats"], "gpu.kernels"), 2u);
}

TEST(PartialStats, ACompleteRunIsNotPartial) {
  const Scenario s = load(std::string(kStops).substr(0, std::string(kStops).find("  - {kernel: kernels/barrier")));
  const ScenarioResult r = runScenario(s, false);  // (it points at s)
  ASSERT_EQ(r.error, "");
  const nlohmann::json j = toJson(r);
  EXPECT_EQ(j["partial"], false);
  EXPECT_EQ(j["launches"][0]["partial"], false);
}
