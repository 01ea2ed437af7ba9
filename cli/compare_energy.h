// The energy part of `simtlm compare`: each child's `energy` report side by side, normalized to
// the reference mechanism (baseline when listed); `compare --chart` draws them from the JSON
// (scripts/plot/simtlm_plot.py energy).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace simtlm::cli {

struct EnergyColumn {
  std::string mechanism;
  bool have = false;  // the child wrote an energy report
  nlohmann::json report;
};

// The rows: total, dynamic, static, one per component charged in any column, the mechanisms'
// overhead, average power and EDP; each cell "uJ (x reference)".
void printEnergyTable(const std::vector<EnergyColumn>& cols, size_t reference);
// One mechanism's energy summary for the compare JSON (absolute and normalized).
nlohmann::json energySummaryJson(const EnergyColumn& col, const EnergyColumn& ref);

}  // namespace simtlm::cli
