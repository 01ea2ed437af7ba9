// Writing results: JSON files written atomically (a partial file never looks complete).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace simtlm::cli {

// Writes `j` to `path` through a temporary file and a rename. Throws std::runtime_error.
void writeJsonAtomically(const std::string& path, const nlohmann::json& j);
// Writes bytes to `path` the same way.
void writeFileAtomically(const std::string& path, const std::string& bytes);

}  // namespace simtlm::cli
