// The scenario format: generated contents, parameters, several launches on one memory, and
// how each kind of check passes and fails.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>

#include "cli/scenario_run.h"
#include "isa/diagnostics.h"
#include "scenario_test_support.h"

using namespace simtlm;
using namespace simtlm::scenario;

namespace {

Scenario load(const std::string& text) { return loadScenarioText(text, "t.yaml", SIMTLM_SOURCE_DIR "/scenarios"); }

const std::string kHistogram = "\n" + simtlm::test::kHistogramScenario;

float asFloat(uint32_t w) {
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

}  // namespace

TEST(ScenarioFormat, RandomContentsAreDeterministicAndInRange) {
  Scenario s = load(R"(
buffers:
  - {name: i, words: 1000, type: s32, init: {random: {seed: 7, min: -5, max: 5}}}
  - {name: f, words: 1000, type: f32, init: {random: {seed: 7, min: -1.5, max: 2.5}}}
  - {name: j, words: 1000, type: s32, init: {random: {seed: 8, min: -5, max: 5}}}
launches:
  - {kernel: kernels/barrier_deadlock.s, block: 1}
)");
  auto a = s.buffers[0].init.generate(1000), b = s.buffers[0].init.generate(1000);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, s.buffers[2].init.generate(1000));
  int lo = 0, hi = 0;
  for (uint32_t w : a) {
    int v = static_cast<int32_t>(w);
    ASSERT_GE(v, -5);
    ASSERT_LE(v, 5);
    lo += v == -5, hi += v == 5;
  }
  EXPECT_GT(lo, 0);
  EXPECT_GT(hi, 0);
  for (uint32_t w : s.buffers[1].init.generate(1000)) {
    ASSERT_GE(asFloat(w), -1.5f);
    ASSERT_LE(asFloat(w), 2.5f);
  }
}

TEST(ScenarioFormat, RampsConstantsAndHex) {
  Scenario s = load(R"(
buffers:
  - {name: a, words: 4, type: s32, init: {ramp: {start: 10, step: -7}}}
  - {name: b, words: 3, type: f32, init: {ramp: {start: 1.5, step: 0.25}}}
  - {name: c, words: 2, init: {constant: 0xdeadBEEF}}
launches:
  - {kernel: kernels/barrier_deadlock.s, block: 1}
)");
  EXPECT_EQ(s.buffers[0].init.generate(4), (std::vector<uint32_t>{10, 3, static_cast<uint32_t>(-4), static_cast<uint32_t>(-11)}));
  auto f = s.buffers[1].init.generate(3);
  EXPECT_EQ(asFloat(f[0]), 1.5f);
  EXPECT_EQ(asFloat(f[2]), 2.0f);
  EXPECT_EQ(s.buffers[2].init.generate(2), (std::vector<uint32_t>{0xdeadbeef, 0xdeadbeef}));
}

TEST(ScenarioFormat, ParamsByNameMatchPositionalAndFloatsPassTheirBits) {
  const char* head = R"(
buffers:
  - {name: a, words: 4}
launches:
  - kernel: vecadd.s
    block: 4
)";
  Scenario byPos = load(std::string(head) + "    params: [a, 2.5, -1, 0x10]\n");
  Scenario byName = load(std::string(head) + "    params: {N: 0x10, C: -1, B: 2.5, A: a}\n");
  const auto& p = byPos.launches[0].params;
  const auto& q = byName.launches[0].params;
  ASSERT_EQ(p.size(), 4u);
  ASSERT_EQ(q.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(p[i].buffer, q[i].buffer);
    EXPECT_EQ(p[i].value, q[i].value);
  }
  EXPECT_EQ(p[0].buffer, "a");
  EXPECT_EQ(p[1].value, 0x40200000u);  // 2.5f
  EXPECT_EQ(p[2].value, 0xFFFFFFFFu);
  EXPECT_EQ(p[3].value, 16u);
}

