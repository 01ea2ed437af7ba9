// The figures of a sweep (docs/sweeps.md), as SVG text: DARSIE Fig. 1 and 2 from the limit
// study of the baseline points, Fig. 8, 9 and 11 from the ratios to the baseline, each with
// geometric means over the 1D workloads, the 2D workloads and all (as the paper groups them).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "cli/results.h"
#include "cli/sweep_results.h"
#include "model/energy/chart.h"

namespace simtlm::cli {
namespace {

// The groups (scenario + grid values) in the order their rows come, with each one's 1D/2D.
struct Groups {
  std::vector<std::string> names, dims;
  explicit Groups(const SweepTable& t) {
    for (const SweepRow& r : t.rows) {
      const std::string g = pointGroup(*r.point);
      if (std::find(names.begin(), names.end(), g) != names.end()) continue;
      names.push_back(g);
      dims.push_back(r.dims);
    }
  }
};

// Fig. 8/9/11: one group per scenario, one bar per non-baseline mechanism, then the geometric
// means ("geomean 1D", "geomean 2D" when the sweep has both kinds, and "geomean").
void ratioFigure(const SweepSpec& spec, const SweepTable& t, const Groups& groups, double SweepRow::*field,
                 const std::string& path, const std::string& title, const std::string& yLabel) {
  std::vector<std::string> series;
  for (const auto& m : spec.mechanisms)
    if (m != "baseline") series.push_back(m);
  if (series.empty() || groups.names.empty()) return;
  std::vector<std::string> means;
  for (const char* d : {"1D", "2D"})
    if (std::count(groups.dims.begin(), groups.dims.end(), d) > 0) means.push_back(d);
  if (means.size() == 1) means.clear();  // the overall mean is the same
  means.push_back("all");
  const size_t n = groups.names.size();
  std::vector<std::vector<double>> v(series.size(), std::vector<double>(n + means.size(), 0));
  for (size_t s = 0; s < series.size(); ++s) {
    std::vector<std::pair<double, int>> logs(means.size());
    for (const SweepRow& r : t.rows) {
      if (r.point->mechanism != series[s] || !(r.*field > 0)) continue;
      const size_t g = static_cast<size_t>(std::find(groups.names.begin(), groups.names.end(), pointGroup(*r.point)) -
                                           groups.names.begin());
      v[s][g] = r.*field;
      for (size_t m = 0; m < means.size(); ++m)
        if (means[m] == "all" || means[m] == r.dims) {
          logs[m].first += std::log(r.*field);
          logs[m].second++;
        }
    }
    for (size_t m = 0; m < means.size(); ++m)
      v[s][n + m] = logs[m].second ? std::exp(logs[m].first / logs[m].second) : 0;
  }
  std::vector<std::string> labels = groups.names;
  for (const auto& m : means) labels.push_back(m == "all" ? "geomean" : "geomean " + m);
  writeFileAtomically(path, groupedBarSvg(title, yLabel, labels, series, v, 1.0));
}

}  // namespace

void writeSweepFigures(const SweepSpec& spec, const SweepTable& t, const std::string& dir) {
  const Groups groups(t);
  ratioFigure(spec, t, groups, &SweepRow::speedup, dir + "/fig8_speedup.svg",
              spec.name + ": speedup over baseline (DARSIE Fig. 8; Fig. 12 with darsie-no-cf-sync)", "speedup");
  ratioFigure(spec, t, groups, &SweepRow::instructions, dir + "/fig9_instructions.svg",
              spec.name + ": warp instructions executed, normalized to baseline (DARSIE Fig. 9/10)",
              "executed / baseline");
  if (t.hasEnergy)
    ratioFigure(spec, t, groups, &SweepRow::energy, dir + "/fig11_energy.svg",
                spec.name + ": energy normalized to baseline (DARSIE Fig. 11)", "energy / baseline");

  // Fig. 1 and 2: the limit study of each scenario's (first) baseline run — the oracle does not
  // depend on the machine's parameters — and the arithmetic mean over the scenarios (the
  // paper's "on average").
  std::vector<const SweepRow*> studied;
  for (const SweepRow& r : t.rows)
    if (r.hasLimit && r.point->mechanism == "baseline" &&
        std::none_of(studied.begin(), studied.end(), [&](const SweepRow* s) { return s->point->scenario == r.point->scenario; }))
      studied.push_back(&r);
  if (studied.empty()) return;
  const std::vector<std::string> levels = {"grid", "TB", "warp"};
  std::vector<std::vector<double>> v(3, std::vector<double>(studied.size() + 1, 0));
  std::vector<std::string> labels;
  std::vector<energy::ChartBar> bars;
  std::vector<double> meanStructure(3, 0);
  for (size_t i = 0; i < studied.size(); ++i) {
    const SweepRow& r = *studied[i];
    labels.push_back(r.point->scenario + " (" + r.dims + ")");
    const double f[3] = {r.gridRedundant, r.tbRedundant, r.warpRedundant};
    for (int k = 0; k < 3; ++k) {
      v[k][i] = f[k];
      v[k][studied.size()] += f[k] / static_cast<double>(studied.size());
      meanStructure[k] += r.tbByStructure[k] / static_cast<double>(studied.size());
    }
    bars.push_back({r.point->scenario, {r.tbByStructure.begin(), r.tbByStructure.end()}});
  }
  labels.push_back("average");
  bars.push_back({"average", meanStructure});
  writeFileAtomically(dir + "/fig1_redundancy.svg",
                      groupedBarSvg(spec.name + ": redundant warp instructions per level (DARSIE Fig. 1)",
                                    "fraction of warp instructions", labels, levels, v, 0.0));
  writeFileAtomically(dir + "/fig2_taxonomy.svg",
                      energy::stackedBarSvg(spec.name + ": TB-redundant instructions by value structure (DARSIE Fig. 2)",
                                            {"uniform", "affine", "unstructured"}, bars, 1.0,
                                            "fraction of warp instructions"));
}

std::string groupedBarSvg(const std::string& title, const std::string& yLabel, const std::vector<std::string>& groups,
                          const std::vector<std::string>& series, const std::vector<std::vector<double>>& values,
                          double reference) {
  static const char* kColours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1"};
  double top = reference;
  for (const auto& s : values)
    for (double v : s) top = std::max(top, v);
  top = top > 0 ? top * 1.1 : 1.0;
  size_t longest = 0;  // labels are drawn at 35 degrees below the axis: room for the longest
  for (const auto& g : groups) longest = std::max(longest, g.size());
  const double left = 60, bottom = std::max(90.0, 20 + 6.5 * 0.57 * static_cast<double>(longest));
  const double plotH = 260, bar = 14, gap = 18;
  const double groupW = bar * static_cast<double>(series.size()) + gap;
  const double plotRight = left + groupW * static_cast<double>(groups.size());
  const double width = std::max({plotRight + 160, left + 7.0 * static_cast<double>(title.size()),
                                 plotRight + 0.82 * 6.5 * static_cast<double>(longest)});
  const double height = plotH + bottom + 40;
  auto y = [&](double v) { return 30 + plotH * (1 - v / top); };
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" font-family=\"sans-serif\" font-size=\"11\">\n<text x=\"" << left << "\" y=\"18\" font-size=\"13\">" << title
    << "</text>\n<text x=\"14\" y=\"" << 30 + plotH / 2 << "\" transform=\"rotate(-90 14 " << 30 + plotH / 2
    << ")\" text-anchor=\"middle\">" << yLabel << "</text>\n";
  for (int i = 0; i <= 4; ++i) {  // y axis ticks
    const double v = top * i / 4;
    s << "<line x1=\"" << left - 4 << "\" x2=\"" << left << "\" y1=\"" << y(v) << "\" y2=\"" << y(v)
      << "\" stroke=\"black\"/><text x=\"" << left - 6 << "\" y=\"" << y(v) + 4 << "\" text-anchor=\"end\">"
      << formatNumber(std::round(v * 100) / 100) << "</text>\n";
  }
  for (size_t g = 0; g < groups.size(); ++g) {
    const double x0 = left + gap / 2 + groupW * static_cast<double>(g);
    for (size_t k = 0; k < series.size(); ++k) {
      const double v = values[k][g], x = x0 + bar * static_cast<double>(k);
      s << "<rect x=\"" << x << "\" y=\"" << y(v) << "\" width=\"" << bar - 1 << "\" height=\"" << y(0) - y(v)
        << "\" fill=\"" << kColours[k % 7] << "\"><title>" << series[k] << " " << groups[g] << ": " << formatNumber(v)
        << "</title></rect>\n";
    }
    const double cx = x0 + bar * static_cast<double>(series.size()) / 2;
    s << "<text x=\"" << cx << "\" y=\"" << y(0) + 12 << "\" transform=\"rotate(35 " << cx << " " << y(0) + 12
      << ")\">" << groups[g] << "</text>\n";
  }
  s << "<line x1=\"" << left << "\" x2=\"" << plotRight << "\" y1=\"" << y(0) << "\" y2=\"" << y(0)
    << "\" stroke=\"black\"/>\n<line x1=\"" << left << "\" x2=\"" << plotRight << "\" y1=\"" << y(reference)
    << "\" y2=\"" << y(reference) << "\" stroke=\"grey\" stroke-dasharray=\"4 3\"/>\n";
  for (size_t k = 0; k < series.size(); ++k)
    s << "<rect x=\"" << plotRight + 20 << "\" y=\"" << 40 + 16 * k << "\" width=\"10\" height=\"10\" fill=\""
      << kColours[k % 7] << "\"/><text x=\"" << plotRight + 35 << "\" y=\"" << 49 + 16 * k << "\">" << series[k]
      << "</text>\n";
  s << "</svg>\n";
  return s.str();
}

}  // namespace simtlm::cli
