// Internal to the scenario runners (scenario_run.cpp, scenario_timing.cpp): the steps both
// engines share — placing the buffers, preparing a launch, running the functional interpreter,
// and evaluating the checks against final memory and statistics.
#pragma once

#include <string>
#include <vector>

#include "cli/reference_image.h"
#include "cli/scenario_run.h"

namespace simtlm::scenario {

// Allocates and fills the scenario's buffers.
void placeBuffers(const Scenario& s, isa::GlobalMemory& mem);
// One kernel launch as the engines run it: a scenario launch is one step, a workload's
// launch as many as the workload runs (Floyd-Warshall's k loop, convolution's two passes).
struct LaunchStep {
  size_t launch = 0;                  // index into Scenario::launches
  const isa::Kernel* kernel = nullptr;  // owned by the scenario's launch
  isa::LaunchConfig config;
  std::string label;                  // "workload pathfinder (launch 3 of 25)"
};
// Every launch's steps, in order; a workload launch sets up its buffers in `mem` (set-ups only
// touch their own buffers, so preparing all before running any is the same as interleaving).
// A kernel launch without warp_size runs the machine's warp size (`machineWarpSize`); a
// workload launch the workload's. Throws InputError at the offending launch.
std::vector<LaunchStep> prepareLaunches(const Scenario& s, isa::GlobalMemory& mem, uint32_t machineWarpSize);
// Runs every launch on the interpreter (buffers placed first); returns the error that stopped
// the run ("" when it completed).
std::string runOnInterpreter(const Scenario& s, isa::GlobalMemory& mem, bool study, std::vector<LaunchOutcome>* out);
// Sums per-launch statistics into `total`.
void addStats(nlohmann::json& total, const nlohmann::json& add);

// Evaluates every check of `r.scenario` into r.checks and sets r.passed. `reference` has the
// interpreter's final buffers for equals_interpreter checks; when null (or without the buffer)
// they are computed on demand.
void evaluateChecks(ScenarioResult& r, const isa::GlobalMemory& mem, const ReferenceImage* reference);
// The buffers the equals_interpreter checks of `s` compare ("*" for every buffer).
std::vector<std::string> interpreterCheckedBuffers(const Scenario& s);

}  // namespace simtlm::scenario
