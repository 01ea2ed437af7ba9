// The energy layer on real timing runs (one simulation per test process): a kernel without FP
// instructions, the same kernel launched twice, and the power trace against the total.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/energy_options.h"
#include "cli/scenario_run.h"
#include "model/energy/catalogue.h"

namespace simtlm {
namespace {

const char* kTwoVecadds = R"(
name: two_vecadds
config: configs/tiny.ini
buffers:
  - {name: a, words: 4096, type: f32, init: {ramp: {start: 0, step: 0.5}}}
  - {name: b, words: 4096, type: f32, init: {ramp: {start: 0, step: 2}}}
  - {name: c, words: 4096, type: f32}
launches:
  - {kernel: vecadd.s, grid: 16, block: 256, params: {A: a, B: b, C: c, N: 4096}}
  - {kernel: vecadd.s, grid: 16, block: 256, params: {A: a, B: b, C: c, N: 4096}}
checks:
  - {buffer: c, equals: {ramp: {start: 0, step: 2.5}}}
)";

cli::EnergyRequest request(const std::string& trace = "", uint64_t window = 1000) {
  cli::EnergyRequest r;
  r.tableFile = SIMTLM_SOURCE_DIR "/configs/energy/default.yaml";
  r.table = cli::loadEnergyTable(r.tableFile);
  r.traceFile = trace;
  r.window = window;
  return r;
}

scenario::Scenario twoVecadds() {
  return scenario::loadScenarioText(kTwoVecadds, "two_vecadds.yaml", SIMTLM_SOURCE_DIR "/scenarios");
}

TEST(EnergyRun, KernelWithoutFpInstructionsHasZeroFpDynamicEnergy) {
  const scenario::Scenario s = scenario::loadScenario(SIMTLM_SOURCE_DIR "/scenarios/atomics_histogram.yaml");
  const cli::EnergyRequest req = request();
  const scenario::ScenarioResult r = scenario::runScenarioTimed(s, &req);
  ASSERT_TRUE(r.passed) << r.error;
  const nlohmann::json& c = r.energy["components"];
  EXPECT_EQ(c["fp"]["dynamic_pj"].get<double>(), 0.0);
  EXPECT_EQ(c["sfu"]["dynamic_pj"].get<double>(), 0.0);
  EXPECT_GT(c["int"]["dynamic_pj"].get<double>(), 0.0);
  EXPECT_GT(c["regfile"]["dynamic_pj"].get<double>(), 0.0);
  EXPECT_GT(r.energy["total_pj"].get<double>(), r.energy["dynamic_pj"].get<double>());
  EXPECT_FALSE(c.contains("darsie.skip_table"));  // a baseline run has no DARSIE structures
}

TEST(EnergyRun, TheSameKernelTwiceDoublesItsDynamicEnergy) {
  const scenario::Scenario s = twoVecadds();
  const cli::EnergyRequest req = request();
  const scenario::ScenarioResult r = scenario::runScenarioTimed(s, &req);
  ASSERT_TRUE(r.passed) << r.error;
  ASSERT_EQ(r.launches.size(), 2u);
  const energy::EnergyModel m(req.table, energy::runInfoFromConfig(config::toJson(s.config), s.mechanism));
  const energy::Breakdown first = m.evaluate(m.valuesOf(scenario::launchStats(r, 0, scenario::LaunchStats::All)));
  const energy::Breakdown second = m.evaluate(m.valuesOf(scenario::launchStats(r, 1, scenario::LaunchStats::All)));
  const energy::Breakdown all = m.evaluate(m.valuesOf(r.stats));
  // The run is the sum of its launches (the calculator is linear in the counters).
  EXPECT_NEAR(all.total.dynamic, first.total.dynamic + second.total.dynamic, 1e-9 * all.total.dynamic);
  EXPECT_NEAR(all.total.total(), r.energy["total_pj"].get<double>(), 1e-9 * all.total.total());
  // Energy driven by the instructions themselves is identical in both launches, so running the
  // kernel twice doubles it (caches, DRAM and cycles differ: the second launch finds a warm L2).
  for (const char* name : {"regfile", "collector", "int", "fp", "ldst", "decode", "scheduler"}) {
    const size_t c = static_cast<size_t>(energy::componentIndex(name));
    EXPECT_GT(first.components[c].dynamic, 0.0) << name;
    EXPECT_EQ(second.components[c].dynamic, first.components[c].dynamic) << name;
    EXPECT_DOUBLE_EQ(all.components[c].dynamic, 2 * first.components[c].dynamic) << name;
  }
}

TEST(EnergyRun, PowerTraceIntegratesToTheTotalEnergy) {
  const scenario::Scenario s = twoVecadds();
  const cli::EnergyRequest req = request("trace.csv", 100);
  const scenario::ScenarioResult r = scenario::runScenarioTimed(s, &req);
  ASSERT_TRUE(r.passed) << r.error;
  std::istringstream in(r.powerTrace);
  std::string line;
  std::getline(in, line);
  ASSERT_EQ(line.rfind("launch,start_cycle,end_cycle,start_s,end_s,", 0), 0u) << line;
  double joules = 0;
  uint64_t expectStart = 0, lastEnd = 0;
  int launches = 0, lastLaunch = 0, rows = 0, shortWindows = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    const int launch = std::stoi(f[0]);
    const uint64_t start = std::stoull(f[1]), end = std::stoull(f[2]);
    EXPECT_EQ(start, expectStart);  // contiguous in GPU cycles
    EXPECT_GT(end, start);
    if (end - start != 100) shortWindows++;  // only the last window of a launch may be shorter
    if (launch != lastLaunch) launches++;
    lastLaunch = launch;
    joules += std::stod(f.back()) * (std::stod(f[4]) - std::stod(f[3]));
    expectStart = lastEnd = end;
    rows++;
  }
  EXPECT_EQ(launches, 2);
  EXPECT_LE(shortWindows, 2);
  EXPECT_GT(rows, 4);
  EXPECT_EQ(static_cast<double>(lastEnd), r.stats["gpu.cycles"].get<double>());
  const double total = r.energy["total_pj"].get<double>() * 1e-12;
  EXPECT_NEAR(joules, total, 1e-6 * total);  // the CSV has 9 significant digits
}

}  // namespace
}  // namespace simtlm