TEST(ScenarioFormat, LaunchesRunInOrderOnOneMemory) {
  Scenario s = load(std::string(kHistogram) + R"(
  - {kernel: kernels/histogram.s, grid: 1, block: 128, params: [data, bins, sum, 100]}
checks:
  - {buffer: bins, equals: [14, 14, 14, 14, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12]}
  - {buffer: sum, equals: [9900]}
  - {stat: interp.blocks, op: ==, value: 2}
)");
  ScenarioResult r = runScenario(s);
  EXPECT_TRUE(r.passed);
  ASSERT_EQ(r.launches.size(), 2u);
  EXPECT_EQ(r.stats["interp.warp_instructions"].get<uint64_t>(),
            2 * r.launches[0].stats["interp.warp_instructions"].get<uint64_t>());
}

TEST(ScenarioFormat, AFailingBufferCheckSaysWhereItDiffers) {
  Scenario s = load(std::string(kHistogram) + R"(
checks:
  - {buffer: sum, equals: [4949]}
  - {buffer: bins, equals: {constant: 7}}
  - {buffer: sum, equals_interpreter: true}
)");
  ScenarioResult r = runScenario(s);
  EXPECT_FALSE(r.passed);
  EXPECT_FALSE(r.checks[0].passed);
  EXPECT_NE(r.checks[0].message.find("[0] = 4950, expected 4949"), std::string::npos) << r.checks[0].message;
  EXPECT_FALSE(r.checks[1].passed);
  EXPECT_NE(r.checks[1].message.find("12 of 16 words differ"), std::string::npos) << r.checks[1].message;
  EXPECT_TRUE(r.checks[2].passed) << r.checks[2].message;
  std::ostringstream out;
  printScenarioResult(out, r);
  EXPECT_NE(out.str().find("check 1 (line 10) buffer sum equals"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("FAILED (1 of 3 checks passed)"), std::string::npos) << out.str();
  EXPECT_EQ(toJson(r)["checks"][0]["status"], "failed");
  EXPECT_EQ(toJson(r)["result"], "failed");
}

TEST(ScenarioFormat, StatChecksCompareAndNameMissingStatistics) {
  Scenario s = load(std::string(kHistogram) + R"(
checks:
  - {stat: interp.thread.atomic_global, op: ==, value: 200}
  - {stat: interp.thread.atomic_global, op: <, value: 200}
  - {stat: sm0.frontend.skipped, op: '>=', value: 100}
  - {stat: limit.tb_redundant, op: '>=', value: 0}
)");
  ScenarioResult r = runScenario(s);
  EXPECT_TRUE(r.checks[0].passed);
  EXPECT_FALSE(r.checks[1].passed);
  EXPECT_EQ(r.checks[1].message, "is 200");
  // A timing-model statistic is skipped on the interpreter (simtlm run checks it).
  EXPECT_TRUE(r.checks[2].skipped);
  EXPECT_NE(r.checks[2].message.find("checked by simtlm run"), std::string::npos);
  EXPECT_TRUE(r.checks[3].passed);
  ScenarioResult fast = runScenario(s, /*limitStudy=*/false);
  EXPECT_FALSE(fast.checks[3].passed);
  EXPECT_NE(fast.checks[3].message.find("limit study"), std::string::npos);
  // An interpreter statistic that does not exist is an error when the scenario loads.
  EXPECT_THROW(load(std::string(kHistogram) + "checks:\n  - {stat: interp.nope, op: ==, value: 1}\n"), InputError);
}

TEST(ScenarioFormat, ExpectErrorNeedsTheRunToStopWithThatMessage) {
  const char* dead = R"(
launches:
  - {kernel: kernels/barrier_deadlock.s, grid: 3, block: 96}
)";
  ScenarioResult ok = runScenario(load(std::string(dead) + "checks:\n  - expect_error: 'warp 1: exited'\n"));
  EXPECT_TRUE(ok.passed);
  ScenarioResult other = runScenario(load(std::string(dead) + "checks:\n  - expect_error: 'out of bounds'\n"));
  EXPECT_FALSE(other.passed);
  EXPECT_NE(other.checks[0].message.find("another error"), std::string::npos);
  ScenarioResult none = runScenario(load(R"(
launches:
  - {kernel: kernels/barrier_deadlock.s, grid: 1, block: 96}
checks:
  - expect_error: deadlock
)"));
  EXPECT_FALSE(none.passed);
  EXPECT_EQ(none.checks[0].message, "the run completed without an error");
}

TEST(ScenarioFormat, AnUnexpectedStopFailsTheRun) {
  const Scenario s = load(R"(
launches:
  - {kernel: kernels/barrier_deadlock.s, grid: 3, block: 96}
checks:
  - {stat: interp.blocks, op: '>=', value: 0}
)");  // (a result points at its scenario: it must outlive the result)
  ScenarioResult r = runScenario(s);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.error.find("deadlock"), std::string::npos);
  EXPECT_EQ(r.checks[0].message, "not evaluated: the run stopped");
  EXPECT_NE(toJson(r)["error"].get<std::string>().find("deadlock"), std::string::npos);
}

