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
Check runTimed(const GeneratedKernel& g, const isa::Kernel& k, const Golden& golden, config::Mechanism m,
               const Sizes& sizes);

// The runs a seed makes: baseline once, every DARSIE variant at every size.
struct RunSpec {
  config::Mechanism mechanism;
  const Sizes* sizes;
};
std::vector<RunSpec> allRuns();

}  // namespace simtlm::test
