// Random PTX modules (tests/ptx/random_ptx.h) translated by the PTX front end
// (isa/ptx/ptx_translate.h) and run on the SM timing model under every registered mechanism
// and composition, at every structure size, against the interpreter: the same comparison the
// random .s kernels get (tests/random/random_kernel_runner.h: no error, bit-identical global
// memory, issued plus removed warp instructions equal to the interpreter's). The translation
// itself is checked against a reference PTX evaluator in tests/isa/ptx_random_test.cpp; here the
// interpreter of the translated kernel is the reference.
//
// SIMTLM_PTX_VERBOSE=1 prints every run's cycles, issued and removed warp instructions.
// A longer seed range: SIMTLM_PTX_SEEDS=FIRST..LAST with --gtest_filter=PtxMechanismsLong.*
// (ctest -L long runs random.long_ptx_seed_range). One seed:
//   SIMTLM_PTX_SEEDS=N..N random_kernel_tests --gtest_filter=PtxMechanismsLong.*
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "isa/darsie_analysis.h"
#include "isa/ptx/ptx_module.h"
#include "isa/ptx/ptx_translate.h"
#include "tests/ptx/random_ptx.h"
#include "tests/random/random_kernel_runner.h"

using namespace simtlm;
using namespace simtlm::test;

namespace {

constexpr int kDefaultSeeds = 40;   // seeds 1..kDefaultSeeds, kSeedsPerTest to a test
constexpr int kSeedsPerTest = 5;

// The module of `seed` as a GeneratedKernel (the runner's kernel description): its launch,
// the buffers out, inA, inB and the scalars in parameter order, text = the PTX module.
GeneratedKernel ptxKernel(uint64_t seed) {
  GeneratedKernel g;
  g.seed = seed;
  g.text = randomPtxModule(seed);
  const RandomPtxInputs in = randomPtxInputs(seed);
  g.grid = in.grid;
  g.block = in.block;
  g.warpSize = 32;
  const uint32_t threads = static_cast<uint32_t>(g.grid.count() * g.block.count());
  g.buffers = {{"out", std::vector<uint32_t>(threads * kPtxOutWordsPerThread, 0)}, {"inA", in.inA}, {"inB", in.inB}};
  g.scalars = {in.scalar, in.fscalar};
  return g;
}

struct PtxSeedResult {
  std::vector<std::string> failures;  // one per failing run, then the module
  int runs = 0;
};

// Translates the module of `seed`, with DARSIE's static hints as a scenario's PTX kernel gets
// them (cli/scenario_launch.cpp), runs it on the interpreter and under every run of `runs`.
PtxSeedResult checkPtxSeed(uint64_t seed, const std::vector<RunSpec>& runs) {
  PtxSeedResult out;
  const GeneratedKernel g = ptxKernel(seed);
  const std::string head = "PTX seed " + std::to_string(seed) + " (randomPtxModule(" + std::to_string(seed) + "), grid " +
                           std::to_string(g.grid.x) + "x" + std::to_string(g.grid.y) + ", block " + std::to_string(g.block.x) +
                           "x" + std::to_string(g.block.y) + "x" + std::to_string(g.block.z) + ")";
  auto listing = [&] {
    const std::string file = "ptx_mechanisms_" + std::to_string(seed) + ".ptx";
    std::ofstream(file) << g.text;
    return "module of seed " + std::to_string(seed) + ", written to " + std::filesystem::absolute(file).string() + ":\n" + g.text;
  };
  isa::Kernel k;
  try {
    k = isa::ptx::translate(isa::ptx::parseModule(g.text, "rand_" + std::to_string(seed) + ".ptx"), "rand_kernel");
    isa::applyStaticHints(k, isa::markRedundancy(k, isa::Cfg(k)));
  } catch (const std::exception& e) {
    out.failures.push_back(head + ": parse/translate failed: " + e.what());
    out.failures.push_back(listing());
    return out;
  }
  const Golden golden = runGolden(g, k);
  if (!golden.error.empty()) {
    out.failures.push_back(head + ": the translated kernel faults on the interpreter: " + golden.error);
    out.failures.push_back(listing());
    return out;
  }
  static const bool verbose = std::getenv("SIMTLM_PTX_VERBOSE") != nullptr;
  if (verbose)
    std::cout << head << ": " << k.instrs.size() << " instructions, interpreter " << golden.counts.warpInstructions
              << " warp instructions, " << golden.counts.divergentBranches << " divergent branches\n";
  for (const RunSpec& run : runs) {
    ++out.runs;
    const Check c = runTimed(g, k, golden, run);
    if (verbose)
      std::cout << "  " << runName(run) << " / " << run.sizes->name << ": " << c.cycles << " cycles, " << c.issued
                << " issued, " << c.skipped << " removed" << (c.failure.empty() ? "" : ": FAILED") << "\n";
    if (c.failure.empty()) continue;
    out.failures.push_back(head + "\n  mechanism " + runName(run) + ", sizes " + run.sizes->name + " (bow.window " +
                           std::to_string(2 + seed % 6) + ", bow.hints " + (seed % 7 != 3 ? "on" : "off") + ")\n  " +
                           c.failure + "\n  reproduce: SIMTLM_PTX_SEEDS=" + std::to_string(seed) + ".." +
                           std::to_string(seed) + " random_kernel_tests --gtest_filter=PtxMechanismsLong.*");
  }
  if (!out.failures.empty()) out.failures.push_back(listing());
  return out;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

// Every registered mechanism and every composition of kCompositions ("darsie+bow-wr",
// "darsie+bow") at every structure size (allRuns()).
void checkSeeds(uint64_t first, uint64_t last) {
  const std::vector<RunSpec> runs = allRuns();
  std::vector<uint64_t> failing;
  for (uint64_t seed = first; seed <= last; ++seed) {
    const PtxSeedResult r = checkPtxSeed(seed, runs);
    if (r.failures.empty()) continue;
    failing.push_back(seed);
    ADD_FAILURE() << joined(r.failures);
  }
  if (!failing.empty()) {
    std::ostringstream os;
    for (uint64_t s : failing) os << ' ' << s;
    ADD_FAILURE() << failing.size() << " of " << (last - first + 1) << " PTX seeds fail:" << os.str();
  }
}

class PtxMechanisms : public ::testing::TestWithParam<int> {};

TEST_P(PtxMechanisms, TranslatedKernelMatchesInterpreterUnderEveryMechanism) {
  const uint64_t first = static_cast<uint64_t>(GetParam()) * kSeedsPerTest + 1;
  checkSeeds(first, first + kSeedsPerTest - 1);
}
INSTANTIATE_TEST_SUITE_P(Seeds, PtxMechanisms, ::testing::Range(0, kDefaultSeeds / kSeedsPerTest),
                         [](const ::testing::TestParamInfo<int>& i) {
                           return "seeds_" + std::to_string(i.param * kSeedsPerTest + 1) + "_" +
                                  std::to_string(i.param * kSeedsPerTest + kSeedsPerTest);
                         });

// The range of SIMTLM_PTX_SEEDS=FIRST..LAST (ctest -L long: random.long_ptx_seed_range);
// skipped without it.
TEST(PtxMechanismsLong, SeedRange) {
  const char* env = std::getenv("SIMTLM_PTX_SEEDS");
  if (!env || !*env) GTEST_SKIP() << "set SIMTLM_PTX_SEEDS=FIRST..LAST";
  const std::string v = env;
  const auto dots = v.find("..");
  ASSERT_NE(dots, std::string::npos) << "SIMTLM_PTX_SEEDS=" << v << ": expected FIRST..LAST";
  checkSeeds(std::stoull(v.substr(0, dots)), std::stoull(v.substr(dots + 2)));
}

}  // namespace
