// Value syntax of parameters (integers with byte suffixes, reals, booleans, enum names), the
// descriptor helpers, and "did you mean" suggestions for misspelt keys.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

#include "model/common/param_builders.h"

namespace simtlm::config {

namespace {

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string formatReal(double v) {
  std::ostringstream os;
  os.precision(10);
  os << v;
  return os.str();
}

std::string Param::allowed() const {
  switch (type) {
    case ParamType::Int:
      return "[" + std::to_string(static_cast<long long>(min)) + ", " +
             std::to_string(static_cast<long long>(max)) + "]";
    case ParamType::Double: return "[" + formatReal(min) + ", " + formatReal(max) + "]";
    case ParamType::Bool: return "true|false";
    case ParamType::Enum: {
      std::string s;
      for (const auto& c : choices) s += (s.empty() ? "" : "|") + c;
      return s;
    }
  }
  return "";
}

// Integers in decimal or 0x hex; a parameter measured in bytes also takes K/KB/KiB, M/MB/MiB
// (powers of 1024), because cache and memory sizes are written that way in every table.
std::optional<long long> parseInteger(const std::string& raw, bool bytes) {
  std::string text = trim(raw);
  long long scale = 1;
  if (bytes) {
    std::string l = lower(text);
    for (const auto& [suffix, s] : {std::pair<const char*, long long>{"kib", 1024}, {"kb", 1024},
                                    {"k", 1024}, {"mib", 1 << 20}, {"mb", 1 << 20}, {"m", 1 << 20}}) {
      size_t n = std::char_traits<char>::length(suffix);
      if (l.size() > n && l.compare(l.size() - n, n, suffix) == 0) {
        text = trim(text.substr(0, text.size() - n));
        scale = s;
        break;
      }
    }
  }
  if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '-' || text[0] == '+'))
    return std::nullopt;
  size_t used = 0;
  long long v = 0;
  try { v = std::stoll(text, &used, 0); } catch (...) { return std::nullopt; }
  if (used != text.size()) return std::nullopt;
  if (v > (1LL << 40) || v < -(1LL << 40)) return std::nullopt;
  return v * scale;
}

std::optional<double> parseReal(const std::string& raw) {
  std::string text = trim(raw);
  size_t used = 0;
  double v = 0;
  if (text.empty()) return std::nullopt;
  try { v = std::stod(text, &used); } catch (...) { return std::nullopt; }
  if (used != text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<bool> parseBoolean(const std::string& raw) {
  std::string l = lower(trim(raw));
  if (l == "true" || l == "1" || l == "yes" || l == "on") return true;
  if (l == "false" || l == "0" || l == "no" || l == "off") return false;
  return std::nullopt;
}

std::optional<int> parseChoice(const std::string& raw, const std::vector<std::string>& choices) {
  std::string l = lower(trim(raw));
  for (size_t i = 0; i < choices.size(); ++i)
    if (choices[i] == l) return static_cast<int>(i);
  return std::nullopt;
}

std::vector<std::string> suggestKeys(const std::string& key) {
  std::vector<std::string> out;
  // A key given without its section ("num_warps") or under the wrong one ("gpu.num_warps").
  std::string leaf = key.substr(key.rfind('.') == std::string::npos ? 0 : key.rfind('.') + 1);
  for (const auto& p : params())
    if (p.key.size() > leaf.size() && p.key.compare(p.key.size() - leaf.size() - 1, leaf.size() + 1, "." + leaf) == 0)
      out.push_back(p.key);
  if (!out.empty()) return out;
  size_t best = std::max<size_t>(2, key.size() / 5) + 1;
  for (const auto& p : params()) {
    size_t d = editDistance(lower(key), p.key);
    if (d < best) { best = d; out.assign(1, p.key); }
    else if (d == best && !out.empty()) out.push_back(p.key);
  }
  return out;
}

const Param* findParam(const std::string& key) {
  for (const auto& p : params())
    if (p.key == key) return &p;
  return nullptr;
}

GpuConfig::GpuConfig() {
  for (const auto& p : params()) {
    std::string err = p.parse(*this, p.defaultText);
    if (!err.empty()) throw std::logic_error("default of " + p.key + ": " + err);
  }
}

}  // namespace simtlm::config
