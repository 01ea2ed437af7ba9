// Per-launch statistics in a timing run's result (`simtlm run --launch-stats`): by default each
// launch keeps the GPU-wide statistics that changed in it, `all` every counter (the increase
// during the launch, zeros included), `none` nothing; the file written one launch at a time is
// the document toJson builds. One timing simulation per process: one test runs the model.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <sstream>

#include "cli/scenario.h"
#include "cli/scenario_run.h"
#include "scenario_test_support.h"

using namespace simtlm::scenario;

namespace {

const std::string kTwoLaunches = "\nconfig: configs/tiny.ini\n" + simtlm::test::kHistogramScenario + simtlm::test::kHistogramLaunch;

std::string fileText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(LaunchStats, GpuWideByDefaultEveryCounterWhenAskedAndTheFileIsTheDocument) {
  const Scenario s = loadScenarioText(kTwoLaunches, "t.yaml", SIMTLM_SOURCE_DIR "/scenarios");
  const ScenarioResult r = runScenarioTimed(s);
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.launches.size(), 2u);
  const nlohmann::json gpu = toJson(r), all = toJson(r, LaunchStats::All), none = toJson(r, LaunchStats::None);
  uint64_t cycles = 0;
  for (size_t i = 0; i < 2; ++i) {
    const nlohmann::json& g = gpu["launches"][i]["stats"];
    const nlohmann::json& a = all["launches"][i]["stats"];
    EXPECT_FALSE(none["launches"][i].contains("stats"));
    EXPECT_GT(g.value("gpu.cycles", uint64_t{0}), 0u);
    EXPECT_EQ(g["gpu.cycles"], a["gpu.cycles"]);
    cycles += a["gpu.cycles"].get<uint64_t>();
    size_t moved = 0;
    for (const auto& [k, v] : a.items()) {
      const bool perSm = k.rfind("sm", 0) == 0 && k.size() > 2 && std::isdigit(static_cast<unsigned char>(k[2]));
      if (v.get<uint64_t>() != 0 && !perSm) {
        moved++;
        EXPECT_EQ(g.value(k, uint64_t{0}), v.get<uint64_t>()) << k;
      }
    }
    EXPECT_EQ(g.size(), moved) << "the default keeps exactly the GPU-wide counters that moved";
    EXPECT_GT(a.value("sm0.issue.warp_instructions", uint64_t{0}), 0u);
    // every counter of the registry, zeros included
    for (const auto& [k, v] : r.stats.items()) {
      if (v.is_number_integer() && k.rfind("interp.", 0) != 0) {
        EXPECT_TRUE(a.contains(k)) << k;
      }
    }
  }
  EXPECT_EQ(cycles, r.stats["gpu.cycles"].get<uint64_t>());
  for (LaunchStats which : {LaunchStats::None, LaunchStats::Gpu, LaunchStats::All}) {
    const std::string path = "launch_stats_test.json";
    writeJson(path, r, which);
    EXPECT_EQ(fileText(path), toJson(r, which).dump(2) + "\n");
  }
}

TEST(LaunchStats, AnUnknownChoiceNamesTheAllowedOnes) {
  EXPECT_EQ(parseLaunchStats("gpu"), LaunchStats::Gpu);
  EXPECT_EQ(parseLaunchStats("all"), LaunchStats::All);
  EXPECT_EQ(parseLaunchStats("none"), LaunchStats::None);
  try {
    parseLaunchStats("every");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "--launch-stats 'every': expected none, gpu or all");
  }
}
