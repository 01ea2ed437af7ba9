// A result's `units` map (cli/interp_stats.h): one unit for every statistic in `stats`, no
// more, the timing model's from its registry and the interpreter's (interp.*, limit.*) beside
// them. And the registry a platform fills when it is built (what `simtlm stats` lists) holds
// every statistic a run then reports. Each test is its own process (one timing simulation).
#include <gtest/gtest.h>

#include <set>

#include "cli/emulate.h"
#include "cli/scenario.h"
#include "cli/scenario_run.h"
#include "scenario_test_support.h"

using namespace simtlm::scenario;

namespace {

const std::string kTiny = "\nconfig: configs/tiny.ini\nmechanism: darsie\n" + simtlm::test::kHistogramScenario + R"(checks:
  - {stat: limit.tb_redundant, op: ">=", value: 0}
)";

Scenario load(const std::string& text) { return loadScenarioText(text, "t.yaml", SIMTLM_SOURCE_DIR "/scenarios"); }

std::set<std::string> keys(const nlohmann::json& j) {
  std::set<std::string> k;
  for (auto it = j.begin(); it != j.end(); ++it) k.insert(it.key());
  return k;
}

}  // namespace

TEST(ResultUnits, ATimingRunHasAUnitForEveryStatisticAndNoOther) {
  const Scenario s = load(kTiny);
  const ScenarioResult r = runScenarioTimed(s);
  ASSERT_EQ(r.error, "");
  const nlohmann::json j = toJson(r);
  ASSERT_TRUE(j.contains("units"));
  EXPECT_EQ(keys(j["units"]), keys(j["stats"]));
  EXPECT_EQ(j["units"]["gpu.cycles"], "cycles");
  EXPECT_EQ(j["units"]["sm0.l1.hit_rate"], "ratio");
  EXPECT_EQ(j["units"]["sm0.regfile.bank0.reads"], "accesses");
  EXPECT_EQ(j["units"]["sm1.issue.stall.barrier"], "cycles");
  EXPECT_EQ(j["units"]["interp.warp_instructions"], "warp instructions");
  EXPECT_EQ(j["units"]["interp.thread.atomic_global"], "thread instructions");
  EXPECT_EQ(j["units"]["limit.tb_redundant"], "warp instructions");  // the check asks for the study
  EXPECT_EQ(j["units"]["limit.uv_intra_warp_ops"], "thread instructions");
  EXPECT_TRUE(j["units"].contains("sm0.darsie.skipped"));
}

TEST(ResultUnits, ThePlatformRegistersEveryStatisticBeforeItRuns) {
  // modelUnits is taken when the platform is built, before anything runs (as `simtlm stats`
  // sees the registry); the run's statistics are read at its end.
  const Scenario s = load(kTiny);
  const ScenarioResult r = runScenarioTimed(s);
  ASSERT_EQ(r.error, "");
  std::set<std::string> model;
  for (const auto& k : keys(r.stats))
    if (k.rfind("interp.", 0) != 0 && k.rfind("limit.", 0) != 0) model.insert(k);
  EXPECT_EQ(keys(r.modelUnits), model);
  EXPECT_GT(model.size(), 100u);
}

TEST(ResultUnits, AnInterpreterRunHasTheInterpretersUnits) {
  const Scenario s = load(kTiny);
  const ScenarioResult r = runScenario(s, true);
  ASSERT_EQ(r.error, "");
  const nlohmann::json j = toJson(r);
  EXPECT_EQ(keys(j["units"]), keys(j["stats"]));
  EXPECT_EQ(j["units"]["interp.blocks"], "blocks");
  EXPECT_EQ(j["units"]["limit.tb_redundant.affine"], "warp instructions");
}

TEST(ResultUnits, AWorkloadsBowStudyHasUnitsToo) {
  const simtlm::cli::EmulateResult r = simtlm::cli::emulate("vecadd", {{"n", 256}}, true, UINT64_MAX, true);
  const nlohmann::json j = simtlm::cli::toJson(r);
  EXPECT_EQ(keys(j["units"]), keys(j["stats"]));
  EXPECT_EQ(j["units"]["bow.iw3.read_bypassed"], "operands");
  EXPECT_EQ(j["units"]["bow.hint.boc_only.dynamic.rf_only"], "warp instructions");
  EXPECT_EQ(j["stats"]["bow.reads"], r.bow.reads);
}
