// Internal to the scenario runners (scenario_run.cpp, scenario_timing.cpp): the steps both
// engines share — placing the buffers, preparing a launch, running the functional interpreter,
// and evaluating the checks against final memory and statistics.
#pragma once

#include <string>
#include <vector>

#include "cli/scenario_run.h"

namespace simtlm::scenario {

// Allocates and fills the scenario's buffers.
void placeBuffers(const Scenario& s, isa::GlobalMemory& mem);
// The launch's configuration; a workload launch sets up its buffers in `mem` first.
// A kernel launch without warp_size runs the machine's warp size (`machineWarpSize`); a
// workload launch the workload's.
isa::LaunchConfig prepareLaunch(const Launch& l, isa::GlobalMemory& mem, uint32_t machineWarpSize);
// Runs every launch on the interpreter (buffers placed first); returns the error that stopped
// the run ("" when it completed).
std::string runOnInterpreter(const Scenario& s, isa::GlobalMemory& mem, bool study, std::vector<LaunchOutcome>* out);
// Sums per-launch statistics into `total`.
void addStats(nlohmann::json& total, const nlohmann::json& add);

// Evaluates every check of `r.scenario` into r.checks and sets r.passed. `reference` is the
// interpreter's final memory for equals_interpreter checks; when null it is computed on demand.
void evaluateChecks(ScenarioResult& r, const isa::GlobalMemory& mem, const isa::GlobalMemory* reference);

}  // namespace simtlm::scenario
