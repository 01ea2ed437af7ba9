// `simtlm stats`: every statistic of the timing model (or of the functional interpreter) with
// its unit and description, from the statistics registry; and the generated reference section
// of docs/statistics.md (docs/cli.md).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/stat_patterns.h"

namespace simtlm::cli {

int cmdStats(const std::vector<std::string>& args);

// A listing as a markdown table: name, unit, description ("(derived)" marked).
void markdownTable(std::ostream& out, const std::vector<StatPattern>& rows);

// The generated section of docs/statistics.md, with its BEGIN and END GENERATED markers, from the listings (`simtlm stats --format json`) of
// the baseline, of each other mechanism (only the patterns the baseline lacks are listed), and
// of the interpreter. `configNote` says which configuration the listings are of.
struct MechanismListing {
  std::string mechanism, summary;
  std::vector<StatPattern> patterns;
};
std::string statisticsDoc(const std::vector<MechanismListing>& timing, const std::vector<StatPattern>& interpreter,
                          const std::string& configNote);

// A listing as `simtlm stats --format json` writes it, and back.
nlohmann::json listingJson(const std::vector<StatPattern>& rows);
std::vector<StatPattern> listingFromJson(const nlohmann::json& j);

}  // namespace simtlm::cli
