// `simtlm run SCENARIO`: the scenario on the timing model (model/gpu/platform.h), with the
// functional interpreter as the reference for equals_interpreter checks and interp.* statistics.
#include <algorithm>
#include <chrono>
#include <memory>
#include <regex>
#include <stdexcept>

#include "cli/config_loader.h"
#include "cli/interp_stats.h"
#include "cli/progress_monitor.h"
#include "cli/run_limits.h"
#include "cli/scenario_eval.h"
#include "cli/timing_platform.h"
#include "isa/diagnostics.h"
#include "model/energy/power_trace.h"
#include "model/gpu/platform.h"

namespace simtlm::scenario {
namespace {

bool needsLimitStudy(const Scenario& s) {
  for (const auto& c : s.checks)
    if (c.kind == Check::Kind::Stat && c.stat.rfind("limit.", 0) == 0) return true;
  return false;
}

// The GPU sees code, not names: its errors name the kernel by its address ("kernel
// '0x00001000'"). The command line knows the name: put it in.
std::string namedKernel(std::string error, const std::string& name) {
  static const std::regex address("kernel '0x[0-9a-f]+'");
  return std::regex_replace(error, address, "kernel '" + name + "'", std::regex_constants::format_first_only);
}

// A statistic check names a statistic of the timing model: every one is registered once the
// platform is built, so a misspelt name is an error here, before anything runs.
void checkStatNames(const Scenario& s, const stats::Registry& registry) {
  for (size_t i = 0; i < s.checks.size(); ++i) {
    const Check& c = s.checks[i];
    if (c.kind != Check::Kind::Stat || c.stat.rfind("interp.", 0) == 0 || c.stat.rfind("limit.", 0) == 0 ||
        registry.contains(c.stat))
      continue;
    std::vector<std::string> names;
    for (const auto& e : registry.entries()) names.push_back(e.name);
    const std::string best = yaml::nearest(c.stat, names);
    yaml::fail(c.where, "checks[" + std::to_string(i) + "].stat: unknown statistic '" + c.stat + "' (not one of the timing model's)" +
                            (best.empty() ? "; docs/statistics.md lists them" : "; did you mean '" + best + "'?"));
  }
}

}  // namespace

void applyOverrides(Scenario& s, const Overrides& o) {
  if (o.contract) {
    std::vector<Check> checks;
    for (const Check& c : s.checks)
      if (c.kind == Check::Kind::ExpectError) checks.push_back(c);
    if (checks.empty()) {
      Check all;  // every buffer, the scenario's and its workloads'
      all.kind = Check::Kind::BufferInterpreter;
      all.buffer = "*";
      checks.push_back(all);
      Check c;
      c.kind = Check::Kind::Conservation;
      checks.push_back(c);
    }
    s.checks = std::move(checks);
  }
  if (!o.mechanism.empty()) {
    if (const std::string why = mechanismProblem(o.mechanism); !why.empty())
      throw config::ConfigError("--mechanism: " + why);
    s.mechanism = o.mechanism;
  }
  if (o.configFile.empty() && o.sets.empty()) return;
  config::ConfigLoader loader;
  if (!o.configFile.empty()) s.configFile = o.configFile;
  if (!s.configFile.empty()) loader.loadFile(s.configFile);
  for (const auto& [key, value] : s.sets) loader.set(key + "=" + value, s.file);
  for (const auto& a : o.sets) {
    loader.set(a);
    const auto eq = a.find('=');
    s.sets.emplace_back(a.substr(0, eq), a.substr(eq + 1));
  }
  s.config = loader.resolve();
}

ScenarioResult runScenarioTimed(const Scenario& s, const cli::EnergyRequest* energy, bool limitStudy,
                                const cli::TimelineRequest* timeline) {
  static bool elaborated = false;  // SystemC elaborates once per process
  if (elaborated) throw std::logic_error("runScenarioTimed: one timing simulation per process");
  elaborated = true;

  ScenarioResult r;
  r.scenario = &s;
  r.engine = Engine::Timing;
  r.limitStudy = limitStudy || needsLimitStudy(s);

  // The timing run: every launch prepared up front (workload set-ups only touch their own
  // buffers), then handed to the host driver one after another.
  // Here on a scratch memory (for the launches' shapes and parameters, which the platform needs),
  // and again on `mem` once the reference run is over (peak memory: not both at once).
  const uint32_t machineWarpSize = static_cast<uint32_t>(s.config.gpu.warp_size);
  isa::GlobalMemory mem;
  placeBuffers(s, mem);
  std::vector<LaunchStep> steps = prepareLaunches(s, mem, machineWarpSize);
  mem = isa::GlobalMemory{};

  stats::Registry registry;
  size_t next = 0;
  auto jobs = [&](gpu::HostJob& job) {
    if (next == steps.size()) return false;
    job = gpu::HostJob{};
    job.kernel = steps[next].kernel;
    job.launch = steps[next].config;
    job.memory = &mem;
    job.releaseWhileRunning = true;  // the DRAM holds the buffers while a kernel runs ...
    next++;
    job.keepInTarget = next < steps.size();  // ... and between launches: nothing reads them there
    return true;
  };
  config::GpuConfig cfg = s.config;  // the platform keeps a reference: it lives as long
  // The machine runs one warp size (gpu.warp_size): that of the launches, which the interpreter
  // runs too (a workload such as fig3 brings its own).
  for (const auto& st : steps) {
    const Launch& l = s.launches[st.launch];
    if (st.config.warpSize != steps[0].config.warpSize)
      yaml::fail(l.where, l.path + ": " + l.label() + " runs warps of " + std::to_string(st.config.warpSize) +
                              " threads and " + s.launches[steps[0].launch].path + " warps of " +
                              std::to_string(steps[0].config.warpSize) +
                              ": the timing model runs one warp size (gpu.warp_size) per run");
  }
  if (!steps.empty()) cfg.gpu.warp_size = static_cast<int>(steps[0].config.warpSize);
  auto top = cli::buildPlatform(cfg, s.mechanism, registry, jobs);
  checkStatNames(s, registry);
  r.modelUnits = cli::unitsOf(registry);

  // The reference: the functional interpreter on its own memory. Of its final memory only the
  // buffers that checks compare are kept, out of memory while the timing model runs.
  std::unique_ptr<ReferenceImage> image;
  std::vector<LaunchOutcome> refLaunches;
  std::string refError;
  nlohmann::json refStats = nlohmann::json::object();
  {
    isa::GlobalMemory reference;
    refError = runOnInterpreter(s, reference, r.limitStudy, &refLaunches);
    for (const auto& l : refLaunches) addStats(refStats, l.stats);
    if (!cli::limitHint(refError).empty()) {  // a runaway kernel: the timing model would only run away too
      r.error = "the functional interpreter (the reference run) stopped: " + refError;
      r.stats = refStats;
      evaluateChecks(r, reference, nullptr);
      return r;
    }
    if (refError.empty()) image = std::make_unique<ReferenceImage>(reference, interpreterCheckedBuffers(s));
  }
  // The timing run's buffers, as on the scratch memory above (the same addresses and parameters).
  placeBuffers(s, mem);
  steps = prepareLaunches(s, mem, machineWarpSize);
  // After the last launch the host has its buffers back: what is read is freed in the DRAM, a
  // chunk at a time (a buffer does not stand in both at once).
  top->host.onReadBack = [&](const gpu::HostJob&, const isa::GlobalMemory::Region& region, size_t done) {
    if (next == steps.size()) top->dram.store().release(region.base, done);
  };
  auto start = std::chrono::steady_clock::now();
  // Each launch's statistics: the counters' increase during it, kept as what changed.
  r.launchDeltas.start(registry);
  top->host.onJobDone = [&](const gpu::HostJob&, const gpu::HostResult& res) {
    const size_t i = next - 1;
    // A launch that stops keeps what it counted until then, marked partial.
    r.launchDeltas.mark(registry);
    r.launches.push_back({steps[i].label, steps[i].config, nlohmann::json::object(), !res.error.empty() || res.errorCode != 0});
    if (!res.error.empty()) {
      r.error = "host driver: " + res.error;
      return;
    }
    if (res.errorCode != 0) {  // the GPU names the kernel by its address; say which launch
      r.error = s.launches[steps[i].launch].path + " (" + steps[i].label + "): " +
                namedKernel(top->gpu.lastError(), steps[i].kernel->name);
      if (const std::string hint = cli::limitHint(r.error); !hint.empty()) r.error += "  " + hint;
      return;
    }
  };
  // The energy layer only reads counters: the model is compiled before the run, the optional
  // power sampler watches the run, and the report is computed from the final statistics.
  std::unique_ptr<energy::EnergyModel> model;
  std::unique_ptr<energy::PowerSampler> sampler;
  if (energy) {
    model = std::make_unique<energy::EnergyModel>(energy->table, energy::runInfoFromConfig(config::toJson(cfg), s.mechanism),
                                                  energy->op);
    if (!energy->traceFile.empty()) {
      sampler = std::make_unique<energy::PowerSampler>("power_sampler", *model, registry, energy->window,
                                                       top->kernel_started);
      top->gpu.observeCycles([s = sampler.get()](uint64_t, bool ended) { s->cycle(ended); });
    }
  }
  cli::Progress progress("timing model", static_cast<uint64_t>(std::max(0LL, cfg.limits.max_cycles)),
                         static_cast<uint64_t>(std::max(0LL, cfg.limits.max_instructions)));
  std::unique_ptr<cli::ProgressMonitor> monitor;  // only on a terminal
  if (progress.enabled()) {
    monitor = std::make_unique<cli::ProgressMonitor>(registry, progress);
    top->gpu.observeCycles([m = monitor.get()](uint64_t, bool) { m->cycle(); });
  }
  // The warp timeline observes the SMs' pipelines and the GPU's cycles; it only records.
  std::unique_ptr<cli::TimelineWriter> timelineWriter;
  if (timeline && timeline->enabled()) {
    timelineWriter = std::make_unique<cli::TimelineWriter>(*timeline, top->gpu.numSms(), cfg.sm.num_warps);
    top->gpu.observeSms(timelineWriter.get());
    top->gpu.observeCycles([w = timelineWriter.get()](uint64_t cycles, bool ended) { w->cycle(cycles, ended); });
  }
  sc_core::sc_start();
  r.hostSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (sampler) {
    sampler->finish();
    r.powerTrace = energy->ptrace() ? sampler->trace().ptrace() : sampler->trace().csv();
  }
  if (r.error.empty() && (r.launches.size() != steps.size() || (!r.launches.empty() && r.launches.back().partial)))
    r.error = "the simulation ended before every launch completed (" + std::to_string(r.launches.size()) +
              " of " + std::to_string(steps.size()) + ")";
  if (timelineWriter) {
    top->gpu.observeSms(nullptr);
    nlohmann::json about = {{"generator", "simtlm run"},
                            {"scenario", s.name},
                            {"mechanism", s.mechanism},
                            {"time_unit", "1 us of the trace = 1 core cycle (gpu.cycles)"},
                            {"window", {timeline->from, timeline->to == UINT64_MAX ? nlohmann::json() : nlohmann::json(timeline->to)}},
                            {"counter_interval_cycles", timeline->interval},
                            {"error", r.error}};
    timelineWriter->finish(about.dump());
    r.timelineEvents = timelineWriter->events();
  }

  r.stats = registry.toJson();
  if (model) {
    std::vector<std::string> missing;
    const energy::Breakdown b = model->evaluate(model->valuesOf(r.stats, &missing));
    r.energy = energy::toJson(*model, b, missing);
    r.energyText = energy::formatReport(*model, b);
  }
  for (const auto& [k, v] : refStats.items()) r.stats[k] = v;
  evaluateChecks(r, mem, image.get());
  if (!refError.empty() && r.error.empty() && !s.expectsError())
    r.error = "the functional interpreter stopped where the timing model did not: " + refError;
  if (!r.error.empty() && !s.expectsError()) r.passed = false;
  return r;
}

}  // namespace simtlm::scenario
