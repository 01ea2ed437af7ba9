// Internal to the scenario loader: reading typed numbers and buffer contents from YAML values.
#pragma once

#include <string>
#include <vector>

#include "cli/scenario.h"

namespace simtlm::scenario {

constexpr uint32_t kMaxBufferWords = 1u << 26;  // 256 MiB per buffer
constexpr uint64_t kMaxTotalBytes = 1ull << 30; // 1 GiB over all buffers

ElemType parseType(const yaml::Value& v);
Number parseNumber(const yaml::Value& v, ElemType t);
uint32_t toWord(const Number& n, ElemType t);
std::string formatNumber(const Number& n, ElemType t);

// zeros | {constant: V} | {ramp: {start, step}} | {random: {seed, min, max}} | {file: PATH},
// and, with `allowList`, a list of values.
Contents parseContents(const yaml::Value& v, ElemType t, const std::string& baseDir, bool allowList);
// Checks that `c` can fill `n` words (list and file lengths, the ends of an integer ramp).
void checkFits(const Contents& c, size_t n);
// Reads a raw little-endian word file named at `v` (relative to `baseDir`).
std::vector<uint32_t> readWordFile(const yaml::Value& v, const std::string& baseDir, std::string& resolved);

// `path` if absolute, else the first of dir/path that exists (the first candidate if none does).
std::string resolvePath(const std::string& path, const std::vector<std::string>& dirs);

}  // namespace simtlm::scenario
