// Every scenario shipped in scenarios/ loads, runs on the functional interpreter and passes
// all its checks; its JSON result carries what DESIGN.md 9 asks for.
#include <gtest/gtest.h>

#include "cli/scenario_run.h"
#include "tests/scenario/scenario_test_support.h"

using namespace simtlm;

class ShippedScenario : public ::testing::TestWithParam<std::string> {};

TEST_P(ShippedScenario, Passes) {
  scenario::Scenario s = scenario::loadScenario(GetParam());
  scenario::ScenarioResult r = scenario::runScenario(s);
  std::ostringstream out;
  scenario::printScenarioResult(out, r);
  EXPECT_TRUE(r.passed) << out.str();
  ASSERT_EQ(r.checks.size(), s.checks.size());
  EXPECT_FALSE(s.checks.empty()) << "a shipped scenario should check something";

  nlohmann::json j = scenario::toJson(r);
  EXPECT_EQ(j["scenario"]["name"], s.name);
  EXPECT_EQ(j["mechanism"], s.mechanism);
  EXPECT_TRUE(j["config"].contains("sm.num_warps"));
  EXPECT_EQ(j["checks"].size(), s.checks.size());
  EXPECT_EQ(j["result"], "passed");
  for (const auto& [k, v] : j["stats"].items()) EXPECT_TRUE(v.is_number_unsigned()) << k;
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ShippedScenario,
                         ::testing::ValuesIn(test::filesIn(SIMTLM_SOURCE_DIR "/scenarios", ".yaml")),
                         [](const auto& info) { return test::stemName(info.param); });

TEST(ShippedScenarios, AllSixAreThere) {
  auto files = test::filesIn(SIMTLM_SOURCE_DIR "/scenarios", ".yaml");
  for (const char* name : {"vecadd", "matmul", "fig3_4x2", "barrier_deadlock", "atomics_histogram", "divergence"})
    EXPECT_NE(std::find_if(files.begin(), files.end(), [&](const std::string& f) { return test::stemName(f) == name; }),
              files.end()) << name;
}
