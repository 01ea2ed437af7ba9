// Helpers shared by the scenario tests: listing the files of a directory as test parameters, and
// the small histogram scenario several of them start from.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace simtlm::test {

// Paths of the files in `dir` whose name ends in `ext`, sorted.
inline std::vector<std::string> filesIn(const std::string& dir, const std::string& ext) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ext) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// A test name from a file name: its stem with every other character turned into '_'.
inline std::string stemName(const std::string& path) {
  std::string s = std::filesystem::path(path).stem().string();
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

// One histogram launch over a 100-word ramp (scenarios/kernels/histogram.s, 16 bins and a sum),
// its buffers, `launches:` and the launch; a test appends further launches, checks or keys.
inline const std::string kHistogramLaunch =
    "  - {kernel: kernels/histogram.s, grid: 1, block: 128, params: [data, bins, sum, 100]}\n";
inline const std::string kHistogramScenario =
    "buffers:\n"
    "  - {name: data, words: 100, init: {ramp: {start: 0, step: 1}}}\n"
    "  - {name: bins, words: 16}\n"
    "  - {name: sum, words: 1}\n"
    "launches:\n" + kHistogramLaunch;

}  // namespace simtlm::test
