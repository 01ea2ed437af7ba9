// Each malformed scenario in tests/scenario_errors gives its own message naming file, line,
// column and key (the first line of the case: "# expect: <text>").
#include <gtest/gtest.h>

#include <fstream>

#include "cli/scenario_run.h"
#include "isa/diagnostics.h"
#include "tests/scenario/scenario_test_support.h"

using namespace simtlm;

class ScenarioError : public ::testing::TestWithParam<std::string> {};

TEST_P(ScenarioError, NamesFileLineColumnAndKey) {
  std::ifstream in(GetParam());
  std::string first;
  std::getline(in, first);
  ASSERT_EQ(first.rfind("# expect: ", 0), 0u) << "the case must start with '# expect: '";
  std::string expected = first.substr(10);
  try {
    scenario::Scenario s = scenario::loadScenario(GetParam());
    scenario::runScenario(s);  // a few errors (a workload's buffer names) appear only now
    FAIL() << "no error; expected " << expected;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos)
        << "message:\n  " << e.what() << "\ndoes not contain:\n  " << expected;
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "one line: " << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, ScenarioError,
                         ::testing::ValuesIn(test::filesIn(SIMTLM_SOURCE_DIR "/tests/scenario_errors", ".yaml")),
                         [](const auto& info) { return test::stemName(info.param); });
