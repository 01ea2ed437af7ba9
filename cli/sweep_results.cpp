#include "cli/sweep_results.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/plot.h"
#include "cli/results.h"
#include "model/common/log.h"

namespace simtlm::cli {

// Counts (cycles, instructions, pJ) exactly; ratios to 6 significant digits.
std::string formatNumber(double v) {
  char b[32];
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    std::snprintf(b, sizeof b, "%.0f", v);
  else
    std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

std::string pointGroup(const SweepPoint& p) {
  std::string s = p.scenario;
  for (const auto& [k, v] : p.sets) s += " " + k + "=" + v;
  return s;
}

SweepTable aggregateSweep(const SweepSpec& spec, const std::function<std::string(const SweepPoint&)>& jsonOf) {
  SweepTable t;
  for (const SweepPoint& p : spec.points) {
    SweepRow r;
    r.point = &p;
    std::ifstream in(jsonOf(p));
    nlohmann::json j;
    try {
      if (in) j = nlohmann::json::parse(in);
    } catch (const std::exception&) {
      j = nullptr;
    }
    if (!j.is_object()) {  // no result: a failed point all the same
      r.hasResult = false;
      t.allPassed = false;
      t.rows.push_back(r);
      continue;
    }
    r.passed = j.value("result", "") == "passed";
    const nlohmann::json& s = j["stats"];
    r.cycles = s.value("gpu.cycles", 0.0);
    r.issued = sumPerSm(s, "issue.warp_instructions");
    r.skipped = sumPerSm(s, "darsie.skipped");
    r.interpWarp = s.value("interp.warp_instructions", 0.0);
    const auto& launches = j["launches"];
    if (launches.is_array() && !launches.empty()) {
      const auto& b = launches[0]["block"];
      r.dims = b.is_array() && b.size() == 3 && (b[1].get<int>() > 1 || b[2].get<int>() > 1) ? "2D" : "1D";
    }
    if (s.contains("limit.tb_redundant") && r.interpWarp > 0) {
      r.hasLimit = true;
      auto f = [&](const char* k) { return s.value(k, 0.0) / r.interpWarp; };
      r.gridRedundant = f("limit.grid_redundant");
      r.tbRedundant = f("limit.tb_redundant");
      r.warpRedundant = f("limit.warp_redundant");
      r.tbByStructure = {f("limit.tb_redundant.uniform"), f("limit.tb_redundant.affine"),
                         f("limit.tb_redundant.unstructured")};
    }
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
    if (r.point->mechanism == "baseline") base[pointGroup(*r.point)] = &r;
  for (SweepRow& r : t.rows) {
    auto it = base.find(pointGroup(*r.point));
    if (it == base.end() || !r.passed || !it->second->passed) continue;
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
  // (mechanism, "1D"/"2D"/"all"): sum of log speedup, points in the mean, points left out as failed
  struct Mean {
    double logs = 0;
    int points = 0, failed = 0;
  };
  std::map<std::pair<std::string, std::string>, Mean> means;
  auto ratio = [](double v) {  // 0: no ratio (no baseline, or a failed point)
    char b[16];
    std::snprintf(b, sizeof b, "%.3f", v);
    return v > 0 ? std::string(b) : std::string("n/a");
  };
  for (const SweepRow& r : t.rows) {
    std::snprintf(line, sizeof line, "  %-36s %-20s %12s %8s %9s %8s  %s\n", pointGroup(*r.point).c_str(),
                  r.point->mechanism.c_str(), r.hasResult ? formatNumber(r.cycles).c_str() : "-", ratio(r.speedup).c_str(),
                  ratio(r.instructions).c_str(), ratio(r.energy).c_str(),
                  r.passed ? "passed" : r.hasResult ? "FAILED" : "FAILED (no result)");
    out << line;
    for (const std::string& g : {r.dims, std::string("all")}) {
      if (g.empty()) continue;
      Mean& m = means[{r.point->mechanism, g}];
      if (r.speedup > 0) {
        m.logs += std::log(r.speedup);
        m.points++;
      } else if (!r.passed) {
        m.failed++;
      }
    }
  }
  for (const auto& [key, m] : means) {
    if (key.first == "baseline" || m.points + m.failed == 0) continue;
    out << "  geomean speedup of " << key.first << " (" << key.second << ", " << m.points
        << (m.points == 1 ? " point" : " points");
    if (m.failed) out << "; " << m.failed << " failed, left out";
    out << "): " << (m.points ? formatNumber(std::exp(m.logs / m.points)) : std::string("n/a")) << "\n";
  }
  bool header = false;
  for (const SweepRow& r : t.rows) {
    if (!r.hasLimit || r.point->mechanism != "baseline") continue;  // one per group
    if (!header) out << "  limit study (fraction of warp instructions): grid / TB / warp redundant; TB uniform / affine / unstructured\n";
    header = true;
    std::snprintf(line, sizeof line, "  %-36s %-4s %6.1f%% %6.1f%% %6.1f%%   %6.1f%% %6.1f%% %6.1f%%\n",
                  pointGroup(*r.point).c_str(), r.dims.c_str(), 100 * r.gridRedundant, 100 * r.tbRedundant,
                  100 * r.warpRedundant, 100 * r.tbByStructure[0], 100 * r.tbByStructure[1], 100 * r.tbByStructure[2]);
    out << line;
  }
}

bool writeSweepOutputs(const SweepSpec& spec, const SweepTable& t, const std::string& dir) {
  std::ostringstream csv;
  csv << "scenario,mechanism";
  for (const auto& k : spec.gridKeys) csv << "," << k;
  csv << ",result,cycles,issued,skipped,interp_warp_instructions,energy_pj,dynamic_pj,"
         "speedup,instructions_vs_baseline,energy_vs_baseline,dims,grid_redundant,tb_redundant,warp_redundant,"
         "tb_uniform,tb_affine,tb_unstructured\n";
  for (const SweepRow& r : t.rows) {
    csv << r.point->scenario << "," << r.point->mechanism;
    for (const auto& kv : r.point->sets) csv << "," << kv.second;
    csv << "," << (r.passed ? "passed" : "failed");
    for (double v : {r.cycles, r.issued, r.skipped, r.interpWarp, r.energyPj, r.dynamicPj})
      csv << "," << (r.hasResult ? formatNumber(v) : "");
    for (double v : {r.speedup, r.instructions, r.energy})  // empty: no ratio (no baseline, or failed)
      csv << "," << (v > 0 ? formatNumber(v) : "");
    csv << "," << r.dims;
    if (r.hasLimit) {  // fractions of the warp instructions; empty where the run did no limit study
      for (double v : {r.gridRedundant, r.tbRedundant, r.warpRedundant, r.tbByStructure[0], r.tbByStructure[1],
                       r.tbByStructure[2]})
        csv << "," << formatNumber(v);
      csv << "\n";
    } else {
      csv << ",,,,,,\n";
    }
  }
  writeFileAtomically(dir + "/results.csv", csv.str());

  if (const std::string why = plottingUnavailable(); !why.empty()) {
    log::get("cli.plot").warn("no figures for sweep {}: {}; {}/results.csv is written", spec.name, why, dir);
    return false;
  }
  runPlotScript({"sweep", dir + "/results.csv", dir, "--name", spec.name});
  return true;
}

}  // namespace simtlm::cli
