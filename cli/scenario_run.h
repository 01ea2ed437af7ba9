// Running a scenario on the functional interpreter (`simtlm emulate SCENARIO.yaml`) or on the
// timing model (`simtlm run SCENARIO.yaml`), evaluating its checks, and reporting the outcome as
// text and JSON.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/energy_options.h"
#include "cli/scenario.h"
#include "cli/timeline.h"
#include "isa/interpreter.h"
#include "isa/memory.h"
#include "model/common/stats_deltas.h"

namespace simtlm::scenario {

struct LaunchOutcome {
  std::string label;
  isa::LaunchConfig launch;
  nlohmann::json stats;  // interpreter: flat name -> number for this launch (timing: see
                         // ScenarioResult::launchDeltas)
  bool partial = false;  // the run stopped in this launch: its statistics are those until then
};

struct CheckOutcome {
  bool passed = false;
  bool skipped = false;  // a timing-model statistic checked on the interpreter: not evaluated
  std::string message;   // what differs, or the observed value
};

enum class Engine { Interpreter, Timing };

struct ScenarioResult {
  const Scenario* scenario = nullptr;  // the scenario outlives its result
  Engine engine = Engine::Interpreter;
  std::vector<LaunchOutcome> launches;  // those that ran; the last one partial if the run stopped
  stats::Deltas launchDeltas;           // timing: each launch's statistics, what changed in it
  nlohmann::json stats;                 // summed over the launches (timing: the model's
                                        // registry, plus interp.* of the reference run); only
                                        // what ran before the stop when `error` is set
  std::string error;                    // the run stopped with this error (empty: it completed)
  std::vector<CheckOutcome> checks;     // one per scenario check, in order
  bool passed = false;
  bool limitStudy = true;
  double hostSeconds = 0;
  nlohmann::json modelUnits;            // timing: name -> unit of every statistic the model
                                        // registered (toJson's `units` adds the interpreter's)
  nlohmann::json energy;                // timing runs: the energy report (docs/energy.md)
  std::string energyText;               // its lines for the summary table
  std::string powerTrace;               // the power trace's file contents, when one was asked for
  uint64_t timelineEvents = 0;          // events written to the timeline, when one was asked for
};

// Runs every launch in order on one global memory, then evaluates the checks. A kernel fault or
// deadlock ends the run (recorded in `error`; it passes only an expect_error check). Errors in
// the scenario found only now (a workload buffer colliding with a scenario buffer) throw
// InputError at the offending launch.
ScenarioResult runScenario(const Scenario& s, bool limitStudy = true);

// The same on the timing model: the default platform (GPU, host driver, interconnect, DRAM;
// model/gpu/platform.h) with the scenario's configuration and mechanism. The functional
// interpreter runs the scenario too, as the reference of `equals_interpreter` checks and for
// interp.* / limit.* statistics. SystemC elaborates once per process: call it once.
// With `energy`, the result also has the energy report of the run (from its final statistics) and,
// when the request names a trace file, the power trace's contents (taken during the run).
// The reference run does the limit study when a check reads limit.* or `limitStudy` asks.
// With an enabled `timeline`, the run writes its warp timeline there (cli/timeline.h) when the
// simulation is over, a kernel's fault included; nothing when it stops before simulating.
ScenarioResult runScenarioTimed(const Scenario& s, const cli::EnergyRequest* energy = nullptr,
                                bool limitStudy = false, const cli::TimelineRequest* timeline = nullptr);

// Command-line overrides of a scenario's machine: another configuration file instead of its
// `config:`, `--set key=value`s applied after its `set:`, another mechanism. Throws InputError /
// ConfigError naming the offending value.
struct Overrides {
  std::string configFile;
  std::vector<std::string> sets;
  std::string mechanism;
  // The mechanism contract instead of the scenario's checks (docs/mechanisms.md): every buffer
  // equals the interpreter's, and issued plus removed warp instructions equal the
  // interpreter's (skipped when the kernels use atomics); a scenario that expects an error
  // keeps only that check.
  bool contract = false;
};
void applyOverrides(Scenario& s, const Overrides& o);

// What a result keeps of each launch's statistics (`simtlm run --launch-stats`, docs/scenarios.md):
// none; the GPU-wide statistics that changed in the launch (every name but sm<N>.*: a few
// hundred numbers a launch, where the whole registry is thousands); or every counter, zeros
// included (the increase during the launch, as the run's total is the sum of its launches).
// The interpreter's per-launch statistics are small: Gpu and All keep them whole.
enum class LaunchStats { None, Gpu, All };
// "none", "gpu", "all"; throws std::invalid_argument naming the option and the allowed values.
LaunchStats parseLaunchStats(const std::string& text);
// Launch `i`'s statistics as a flat name -> number map, as `which` keeps them.
nlohmann::json launchStats(const ScenarioResult& r, size_t i, LaunchStats which);

void printScenarioResult(std::ostream& out, const ScenarioResult& r);
// scenario, mechanism, resolved configuration, per-launch and total statistics, check outcomes.
nlohmann::json toJson(const ScenarioResult& r, LaunchStats which = LaunchStats::Gpu);
// toJson's document written to `path` atomically, one launch at a time (every launch's
// statistics in full never stand in memory together); the same bytes as writing toJson.
void writeJson(const std::string& path, const ScenarioResult& r, LaunchStats which = LaunchStats::Gpu);

}  // namespace simtlm::scenario
