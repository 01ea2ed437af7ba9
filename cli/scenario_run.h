// Running a scenario on the functional interpreter (`simtlm emulate SCENARIO.yaml`), evaluating
// its checks, and reporting the outcome as text and JSON.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/scenario.h"
#include "isa/interpreter.h"
#include "isa/memory.h"

namespace simtlm::scenario {

struct LaunchOutcome {
  std::string label;
  isa::LaunchConfig launch;
  nlohmann::json stats;  // flat name -> number for this launch
};

struct CheckOutcome {
  bool passed = false;
  std::string message;  // what differs, or the observed value
};

struct ScenarioResult {
  const Scenario* scenario = nullptr;  // the scenario outlives its result
  std::vector<LaunchOutcome> launches;  // those that completed
  nlohmann::json stats;                 // summed over the completed launches
  std::string error;                    // the run stopped with this error (empty: it completed)
  std::vector<CheckOutcome> checks;     // one per scenario check, in order
  bool passed = false;
  bool limitStudy = true;
  double hostSeconds = 0;
};

// Runs every launch in order on one global memory, then evaluates the checks. A kernel fault or
// deadlock ends the run (recorded in `error`; it passes only an expect_error check). Errors in
// the scenario found only now (a workload buffer colliding with a scenario buffer) throw
// InputError at the offending launch.
ScenarioResult runScenario(const Scenario& s, bool limitStudy = true);

void printScenarioResult(std::ostream& out, const ScenarioResult& r);
// scenario, mechanism, resolved configuration, per-launch and total statistics, check outcomes.
nlohmann::json toJson(const ScenarioResult& r);

}  // namespace simtlm::scenario
