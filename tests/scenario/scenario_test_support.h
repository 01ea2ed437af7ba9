// Helpers shared by the scenario tests: listing the files of a directory as test parameters.
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

}  // namespace simtlm::test
