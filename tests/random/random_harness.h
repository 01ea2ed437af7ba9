// Shared by the random-kernel tests and their command line: checking one seed under a list of
// runs, and the failure report (seed, mechanism, sizes, kernel, a command that reproduces it,
// and the kernel written to a file).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tests/random/kernel_generator.h"
#include "tests/random/known_bugs.h"
#include "tests/random/random_kernel_runner.h"

namespace simtlm::test {

extern std::string gProgram;       // argv[0], for the reproduce command
extern bool gIgnoreKnownBugs;      // --ignore-known-bugs / SIMTLM_RANDOM_IGNORE_KNOWN_BUGS=1
extern std::string gKernelFile;    // --kernel=PATH: this text instead of the seed's (launch and buffers stay)

// The generator options of the default suite: every feature of a listed known bug off.
GenOptions defaultOptions();
// `--on=a,b --off=c` for the features `opt` forces.
std::string optionArgs(const GenOptions& opt);
bool knownBugListed(Feature f);
const KnownSeed* knownFailingSeed(uint64_t seed);  // nullptr when not listed (or ignoring the list)

struct SeedResult {
  int runs = 0, failedRuns = 0;
  std::vector<std::string> failures;  // one report per failing run, then the kernel
  std::string goldenError;            // the interpreter faulted: a generator bug
  std::string log;                    // with `verbose`: the kernel, its counts and every run
};

// Writes the kernel of `g` as a scenario for `simtlm run` (the full platform: coalescer, caches,
// DRAM, TLM): DIR/random_SEED.yaml, .s and the input buffers as .bin files. Its checks compare
// OUT and ATOM with the interpreter. Returns the scenario's path.
std::string writeScenario(const GeneratedKernel& g, const std::string& dir);

// Runs the kernel of `seed` under `mechanism` (default sizes) on the full platform: `simtlm run`
// of the scenario writeScenario() makes in ./random_platform/. Empty: the run passed its checks;
// otherwise what went wrong, the commands that reproduce it and the kernel.
std::string checkSeedOnPlatform(uint64_t seed, const GenOptions& opt, config::Mechanism mechanism);
// The same under a configuration name, a composition ("darsie+bow-wr") included.
std::string checkSeedOnPlatform(uint64_t seed, const GenOptions& opt, const std::string& mechanism);

// Generates the kernel of `seed`, runs it on the interpreter and under every run of `runs`.
SeedResult checkSeed(uint64_t seed, const GenOptions& opt, const std::vector<RunSpec>& runs, bool verbose = false);

}  // namespace simtlm::test
