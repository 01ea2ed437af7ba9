// Checking one seed, and the failure report.
#include "tests/random/random_harness.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace simtlm::test {

std::string gProgram = "build/tests/random_kernel_tests";
bool gIgnoreKnownBugs = std::getenv("SIMTLM_RANDOM_IGNORE_KNOWN_BUGS") != nullptr;

bool knownBugListed(Feature f) {
  if (gIgnoreKnownBugs) return false;
  for (const auto& b : kKnownBugs)
    if (b.feature == f) return true;
  return false;
}

GenOptions defaultOptions() {
  GenOptions o;
  for (int f = 0; f < kNumFeatures; ++f)
    if (knownBugListed(static_cast<Feature>(f))) o[static_cast<Feature>(f)] = Choice::Off;
  return o;
}

std::string optionArgs(const GenOptions& opt) {
  std::string on, off;
  for (int f = 0; f < kNumFeatures; ++f) {
    const Choice c = opt[static_cast<Feature>(f)];
    std::string& list = c == Choice::On ? on : off;
    if (c != Choice::Auto) list += (list.empty() ? "" : ",") + std::string(featureName(static_cast<Feature>(f)));
  }
  return (on.empty() ? "" : " --on=" + on) + (off.empty() ? "" : " --off=" + off);
}

namespace {

std::string reproduce(const GeneratedKernel& g, const GenOptions& opt, const RunSpec& run) {
  return gProgram + " --seed=" + std::to_string(g.seed) + " --mechanism=" + config::mechanismName(run.mechanism) +
         " --sizes=" + run.sizes->name + optionArgs(opt) + (gIgnoreKnownBugs ? " --ignore-known-bugs" : "");
}

std::string report(const GeneratedKernel& g, const GenOptions& opt, const RunSpec& run, const std::string& why) {
  std::ostringstream s;
  s << "random kernel " << g.describe() << "\n  mechanism " << config::mechanismName(run.mechanism) << ", sizes "
    << run.sizes->name << " (skip_entries " << run.sizes->skipEntries << ", rename_regs " << run.sizes->renameRegs
    << ", skip_ports " << run.sizes->skipPorts << ")\n  " << why << "\n  reproduce: " << reproduce(g, opt, run);
  return s.str();
}

// The kernel, once per failing seed, also written to random_kernel_SEED.s in the working folder.
std::string kernelListing(const GeneratedKernel& g, const GenOptions& opt, const RunSpec& run) {
  const std::string file = "random_kernel_" + std::to_string(g.seed) + ".s";
  {
    std::ofstream f(file);
    f << "// " << g.describe() << "\n// reproduce: " << reproduce(g, opt, run) << "\n" << g.text;
  }
  return "kernel of seed " + std::to_string(g.seed) + ", written to " + std::filesystem::absolute(file).string() +
         ":\n" + g.text;
}

}  // namespace

SeedResult checkSeed(uint64_t seed, const GenOptions& opt, const std::vector<RunSpec>& runs, bool verbose) {
  SeedResult out;
  const GeneratedKernel g = generateKernel(seed, opt);
  isa::Kernel k;
  try {
    k = compile(g);
  } catch (const std::exception& e) {
    out.goldenError = std::string("the generated kernel does not assemble: ") + e.what();
    out.failures.push_back(report(g, opt, runs.at(0), out.goldenError));
    out.failures.push_back(kernelListing(g, opt, runs.at(0)));
    return out;
  }
  const Golden golden = runGolden(g, k);
  if (!golden.error.empty()) {
    out.goldenError = "the generated kernel faults on the interpreter: " + golden.error;
    out.failures.push_back(report(g, opt, runs.at(0), out.goldenError));
    out.failures.push_back(kernelListing(g, opt, runs.at(0)));
    return out;
  }
  std::ostringstream log;
  const RunSpec* firstFailed = nullptr;
  if (verbose)
    log << g.text << g.describe() << "\n  interpreter: " << golden.counts.warpInstructions << " warp instructions, "
        << golden.counts.divergentBranches << " divergent branches, " << golden.counts.barriers << " barriers\n";
  for (const RunSpec& run : runs) {
    ++out.runs;
    const Check c = runTimed(g, k, golden, run.mechanism, *run.sizes);
    if (verbose)
      log << "  " << config::mechanismName(run.mechanism) << " / " << run.sizes->name << ": " << c.cycles
          << " cycles, " << c.issued << " issued, " << c.skipped << " skipped"
          << (config::isDarsie(run.mechanism) ? " (" + c.darsieStats + ")" : "")
          << (c.failure.empty() ? "" : ": FAILED") << "\n";
    if (c.failure.empty()) continue;
    if (!firstFailed) firstFailed = &run;
    out.failures.push_back(report(g, opt, run, c.failure));
    ++out.failedRuns;
  }
  if (!out.failures.empty()) out.failures.push_back(kernelListing(g, opt, *firstFailed));
  out.log = log.str();
  return out;
}

}  // namespace simtlm::test
