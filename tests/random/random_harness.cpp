// Checking one seed, and the failure report.
#include "tests/random/random_harness.h"

#include <cstdlib>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <algorithm>
#include <sstream>

namespace simtlm::test {

std::string gProgram = "build/tests/random_kernel_tests";
bool gIgnoreKnownBugs = std::getenv("SIMTLM_RANDOM_IGNORE_KNOWN_BUGS") != nullptr;
std::string gKernelFile;

bool knownBugListed(Feature f) {
  if (gIgnoreKnownBugs) return false;
  for (const auto& b : kFailureClasses)
    if (b.feature == f && std::find(kKnownBugs.begin(), kKnownBugs.end(), b.item) != kKnownBugs.end()) return true;
  return false;
}

const KnownSeed* knownFailingSeed(uint64_t seed) {
  if (gIgnoreKnownBugs) return nullptr;
  for (const auto& k : kKnownFailingSeeds)
    if (k.seed == seed) return &k;
  return nullptr;
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
  return gProgram + " --seed=" + std::to_string(g.seed) + " --mechanism=" + runName(run) +
         " --sizes=" + run.sizes->name + optionArgs(opt) + (gIgnoreKnownBugs ? " --ignore-known-bugs" : "") +
         (gKernelFile.empty() ? "" : " --kernel=" + gKernelFile);
}

std::string report(const GeneratedKernel& g, const GenOptions& opt, const RunSpec& run, const std::string& why) {
  std::ostringstream s;
  s << "random kernel " << g.describe() << "\n  mechanism " << runName(run) << ", sizes "
    << run.sizes->name << " (skip_entries " << run.sizes->skipEntries << ", rename_regs " << run.sizes->renameRegs
    << ", skip_ports " << run.sizes->skipPorts << ", uv srf_entries " << run.sizes->srfEntries << ", irb_entries "
    << run.sizes->irbEntries << ")\n  " << why << "\n  reproduce: " << reproduce(g, opt, run);
  return s.str();
}

// The kernel, once per failing seed, also written to random_kernel_SEED.s in the working folder.
std::string kernelListing(const GeneratedKernel& g, const GenOptions& opt, const RunSpec& run) {
  if (!gKernelFile.empty()) return "kernel of seed " + std::to_string(g.seed) + ", from " + gKernelFile + ":\n" + g.text;
  const std::string file = "random_kernel_" + std::to_string(g.seed) + ".s";
  {
    std::ofstream f(file);
    f << "// " << g.describe() << "\n// reproduce: " << reproduce(g, opt, run) << "\n" << g.text;
  }
  return "kernel of seed " + std::to_string(g.seed) + ", written to " + std::filesystem::absolute(file).string() +
         ":\n" + g.text;
}

}  // namespace

std::string writeScenario(const GeneratedKernel& g, const std::string& dir) {
  std::filesystem::create_directories(dir);
  const std::string stem = "random_" + std::to_string(g.seed);
  auto path = [&](const std::string& suffix) { return (std::filesystem::path(dir) / (stem + suffix)).string(); };
  std::ofstream(path(".s")) << g.text;
  std::ostringstream yaml;
  yaml << "# " << g.describe() << "\n# written by random_kernel_tests --write-scenario\nname: " << stem
       << "\nset: {watchdog.cycles: 100000}  # a stuck run stops soon\nbuffers:\n";
  for (const auto& [name, words] : g.buffers) {
    if (name == "OUT") {
      yaml << "  - {name: OUT, words: " << words.size() << "}\n";
      continue;
    }
    std::ofstream bin(path("_" + name + ".bin"), std::ios::binary);
    for (uint32_t w : words) {
      const unsigned char b[4] = {static_cast<unsigned char>(w), static_cast<unsigned char>(w >> 8),
                                  static_cast<unsigned char>(w >> 16), static_cast<unsigned char>(w >> 24)};
      bin.write(reinterpret_cast<const char*>(b), 4);
    }
    yaml << "  - {name: " << name << ", init: {file: " << stem << "_" << name << ".bin}}\n";
  }
  yaml << "launches:\n  - kernel: " << stem << ".s\n    grid: [" << g.grid.x << ", " << g.grid.y << ", " << g.grid.z
       << "]\n    block: [" << g.block.x << ", " << g.block.y << ", " << g.block.z << "]\n    warp_size: " << g.warpSize
       << "\n    params: [IN, OUT, ATOM";
  for (uint32_t v : g.scalars) yaml << ", " << v;
  yaml << "]\nchecks:\n  - {buffer: OUT, equals_interpreter: true}\n  - {buffer: ATOM, equals_interpreter: true}\n";
  std::ofstream(path(".yaml")) << yaml.str();
  return path(".yaml");
}

std::string checkSeedOnPlatform(uint64_t seed, const GenOptions& opt, config::Mechanism mechanism) {
  return checkSeedOnPlatform(seed, opt, config::mechanismName(mechanism));
}

std::string checkSeedOnPlatform(uint64_t seed, const GenOptions& opt, const std::string& mechanism) {
  const GeneratedKernel g = generateKernel(seed, opt);
  const std::string scenario = std::filesystem::absolute(writeScenario(g, "random_platform")).string();
  const std::string run = std::string(SIMTLM_BINARY) + " run " + scenario + " --mechanism " + mechanism +
                          " --json " + scenario + "." + mechanism + ".json";
  std::string output;
  if (FILE* p = popen(("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 " + run + " 2>&1").c_str(), "r")) {
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) output.append(buf, n);
    pclose(p);
  }
  if (output.find("scenario random_" + std::to_string(seed) + ": PASSED") != std::string::npos) return "";
  std::string why;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);)
    if (line.find("FAILED") != std::string::npos || line.find("error") != std::string::npos ||
        line.find("stopped") != std::string::npos)
      why += "\n    " + line;
  return "random kernel " + g.describe() + "\n  on the full platform (simtlm run), mechanism " + mechanism + ":" + (why.empty() ? "\n    no PASSED line; the output:\n" + output : why) +
         "\n  reproduce: " + run + "\n  scenario written by: " + gProgram + " --seed=" + std::to_string(seed) +
         optionArgs(opt) + " --write-scenario=random_platform\n" + g.text;
}

SeedResult checkSeed(uint64_t seed, const GenOptions& opt, const std::vector<RunSpec>& runs, bool verbose) {
  SeedResult out;
  GeneratedKernel g = generateKernel(seed, opt);
  if (!gKernelFile.empty()) {  // a written (perhaps hand-reduced) kernel, on the seed's launch
    std::ifstream f(gKernelFile);
    if (!f) throw std::invalid_argument("--kernel " + gKernelFile + ": cannot open the file");
    g.text.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
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
    const Check c = runTimed(g, k, golden, run);
    if (verbose)
      log << "  " << runName(run) << " / " << run.sizes->name << ": " << c.cycles
          << " cycles, " << c.issued << " issued, " << c.skipped << " skipped"
          << (run.mechanism != config::Mechanism::Baseline ? " (" + c.darsieStats + ")" : "")
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
