// Writing results: JSON files written atomically (a partial file never looks complete).
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace simtlm::cli {

// Writes `j` to `path` through a temporary file and a rename. Throws std::runtime_error.
void writeJsonAtomically(const std::string& path, const nlohmann::json& j);
// Writes bytes to `path` the same way.
void writeFileAtomically(const std::string& path, const std::string& bytes);
// Writes what `write` puts on the stream to `path` the same way (a large file need not stand in
// memory first).
void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write);

// An output file a command will write: the option that names it and its path.
struct OutputFile {
  std::string option, path;
};
// An input the command reads: what it is ("scenario file") and its path.
struct InputFile {
  std::string what, path;
};
// The sum of the per-SM statistic sm<N>.<suffix> over every SM of a run's "stats" (0: none).
double sumPerSm(const nlohmann::json& stats, const std::string& suffix);

// Checks, before anything runs, that each output can be written: it is not one of the inputs
// (nor another output), not a folder, and its folder exists and is writable. Throws
// std::invalid_argument naming the option, the path and the system's reason.
void checkOutputs(const std::vector<OutputFile>& outputs, const std::vector<InputFile>& inputs);
// Checks that `dir` can hold a command's output files: a folder that exists (or can be made:
// its nearest existing parent is a writable folder). Throws std::invalid_argument naming `option`.
void checkOutputFolder(const std::string& option, const std::string& dir);

}  // namespace simtlm::cli
