// `simtlm bench`: simulation speed on the tiled matrix multiply (issue 3's benchmark).
#pragma once

#include <string>
#include <vector>

namespace simtlm::cli {

int cmdBench(const std::vector<std::string>& args);

}  // namespace simtlm::cli
