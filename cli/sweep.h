// `simtlm sweep SWEEP.yaml [--out DIR] [--jobs N] [--print-commands] [--backend local|slurm ...]`
// (docs/sweeps.md).
#pragma once

#include <string>
#include <vector>

namespace simtlm::cli {

int cmdSweep(const std::vector<std::string>& args);

}  // namespace simtlm::cli
