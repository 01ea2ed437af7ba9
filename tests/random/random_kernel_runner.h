// Runs a generated kernel on the functional interpreter and on the SM timing model
// (sm::runGrid, no SystemC) and compares them: the run ends without error (or both fault),
// final global memory is bit-identical, and issued plus DARSIE-skipped warp instructions equal
// the interpreter's warp instruction count.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/interpreter.h"
#include "isa/kernel.h"
#include "model/common/config.h"
#include "tests/random/kernel_generator.h"

namespace simtlm::test {

struct Sizes {
  std::string name;  // "default" | "min" | "tiny" | "small"
  int skipEntries, renameRegs, skipPorts;  // DARSIE's structures
  int srfEntries, irbEntries;               // UV's (a full SRF, IRB replacements)
};
// Pascal defaults, and the DARSIE structures at the minimum their parameters allow (params.cpp).
const std::vector<Sizes>& allSizes();
const Sizes& sizesByName(const std::string& name);  // throws std::invalid_argument

struct Golden {
  isa::GlobalMemory memory;
  isa::ExecCounts counts;
  std::string error;  // the interpreter's fault, if any
};

isa::Kernel compile(const GeneratedKernel& g);  // assembled, with DARSIE's static hints
Golden runGolden(const GeneratedKernel& g, const isa::Kernel& k);

struct Check {
  std::string failure;  // empty: the timing model matches the interpreter
  uint64_t cycles = 0, issued = 0, skipped = 0;
  std::string darsieStats;  // a few DARSIE counters, for --verbose
};
// The runs a seed makes: baseline once, every registered mechanism and the compositions of
// kCompositions at every size.
struct RunSpec {
  config::Mechanism mechanism;  // the mechanism, or a composition's first
  const Sizes* sizes;
  std::vector<config::Mechanism> composition = {};  // two or more: a composition, in list order
};
// The compositions every seed also runs (docs/mechanisms.md, "Composition").
inline const std::vector<const char*> kCompositions = {"darsie+bow-wr", "darsie+bow"};
// The run's configuration name: "bow-wr", "darsie+bow-wr".
std::string runName(const RunSpec& run);
// The run of a configuration name mechanisms::parseMechanisms accepts (throws config::ConfigError).
RunSpec runSpecOf(const std::string& name, const Sizes& sizes);
std::vector<RunSpec> allRuns();

Check runTimed(const GeneratedKernel& g, const isa::Kernel& k, const Golden& golden, const RunSpec& run);

}  // namespace simtlm::test
