// `simtlm compare SCENARIO.yaml`: the same scenario on the timing model once per mechanism,
// each in its own child process (`simtlm run ... --json`; SystemC elaborates once per process),
// and a side-by-side table of cycles, speedup, fetched / executed / skipped instructions, the
// reduction of executed instructions, DARSIE synchronization stalls and the checks' outcome.
#pragma once

#include <string>
#include <vector>

namespace simtlm::cli {

// `compare SCENARIO.yaml [--mechanisms baseline,darsie,...] [--config F] [--set k=v]...
// [--json OUT] [--jobs N]`. Returns 0 when every child ran and passed every check; bad input
// throws (one clear message).
int cmdCompare(const std::vector<std::string>& args);

}  // namespace simtlm::cli
