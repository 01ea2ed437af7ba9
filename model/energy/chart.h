// A stacked per-component energy bar chart, one bar per mechanism, normalized to a reference
// (the baseline's total = 1.0), written as SVG text (no plotting library needed).
#pragma once

#include <string>
#include <vector>

namespace simtlm::energy {

struct ChartBar {
  std::string label;              // the mechanism
  std::vector<double> segments;   // energy per component (any unit), in the order of the names
};

// `components` names the segments (bottom to top); `reference` is the energy that maps to 1.0
// (must be > 0). Components that are zero in every bar are left out of the legend.
std::string stackedBarSvg(const std::string& title, const std::vector<std::string>& components,
                          const std::vector<ChartBar>& bars, double reference,
                          const std::string& yLabel = "energy (normalized to the reference's total)");

}  // namespace simtlm::energy
