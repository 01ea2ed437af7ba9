// The energy part of `simtlm compare`: each child's `energy` report side by side, normalized to
// the reference mechanism (baseline when listed), and the stacked per-component bar chart.
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
// The SVG chart of every column with a report, normalized to the reference's total energy.
// Throws std::runtime_error when the reference has no report.
std::string energyChartSvg(const std::string& scenario, const std::vector<EnergyColumn>& cols, size_t reference);

}  // namespace simtlm::cli
