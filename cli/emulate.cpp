#include "cli/emulate.h"

#include <chrono>
#include <cstdio>
#include <optional>

#include "cli/interp_stats.h"
#include "cli/progress.h"
#include "cli/run_limits.h"
#include "isa/annotate.h"
#include "isa/diagnostics.h"
#include "isa/darsie_analysis.h"
#include "isa/disassembler.h"
#include "model/common/log.h"

namespace simtlm::cli {
namespace {

// Hands every event to each of the studies asked for.
struct Observers : isa::ExecObserver {
  std::vector<isa::ExecObserver*> all;
  void onLaunch(const isa::Kernel& k, const isa::LaunchConfig& l) override { for (auto* o : all) o->onLaunch(k, l); }
  void onBlockStart(uint32_t b, uint32_t n) override { for (auto* o : all) o->onBlockStart(b, n); }
  void onWarpStep(const isa::WarpStep& s) override { for (auto* o : all) o->onWarpStep(s); }
  void onBlockEnd(uint32_t b) override { for (auto* o : all) o->onBlockEnd(b); }
  void onGridEnd() override { for (auto* o : all) o->onGridEnd(); }
};

}  // namespace

EmulateResult emulate(const std::string& workload, const workloads::Options& options,
                      bool limitStudy, uint64_t maxInstructions, bool bowStudy) {
  EmulateResult r;
  r.limitStudy = limitStudy;
  r.bowStudy = bowStudy;
  auto w = workloads::makeWorkload(workload, options);
  r.workload = w->name();
  r.description = w->description();
  r.options = options;
  const auto kernels = workloads::loadKernels(*w);
  r.kernel = kernels.at(0);
  r.kernels = kernels.size();
  isa::GlobalMemory mem;
  const auto steps = w->launches(mem);
  r.launch = steps.at(0).launch;
  r.launches = steps.size();
  isa::LimitStudy study;  // one study over every launch: its totals add up
  isa::BowStudy bow;
  Observers observers;
  if (limitStudy) observers.all.push_back(&study);
  if (bowStudy) observers.all.push_back(&bow);
  auto start = std::chrono::steady_clock::now();
  Progress progress("interpreter", 0, maxInstructions == UINT64_MAX ? 0 : maxInstructions);
  spdlog::logger& logger = log::get("interp");
  for (const auto& st : steps) {
    const isa::Dim3 g = st.launch.grid, b = st.launch.block;
    logger.debug("kernel '{}': grid ({},{},{}) of blocks ({},{},{})", kernels.at(st.kernel).name, g.x, g.y, g.z, b.x,
                 b.y, b.z);
    isa::LaunchConfig launch = st.launch;
    launch.maxWarpInstructions = maxInstructions - r.counts.warpInstructions;
    if (progress.enabled())
      launch.onProgress = [&progress, before = r.counts.warpInstructions](uint64_t n) { progress.update(0, before + n); };
    try {
      r.counts += isa::Interpreter(kernels.at(st.kernel), mem).run(launch, observers.all.empty() ? nullptr : &observers);
    } catch (const LimitError& e) {
      const std::string hint = limitHint(e.what());
      throw LimitError(std::string(e.what()) + (hint.empty() ? "" : "\n  " + hint));
    }
  }
  r.hostSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.limit = study.result();
  r.bow = bow.result();
  r.verifyMessage = w->verify(mem);
  return r;
}

namespace {

std::string pct(const isa::LimitStudyResult& l, uint64_t n) {
  char b[32];
  std::snprintf(b, sizeof b, "%5.1f%%", 100.0 * l.fraction(n));
  return b;
}

}  // namespace

void printEmulateResult(std::ostream& out, const EmulateResult& r, bool perPc) {
  const auto& c = r.counts;
  const auto& l = r.limit;
  out << r.workload << ": " << r.description << "\n";
  out << "  grid " << r.launch.grid.str() << ", block " << r.launch.block.str() << ", warp size "
      << r.launch.warpSize;
  if (r.launches > 1)
    out << " (the first of " << r.launches << " launches" << (r.kernels > 1 ? " of " + std::to_string(r.kernels) + " kernels" : "")
        << "; counts are their sum)";
  out << "\n";
  out << "  verify: " << (r.verifyMessage.empty() ? "PASSED (bit-identical to the C++ reference)"
                                                  : "FAILED\n" + r.verifyMessage) << "\n";
  out << "  warp instructions   " << c.warpInstructions << "\n";
  out << "  thread instructions " << c.threadInstructions << "\n";
  char speed[112];
  std::snprintf(speed, sizeof speed, "  host: %.3f s, %.1f M thread instructions/s%s\n", r.hostSeconds,
                r.hostSeconds > 0 ? c.threadInstructions / r.hostSeconds / 1e6 : 0.0,
                r.limitStudy ? " (with the limit study)" : "");
  if (r.bowStudy) printBowStudy(out, r.bow);
  if (!r.limitStudy) {
    out << speed;
    return;
  }
  out << "  redundancy limit study (fraction of warp instructions):\n";
  out << "    grid-redundant    " << pct(l, l.gridRedundant) << "\n";
  out << "    TB-redundant      " << pct(l, l.tbRedundant) << "  (uniform " << pct(l, l.tbByStructure[0])
      << ", affine " << pct(l, l.tbByStructure[1]) << ", unstructured " << pct(l, l.tbByStructure[2]) << ")\n";
  out << "    warp-redundant    " << pct(l, l.warpRedundant) << "\n";
  out << "    TB-eliminable     " << pct(l, l.tbEliminable) << "  (executions beyond the first per TB)\n";
  char uv[128];
  std::snprintf(uv, sizeof uv, "  intra-warp redundant operations (UV Fig. 2): %.1f%% of thread instructions\n",
                c.threadInstructions ? 100.0 * static_cast<double>(l.uvIntraWarpOps) / static_cast<double>(c.threadInstructions) : 0.0);
  out << uv;
  std::snprintf(uv, sizeof uv, "  inter-warp redundant operations (UV Fig. 2): %.1f%% of thread instructions\n",
                c.threadInstructions ? 100.0 * static_cast<double>(l.uvInterWarpOps) / static_cast<double>(c.threadInstructions) : 0.0);
  out << uv;
  out << speed;
  if (!perPc) return;
  isa::Cfg cfg(r.kernel);
  auto marking = isa::markRedundancy(r.kernel, cfg);
  out << "  per instruction" << (r.kernels > 1 ? " of the first kernel (" + r.kernel.name + ")" : "")
      << ": executed, TB-redundant, (uniform/affine/unstructured), static class\n";
  for (size_t i = 0; i < r.kernel.size(); ++i) {
    const auto& p = l.perPc[i];
    const auto& m = marking.instr[i];
    char line[160];
    std::snprintf(line, sizeof line, "  0x%04zx %9llu %9llu (%llu/%llu/%llu) %-8s ", i * 8,
                  static_cast<unsigned long long>(p.executed), static_cast<unsigned long long>(p.tbRedundant),
                  static_cast<unsigned long long>(p.tbByStructure[0]),
                  static_cast<unsigned long long>(p.tbByStructure[1]),
                  static_cast<unsigned long long>(p.tbByStructure[2]),
                  isa::redundancyLabel(m.vector, m.deps).c_str());
    out << line << isa::disassemble(r.kernel.instrs[i], &r.kernel) << "\n";
  }
}

nlohmann::json statsJson(const isa::ExecCounts& c, const isa::LimitStudyResult* limit,
                         const isa::BowStudyResult* bow) {
  isa::ExecCounts counts = c;  // the registry keeps counters' addresses: copies it may hold
  std::optional<isa::LimitStudyResult> limitCopy;
  std::optional<isa::BowStudyResult> bowCopy;
  if (limit) limitCopy = *limit;
  if (bow) bowCopy = *bow;
  stats::Registry r;
  registerInterpreterStats(r, counts, limitCopy ? &*limitCopy : nullptr, bowCopy ? &*bowCopy : nullptr);
  return r.toJson();
}

nlohmann::json toJson(const EmulateResult& r) {
  nlohmann::json stats = statsJson(r.counts, r.limitStudy ? &r.limit : nullptr, r.bowStudy ? &r.bow : nullptr);
  nlohmann::json j;
  j["command"] = "emulate";
  j["workload"] = r.workload;
  j["description"] = r.description;
  j["options"] = r.options;
  j["kernel"] = r.kernel.name;
  j["launch"] = {{"grid", {r.launch.grid.x, r.launch.grid.y, r.launch.grid.z}},
                 {"block", {r.launch.block.x, r.launch.block.y, r.launch.block.z}},
                 {"warp_size", r.launch.warpSize}};
  j["launches"] = r.launches;
  j["checks"] = {{"verify", r.verifyMessage.empty() ? "passed" : "failed"}};
  if (!r.verifyMessage.empty()) j["checks"]["verify_message"] = r.verifyMessage;
  j["stats"] = stats;
  j["units"] = unitsOf(stats, nlohmann::json::object());
  j["host"] = {{"seconds", r.hostSeconds}};  // wall time: not deterministic, kept out of stats
  return j;
}

}  // namespace simtlm::cli
