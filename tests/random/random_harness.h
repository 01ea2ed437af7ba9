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

// The generator options of the default suite: every feature of a listed known bug off.
GenOptions defaultOptions();
// `--on=a,b --off=c` for the features `opt` forces.
std::string optionArgs(const GenOptions& opt);
bool knownBugListed(Feature f);

struct SeedResult {
  int runs = 0, failedRuns = 0;
  std::vector<std::string> failures;  // one report per failing run, then the kernel
  std::string goldenError;            // the interpreter faulted: a generator bug
  std::string log;                    // with `verbose`: the kernel, its counts and every run
};

// Generates the kernel of `seed`, runs it on the interpreter and under every run of `runs`.
SeedResult checkSeed(uint64_t seed, const GenOptions& opt, const std::vector<RunSpec>& runs, bool verbose = false);

}  // namespace simtlm::test