TEST(ScenarioFormat, WordFilesInitAndCheckBuffers) {
  std::string dir = ::testing::TempDir();
  {
    std::ofstream f(dir + "/in.bin", std::ios::binary);
    const unsigned char bytes[] = {1, 0, 0, 0, 0x11, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
    f.write(reinterpret_cast<const char*>(bytes), sizeof bytes);
  }
  Scenario s = loadScenarioText(R"(
buffers:
  - {name: a, init: {file: in.bin}}     # sized by the file
launches:
  - {kernel: vecadd.s, block: 1, params: [a, a, a, 0]}   # n = 0: leaves memory alone
checks:
  - {buffer: a, expect_file: in.bin}
  - {buffer: a, equals: [1, 17, 4294967295]}
)", "t.yaml", dir);
  ASSERT_EQ(s.buffers[0].words, 3u);
  ScenarioResult r = runScenario(s);
  EXPECT_TRUE(r.passed);
}

TEST(ScenarioFormat, ConfigurationIsResolvedAndReported) {
  Scenario s = load(R"(
config: configs/tiny.ini
set: {sm.num_warps: 32, issue.policy: lrr}
launches:
  - workload: fig3
)");
  EXPECT_EQ(s.config.sm.num_warps, 32);
  ScenarioResult r = runScenario(s);
  nlohmann::json j = toJson(r);
  EXPECT_EQ(j["config"]["sm.num_warps"], 32);
  EXPECT_EQ(j["config"]["gpu.num_sms"], 2);  // from tiny.ini
  EXPECT_EQ(j["config_set"]["issue.policy"], "lrr");
  EXPECT_TRUE(r.passed);  // no checks: nothing can fail
}

// The timing model runs one warp size: a workload's own (fig3: 4) becomes the machine's, and
// launches of two warp sizes are refused naming the second.
TEST(ScenarioFormat, TimingRunTakesTheLaunchesWarpSize) {
  Scenario s = load(R"(
config: configs/tiny.ini
launches:
  - workload: fig3
checks:
  - {stat: sm0.issue.warp_instructions, op: "==", value: 26}
)");
  ScenarioResult r = runScenarioTimed(s);
  EXPECT_TRUE(r.passed) << r.error;  // 2 warps of 4 lanes, 13 instructions each
  EXPECT_EQ(toJson(r)["config"]["gpu.warp_size"], 4);
}

TEST(ScenarioFormat, TimingRunRefusesTwoWarpSizes) {
  Scenario s = load(R"(
config: configs/tiny.ini
launches:
  - workload: fig3
  - {kernel: vecadd.s, block: 32, warp_size: 32, params: [0, 0, 0, 0]}
)");
  try {
    runScenarioTimed(s);
    FAIL() << "expected an error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("launches[1]: kernel vecadd runs warps of 32 threads and launches[0] warps of 4"),
              std::string::npos) << e.what();
  }
}
