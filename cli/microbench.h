// `simtlm microbench`: the microbenchmark table (docs/microbenchmarks.md).
#pragma once

#include <string>
#include <vector>

namespace simtlm::cli {

int cmdMicrobench(const std::vector<std::string>& args);

}  // namespace simtlm::cli
