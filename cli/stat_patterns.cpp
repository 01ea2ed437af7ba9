#include "cli/stat_patterns.h"

#include <cctype>
#include <unordered_map>

namespace simtlm::cli {
namespace {

// Segment prefixes followed by an instance number, and the placeholder each gets.
struct IndexSegment {
  const char* prefix;
  const char* placeholder;
};
constexpr IndexSegment kIndexSegments[] = {
    {"sm", "<N>"}, {"bank", "<B>"}, {"slice", "<S>"}, {"channel", "<C>"}, {"scheduler", "<P>"},
};

std::string collapseSegment(const std::string& seg) {
  size_t digits = seg.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(seg[digits - 1]))) --digits;
  if (digits == seg.size() || digits == 0) return seg;
  const std::string prefix = seg.substr(0, digits);
  for (const auto& s : kIndexSegments)
    if (prefix == s.prefix) return prefix + s.placeholder;
  return seg;
}

}  // namespace

std::string patternOf(const std::string& name) {
  std::string out;
  size_t start = 0;
  while (true) {
    const size_t dot = name.find('.', start);
    out += collapseSegment(name.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return out;
    out += '.';
    start = dot + 1;
  }
}

std::vector<StatPattern> collapse(const std::vector<stats::Registry::Entry>& entries) {
  std::vector<StatPattern> rows;
  std::unordered_map<std::string, size_t> index;
  for (const auto& e : entries) {
    const std::string p = patternOf(e.name);
    auto [it, fresh] = index.emplace(p, rows.size());
    if (fresh) {
      rows.push_back({p, e.unit, e.description, e.counter == nullptr, 1, {}});
      continue;
    }
    StatPattern& row = rows[it->second];
    row.instances++;
    if (e.unit != row.unit)
      row.mismatches.push_back(e.name + ": unit '" + e.unit + "' (pattern's first: '" + row.unit + "')");
    if (e.description != row.description)
      row.mismatches.push_back(e.name + ": description '" + e.description + "' (pattern's first: '" +
                               row.description + "')");
  }
  return rows;
}

}  // namespace simtlm::cli
