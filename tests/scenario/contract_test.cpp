// The mechanism contract of `simtlm run --contract` (docs/mechanisms.md): which checks replace
// the scenario's, and that each fails when the timing model's memory or counts are wrong. The
// runs of every scenario under every mechanism are the contract.* CTest tests.
#include <gtest/gtest.h>

#include "cli/scenario.h"
#include "cli/reference_image.h"
#include "cli/scenario_eval.h"
#include "cli/scenario_run.h"

using namespace simtlm;
using namespace simtlm::scenario;

namespace {

const char* kTwoBuffers = R"(
buffers:
  - {name: a, words: 4}
  - {name: b, words: 4}
launches:
  - {kernel: kernels/histogram.s, grid: 1, block: 32, params: [a, b, b, 4]}
checks:
  - {buffer: a, equals: [0, 0, 0, 0]}
)";

Scenario contractScenario(const std::string& mechanism) {
  Scenario s = loadScenarioText(kTwoBuffers, "t.yaml", SIMTLM_SOURCE_DIR "/scenarios");
  Overrides o;
  o.mechanism = mechanism;
  o.contract = true;
  applyOverrides(s, o);
  return s;
}

// A timing result with these counts, and memories where buffer b's word 2 may differ.
CheckOutcome conservation(const Scenario& s, uint64_t issued0, uint64_t issued1, uint64_t skipped, uint64_t interp) {
  ScenarioResult r;
  r.scenario = &s;
  r.engine = Engine::Timing;
  r.stats = {{"sm0.issue.warp_instructions", issued0}, {"sm1.issue.warp_instructions", issued1},
             {"sm0.darsie.skipped", skipped}, {"interp.warp_instructions", interp},
             {"interp.warp.atomic_global", 0}, {"interp.warp.atomic_shared", 0}};
  isa::GlobalMemory mem;
  mem.allocate("a", 16);
  isa::GlobalMemory interpreter = mem;
  const ReferenceImage reference(interpreter, {"*"});
  evaluateChecks(r, mem, &reference);
  return r.checks.at(1);
}

}  // namespace

TEST(Contract, ReplacesTheScenariosChecks) {
  const Scenario s = contractScenario("darsie");
  ASSERT_EQ(s.checks.size(), 2u);
  EXPECT_EQ(s.checks[0].describe(), "every buffer equals the functional interpreter's");
  EXPECT_EQ(s.checks[1].describe(), "issued plus removed warp instructions equal the interpreter's");
}

TEST(Contract, CountsIssuedPlusTheMechanismsRemoved) {
  const Scenario darsie = contractScenario("darsie");
  EXPECT_TRUE(conservation(darsie, 10, 11, 5, 26).passed);
  const CheckOutcome off = conservation(darsie, 10, 11, 4, 26);
  EXPECT_FALSE(off.passed);
  EXPECT_EQ(off.message, "issued 21 + removed 4 = 25, interpreter 26");
  // Baseline removes nothing: a counter named like DARSIE's is not added.
  EXPECT_FALSE(conservation(contractScenario("baseline"), 10, 11, 5, 26).passed);
  EXPECT_TRUE(conservation(contractScenario("baseline"), 10, 11, 5, 21).passed);
}

TEST(Contract, EveryBufferIsComparedWithTheInterpreters) {
  const Scenario s = contractScenario("darsie");
  ScenarioResult r;
  r.scenario = &s;
  r.engine = Engine::Timing;
  r.stats = {{"interp.warp_instructions", 0}};
  isa::GlobalMemory model, interpreter;
  for (auto* m : {&model, &interpreter}) {
    m->allocate("a", 16);
    m->allocate("b", 16);
  }
  const ReferenceImage reference(interpreter, {"*"});  // (spilled to a temporary file, read back per check)
  evaluateChecks(r, model, &reference);
  EXPECT_TRUE(r.checks.at(0).passed) << r.checks.at(0).message;
  EXPECT_EQ(r.checks.at(0).message, "2 buffers bit-identical to the functional interpreter's");
  model.write32(model.regions()[1].base + 8, 7);  // buffer b, word 2
  evaluateChecks(r, model, &reference);
  EXPECT_FALSE(r.checks.at(0).passed);
  EXPECT_NE(r.checks.at(0).message.find("buffer b: "), std::string::npos) << r.checks.at(0).message;
}

TEST(Contract, AScenarioThatExpectsAnErrorKeepsOnlyThat) {
  Scenario s = loadScenarioText(R"(
launches:
  - {kernel: kernels/barrier_deadlock.s, grid: 3, block: 96}
checks:
  - {expect_error: deadlock}
)", "t.yaml", SIMTLM_SOURCE_DIR "/scenarios");
  Overrides o;
  o.contract = true;
  applyOverrides(s, o);
  ASSERT_EQ(s.checks.size(), 1u);
  EXPECT_EQ(s.checks[0].kind, Check::Kind::ExpectError);
}
