// Listings as markdown: `simtlm stats --format markdown` and the generated reference section of
// docs/statistics.md (`simtlm stats --markdown-doc`).
#include <algorithm>
#include <set>
#include <sstream>

#include "cli/stats_command.h"

namespace simtlm::cli {

namespace {

// scripts/gen_statistics_doc.sh and tests/check_statistics_doc.cmake look for these lines.
const char* const kStatsDocBegin =
    "<!-- BEGIN GENERATED: simtlm stats --markdown-doc (regenerate: scripts/gen_statistics_doc.sh) -->";
const char* const kStatsDocEnd = "<!-- END GENERATED -->";

std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

void markdownTable(std::ostream& out, const std::vector<StatPattern>& rows) {
  out << "| name | unit | description |\n|---|---|---|\n";
  for (const auto& r : rows)
    out << "| `" << r.name << "` | " << cell(r.unit) << " | " << cell(r.description) << (r.derived ? " (derived)" : "")
        << " |\n";
}

std::string statisticsDoc(const std::vector<MechanismListing>& timing, const std::vector<StatPattern>& interpreter,
                          const std::string& configNote) {
  std::ostringstream out;
  out << kStatsDocBegin << "\n\n"
      << "## Reference: every statistic\n\n"
      << "Generated from the statistics registry by `simtlm stats --markdown-doc` for " << configNote
      << ": the units and descriptions are those the model registers, so edit them there, not here,\n"
         "and regenerate. One row per pattern: `sm<N>` stands for every SM, `bank<B>` for every\n"
         "register-file bank, `slice<S>` for every L2 slice. \"(derived)\" marks values computed when\n"
         "read (rates, ratios, averages) rather than counted. `simtlm stats [--config FILE] [--set\n"
         "key=value]... [--mechanism M]` lists those of another machine or mechanism (a configuration\n"
         "may register more or fewer).\n\n";
  std::set<std::string> baseline;
  std::vector<std::pair<std::string, std::vector<StatPattern>>> listed;  // mechanisms with a table
  auto sameRows = [](const std::vector<StatPattern>& a, const std::vector<StatPattern>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i].name != b[i].name || a[i].unit != b[i].unit || a[i].description != b[i].description) return false;
    return true;
  };
  for (const auto& m : timing) {
    if (baseline.empty()) {
      out << "### The timing model: " << m.mechanism << " (`simtlm stats`)\n\n";
      for (const auto& r : m.patterns) baseline.insert(r.name);
      markdownTable(out, m.patterns);
      out << "\n";
      continue;
    }
    std::vector<StatPattern> own;
    for (const auto& r : m.patterns)
      if (!baseline.count(r.name)) own.push_back(r);
    out << "### Mechanism `" << m.mechanism << "` (`simtlm stats --mechanism " << m.mechanism << "`)\n\n"
        << cell(m.summary) << ". ";
    if (own.empty()) {
      out << "It registers no statistic beyond the baseline's.\n\n";
      continue;
    }
    // Variants of one mechanism register the same statistics: one table, referred to.
    auto same = std::find_if(listed.begin(), listed.end(), [&](const auto& l) { return sameRows(l.second, own); });
    if (same != listed.end()) {
      out << "The same statistics as `" << same->first << "`.\n\n";
      continue;
    }
    out << "Its statistics beside the baseline's:\n\n";
    markdownTable(out, own);
    out << "\n";
    listed.emplace_back(m.mechanism, own);
  }
  out << "### The functional interpreter (`simtlm stats --interpreter`)\n\n"
         "Every result has `interp.*`, the functional interpreter's counts (`simtlm run`: those of its\n"
         "reference run); `limit.*` come with the limit study (`docs/limit-study.md`), `bow.*` with\n"
         "`simtlm emulate --bow-study` (`docs/bow.md`).\n\n";
  markdownTable(out, interpreter);
  out << "\n" << kStatsDocEnd << "\n";
  return out.str();
}

}  // namespace simtlm::cli
