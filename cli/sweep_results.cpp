#include "cli/sweep_results.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/results.h"

namespace simtlm::cli {
namespace {

// The sum of sm<N>.<suffix> over every SM.
double sumPerSm(const nlohmann::json& stats, const std::string& suffix) {
  double total = 0;
  for (const auto& [k, v] : stats.items()) {
    if (k.size() <= suffix.size() + 3 || k.compare(0, 2, "sm") != 0 || !v.is_number()) continue;
    const size_t dot = k.find('.');
    if (dot == std::string::npos || k.compare(dot + 1, std::string::npos, suffix) != 0) continue;
    if (k.find_first_not_of("0123456789", 2) != dot) continue;
    total += v.get<double>();
  }
  return total;
}

std::string groupKey(const SweepPoint& p) {
  std::string s = p.scenario;
  for (const auto& [k, v] : p.sets) s += " " + k + "=" + v;
  return s;
}

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

}  // namespace

SweepTable aggregateSweep(const SweepSpec& spec, const std::function<std::string(const SweepPoint&)>& jsonOf) {
  SweepTable t;
  for (const SweepPoint& p : spec.points) {
    std::ifstream in(jsonOf(p));
    if (!in) {
      t.allPassed = false;
      continue;
    }
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(in);
    } catch (const std::exception&) {
      t.allPassed = false;
      continue;
    }
    SweepRow r;
    r.point = &p;
    r.passed = j.value("result", "") == "passed";
    const nlohmann::json& s = j["stats"];
    r.cycles = s.value("gpu.cycles", 0.0);
    r.issued = sumPerSm(s, "issue.warp_instructions");
    r.skipped = sumPerSm(s, "darsie.skipped");
    r.interpWarp = s.value("interp.warp_instructions", 0.0);
    if (j.contains("energy")) {
      r.energyPj = j["energy"].value("total_pj", 0.0);
      r.dynamicPj = j["energy"].value("dynamic_pj", 0.0);
      t.hasEnergy = t.hasEnergy || r.energyPj > 0;
    }
    t.allPassed = t.allPassed && r.passed;
    t.rows.push_back(r);
  }
  std::map<std::string, const SweepRow*> base;
  for (const SweepRow& r : t.rows)
    if (r.point->mechanism == "baseline") base[groupKey(*r.point)] = &r;
  for (SweepRow& r : t.rows) {
    auto it = base.find(groupKey(*r.point));
    if (it == base.end()) continue;
    const SweepRow& b = *it->second;
    if (r.cycles > 0) r.speedup = b.cycles / r.cycles;
    if (b.issued > 0) r.instructions = r.issued / b.issued;
    if (b.energyPj > 0) r.energy = r.energyPj / b.energyPj;
  }
  return t;
}

void printSweepTable(std::ostream& out, const SweepTable& t) {
  char line[200];
  std::snprintf(line, sizeof line, "  %-36s %-20s %12s %8s %9s %8s  %s\n", "scenario", "mechanism", "cycles",
                "speedup", "executed", "energy", "checks");
  out << line;
  std::map<std::string, std::pair<double, int>> logs;  // mechanism: sum of log speedup, count
  for (const SweepRow& r : t.rows) {
    std::snprintf(line, sizeof line, "  %-36s %-20s %12.0f %8.3f %9.3f %8.3f  %s\n", groupKey(*r.point).c_str(),
                  r.point->mechanism.c_str(), r.cycles, r.speedup, r.instructions, r.energy,
                  r.passed ? "passed" : "FAILED");
    out << line;
    if (r.speedup > 0) {
      logs[r.point->mechanism].first += std::log(r.speedup);
      logs[r.point->mechanism].second++;
    }
  }
  for (const auto& [m, l] : logs)
    if (m != "baseline") out << "  geomean speedup of " << m << ": " << num(std::exp(l.first / l.second)) << "\n";
}

