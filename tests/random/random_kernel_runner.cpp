// The comparison of one generated kernel between the interpreter and the timing model.
#include "tests/random/random_kernel_runner.h"

#include <numeric>
#include <sstream>
#include <stdexcept>

#include "isa/assembler.h"
#include "isa/darsie_analysis.h"
#include "model/common/stats.h"
#include "model/mechanisms/registry.h"
#include "model/sm/grid_runner.h"

namespace simtlm::test {

const std::vector<Sizes>& allSizes() {
  // "min" renames nothing (a pool of 0 registers), so "tiny" and "small" keep the other
  // minimums with a pool of 1 and 2 registers, where the skipper still works. UV's SRF and IRB
  // get 1, 2 and 4 entries there, and UV's reliability is on in "min" and "tiny".
  static const std::vector<Sizes> s = {{"default", 8, 32, 2, 128, 8}, {"min", 1, 0, 1, 1, 1},
                                       {"tiny", 1, 1, 1, 2, 2}, {"small", 2, 2, 1, 4, 4}};
  return s;
}

const Sizes& sizesByName(const std::string& name) {
  for (const auto& s : allSizes())
    if (s.name == name) return s;
  throw std::invalid_argument("--sizes " + name + ": expected default, min, tiny or small");
}

std::string runName(const RunSpec& run) {
  if (run.composition.empty()) return config::mechanismName(run.mechanism);
  std::string name;
  for (config::Mechanism m : run.composition) name += (name.empty() ? "" : "+") + std::string(config::mechanismName(m));
  return name;
}

RunSpec runSpecOf(const std::string& name, const Sizes& sizes) {
  const std::vector<config::Mechanism> list = mechanisms::parseMechanisms(name);
  if (list.empty()) return {config::Mechanism::Baseline, &sizes};
  return {list.front(), &sizes, list.size() > 1 ? list : std::vector<config::Mechanism>{}};
}

std::vector<RunSpec> allRuns() {
  using config::Mechanism;
  // Every registered mechanism (model/mechanisms/registry.cpp); baseline at the default sizes.
  std::vector<RunSpec> runs;
  for (const auto& info : mechanisms::registered()) {
    if (info.id == Mechanism::Baseline) runs.push_back({info.id, &allSizes()[0]});
    else
      for (const auto& s : allSizes()) runs.push_back({info.id, &s});
  }
  for (const char* name : kCompositions)
    for (const auto& s : allSizes()) runs.push_back(runSpecOf(name, s));
  return runs;
}

isa::Kernel compile(const GeneratedKernel& g) {
  isa::Kernel k = isa::assemble(g.text, "random_" + std::to_string(g.seed) + ".s");
  isa::applyStaticHints(k, isa::markRedundancy(k, isa::Cfg(k)));
  return k;
}

Golden runGolden(const GeneratedKernel& g, const isa::Kernel& k) {
  Golden out;
  const isa::LaunchConfig launch = g.setup(out.memory);
  try {
    out.counts = isa::Interpreter(k, out.memory).run(launch);
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

namespace {

uint64_t sumStat(const stats::Registry& reg, const std::string& suffix, int sms) {
  uint64_t total = 0;
  for (int i = 0; i < sms; ++i)
    total += static_cast<uint64_t>(reg.value("sm" + std::to_string(i) + "." + suffix).value_or(0));
  return total;
}

// The first differing word, to say where the memories part.
std::string firstDifference(const isa::GlobalMemory& want, const isa::GlobalMemory& got) {
  std::ostringstream s;
  int shown = 0, differing = 0;
  for (const auto& region : want.regions()) {
    const auto a = want.words(region.name), b = got.words(region.name);
    for (size_t i = 0; i < a.size() && i < b.size(); ++i)
      if (a[i] != b[i]) {
        if (shown++ < 4)
          s << " " << region.name << "[" << i << "] = 0x" << std::hex << b[i] << " (interpreter 0x" << a[i]
            << ")" << std::dec << ";";
        ++differing;
      }
  }
  s << " " << differing << " word(s) differ";
  return s.str();
}

}  // namespace

Check runTimed(const GeneratedKernel& g, const isa::Kernel& k, const Golden& golden, const RunSpec& run) {
  const Sizes& sizes = *run.sizes;
  config::GpuConfig cfg;  // Pascal defaults
  cfg.gpu.num_sms = 2;
  // The machine runs the launch's warp size: unit widths and the register count must divide
  // by it (checkConfig), so widths shrink to a common divisor and registers round down.
  const int w = static_cast<int>(g.warpSize);
  cfg.gpu.warp_size = w;
  cfg.exec.simd_width = std::gcd(cfg.exec.simd_width, w);
  cfg.exec.sfu_width = std::gcd(cfg.exec.sfu_width, w);
  cfg.exec.ldst_width = std::gcd(cfg.exec.ldst_width, w);
  cfg.sm.num_registers -= cfg.sm.num_registers % (w * cfg.regfile.banks);
  cfg.mechanism = run.mechanism;
  cfg.composition = run.composition;
  cfg.watchdog.cycles = 20000;  // generated kernels retire something every few hundred cycles
  cfg.darsie.skip_entries = sizes.skipEntries;
  cfg.darsie.rename_regs = sizes.renameRegs;
  cfg.darsie.skip_ports = sizes.skipPorts;
  cfg.uv.srf_entries = sizes.srfEntries;
  cfg.uv.irb_entries = sizes.irbEntries;
  cfg.affine.asrf_entries = std::min(sizes.srfEntries, 64);  // affine-a: a full ASRF in min/tiny/small
  cfg.uv.reliability = sizes.srfEntries < 4;  // two lanes and two copies in "min" and "tiny"
  // BOW: every window from 2 to 7 over the seeds; the RFC from one entry (min, tiny) up.
  cfg.bow.window = 2 + static_cast<int>(g.seed % 6);
  cfg.bow.hints = g.seed % 7 != 3;  // now and then bow-wr without the compiler's hints
  cfg.rfc.entries = std::min(std::max(1, sizes.srfEntries / 2), 64);
  config::checkConfig(cfg);
  isa::GlobalMemory timed;
  const isa::LaunchConfig launch = g.setup(timed);
  stats::Registry reg;
  Check out;
  sm::GridResult r;
  try {
    r = sm::runGrid(cfg, mechanisms::factoryFor(cfg), k, launch, timed, reg);
  } catch (const std::exception& e) {
    r.error = std::string("exception: ") + e.what();
  }
  out.cycles = r.cycles;
  for (const char* name : {"majority_leaves", "rejoins", "lap_waits", "leader_elections", "unskipped"})
    out.darsieStats += std::string(out.darsieStats.empty() ? "" : ", ") + name + " " +
                       std::to_string(sumStat(reg, std::string("darsie.") + name, cfg.gpu.num_sms));
  if (!golden.error.empty()) {
    if (r.error.empty()) out.failure = "the interpreter faults (" + golden.error + ") but the timing model does not";
    return out;
  }
  if (!r.error.empty()) {
    out.failure = "the timing model fails: " + r.error;
    return out;
  }
  if (!(timed == golden.memory)) {
    out.failure = "memory differs from the interpreter:" + firstDifference(golden.memory, timed);
    return out;
  }
  const uint64_t issued = out.issued = sumStat(reg, "issue.warp_instructions", cfg.gpu.num_sms);
  uint64_t skipped = 0;  // every mechanism of a composition counts what it removed
  for (const std::string& removed : mechanisms::removedStatsOf(runName(run)))
    skipped += sumStat(reg, removed, cfg.gpu.num_sms);
  out.skipped = skipped;
  if (issued + skipped != golden.counts.warpInstructions)
    out.failure = "issued " + std::to_string(issued) + " + skipped " + std::to_string(skipped) +
                  " warp instructions != the interpreter's " + std::to_string(golden.counts.warpInstructions);
  return out;
}

}  // namespace simtlm::test
