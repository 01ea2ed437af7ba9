// The parameter table: one descriptor per GpuConfig field, the single source of truth for its
// key, type, default, unit, allowed values and meaning.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/common/config.h"

namespace simtlm::config {

enum class ParamType { Int, Double, Bool, Enum };

struct Param {
  std::string key;          // "section.name", as in INI files and --set
  ParamType type;
  std::string defaultText;  // the default, in the syntax a user would write
  std::string unit;         // "warps", "bytes", "cycles", ... ("" for enums and booleans)
  std::string description;  // one line
  double min = 0, max = 0;  // inclusive range (Int, Double)
  std::vector<std::string> choices;  // Enum: names in enumerator order

  // Parses `text` into the field of `c`. Returns "" on success, otherwise what is wrong
  // ("not an integer", "out of range [1, 64]", ...); `c` is then unchanged.
  std::function<std::string(GpuConfig& c, const std::string& text)> parse;
  std::function<std::string(const GpuConfig& c)> format;  // current value as text
  std::function<nlohmann::json(const GpuConfig& c)> json;

  std::string allowed() const;  // "[1, 64]", "gto|lrr", "true|false"
};

// All parameters in a fixed order (by section, as documented).
const std::vector<Param>& params();
// nullptr when `key` is not a parameter.
const Param* findParam(const std::string& key);
// The closest keys to a misspelt one (edit distance, or a missing section prefix); may be empty.
std::vector<std::string> suggestKeys(const std::string& key);

}  // namespace simtlm::config