void writeSweepOutputs(const SweepSpec& spec, const SweepTable& t, const std::string& dir) {
  std::ostringstream csv;
  csv << "scenario,mechanism";
  for (const auto& k : spec.gridKeys) csv << "," << k;
  csv << ",result,cycles,issued,skipped,interp_warp_instructions,energy_pj,dynamic_pj,"
         "speedup,instructions_vs_baseline,energy_vs_baseline\n";
  for (const SweepRow& r : t.rows) {
    csv << r.point->scenario << "," << r.point->mechanism;
    for (const auto& kv : r.point->sets) csv << "," << kv.second;
    csv << "," << (r.passed ? "passed" : "failed") << "," << num(r.cycles) << "," << num(r.issued) << ","
        << num(r.skipped) << "," << num(r.interpWarp) << "," << num(r.energyPj) << "," << num(r.dynamicPj) << ","
        << num(r.speedup) << "," << num(r.instructions) << "," << num(r.energy) << "\n";
  }
  writeFileAtomically(dir + "/results.csv", csv.str());

  // Figures: groups are scenario (+ grid values), series the non-baseline mechanisms, plus the
  // geometric mean over the groups.
  std::vector<std::string> groups, series;
  for (const SweepRow& r : t.rows) {
    const std::string g = groupKey(*r.point);
    if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
  }
  for (const auto& m : spec.mechanisms)
    if (m != "baseline") series.push_back(m);
  if (series.empty() || groups.empty()) return;
  auto figure = [&](double SweepRow::*field, const std::string& file, const std::string& title, const std::string& y) {
    std::vector<std::vector<double>> v(series.size(), std::vector<double>(groups.size() + 1, 0));
    for (size_t s = 0; s < series.size(); ++s) {
      double logSum = 0;
      int n = 0;
      for (size_t g = 0; g < groups.size(); ++g)
        for (const SweepRow& r : t.rows)
          if (r.point->mechanism == series[s] && groupKey(*r.point) == groups[g] && r.*field > 0) {
            v[s][g] = r.*field;
            logSum += std::log(r.*field);
            ++n;
          }
      v[s][groups.size()] = n ? std::exp(logSum / n) : 0;
    }
    std::vector<std::string> labels = groups;
    labels.push_back("geomean");
    writeFileAtomically(dir + "/" + file, groupedBarSvg(title, y, labels, series, v, 1.0));
  };
  figure(&SweepRow::speedup, "fig8_speedup.svg", spec.name + ": speedup over baseline (DARSIE Fig. 8)", "speedup");
  figure(&SweepRow::instructions, "fig9_instructions.svg",
         spec.name + ": warp instructions executed, normalized to baseline (DARSIE Fig. 9)", "executed / baseline");
  if (t.hasEnergy)
    figure(&SweepRow::energy, "fig11_energy.svg", spec.name + ": energy normalized to baseline (DARSIE Fig. 11)",
           "energy / baseline");
}

std::string groupedBarSvg(const std::string& title, const std::string& yLabel, const std::vector<std::string>& groups,
                          const std::vector<std::string>& series, const std::vector<std::vector<double>>& values,
                          double reference) {
  static const char* kColours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1"};
  double top = reference;
  for (const auto& s : values)
    for (double v : s) top = std::max(top, v);
  top *= 1.1;
  const double left = 60, bottom = 90, plotH = 260, bar = 14, gap = 18;
  const double groupW = bar * static_cast<double>(series.size()) + gap;
  const double width = left + groupW * static_cast<double>(groups.size()) + 160, height = plotH + bottom + 40;
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
      << num(std::round(v * 100) / 100) << "</text>\n";
  }
  for (size_t g = 0; g < groups.size(); ++g) {
    const double x0 = left + gap / 2 + groupW * static_cast<double>(g);
    for (size_t k = 0; k < series.size(); ++k) {
      const double v = values[k][g], x = x0 + bar * static_cast<double>(k);
      s << "<rect x=\"" << x << "\" y=\"" << y(v) << "\" width=\"" << bar - 1 << "\" height=\"" << y(0) - y(v)
        << "\" fill=\"" << kColours[k % 7] << "\"><title>" << series[k] << " " << groups[g] << ": " << num(v)
        << "</title></rect>\n";
    }
    const double cx = x0 + bar * static_cast<double>(series.size()) / 2;
    s << "<text x=\"" << cx << "\" y=\"" << y(0) + 12 << "\" transform=\"rotate(35 " << cx << " " << y(0) + 12
      << ")\">" << groups[g] << "</text>\n";
  }
  s << "<line x1=\"" << left << "\" x2=\"" << width - 150 << "\" y1=\"" << y(0) << "\" y2=\"" << y(0)
    << "\" stroke=\"black\"/>\n<line x1=\"" << left << "\" x2=\"" << width - 150 << "\" y1=\"" << y(reference)
    << "\" y2=\"" << y(reference) << "\" stroke=\"grey\" stroke-dasharray=\"4 3\"/>\n";
  for (size_t k = 0; k < series.size(); ++k)
    s << "<rect x=\"" << width - 140 << "\" y=\"" << 40 + 16 * k << "\" width=\"10\" height=\"10\" fill=\""
      << kColours[k % 7] << "\"/><text x=\"" << width - 125 << "\" y=\"" << 49 + 16 * k << "\">" << series[k]
      << "</text>\n";
  s << "</svg>\n";
  return s.str();
}

}  // namespace simtlm::cli
