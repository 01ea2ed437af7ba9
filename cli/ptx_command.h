// `simtlm ptx FILE.ptx`: the kernels of a PTX module, and one translated into simtlm assembly
// (docs/ptx.md).
#pragma once

#include <string>
#include <vector>

namespace simtlm::cli {

int cmdPtx(const std::vector<std::string>& args);

// The register count ptxas gives `entry` (ptxas -v for sm_75), or -1 when ptxas is not on PATH
// or does not say.
int ptxasRegisters(const std::string& ptxFile, const std::string& entry);

}  // namespace simtlm::cli
