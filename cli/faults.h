// `simtlm faults SCENARIO.yaml`: a fault-injection campaign for UV's opportunistic reliability
// (docs/uv.md). A fault-free run with uv.reliability=true gives the coverages and the cycle
// count; then each injection is its own child run (`simtlm run --contract`) that flips one
// seeded bit, of an ALU result or of a live register, at a seeded cycle on a seeded SM. Each is
// classified: detected (a comparison of two copies or two lanes disagreed), silent (memory
// differs from the interpreter's), masked (memory equal), stopped (the run did not finish), or
// not injected (the chosen SM had nothing to execute from that cycle on).
#pragma once

#include <string>
#include <vector>

namespace simtlm::cli {

// `faults SCENARIO.yaml --mechanism uv|uv-token|uv-srf|uv-srf-irb [--target alu|register]
// [--injections N] [--seed S] [--config F] [--set k=v]... [--jobs N] [--json OUT]`.
// Returns 0 when the campaign ran (whatever its outcomes); bad input throws one clear message.
int cmdFaults(const std::vector<std::string>& args);

}  // namespace simtlm::cli
