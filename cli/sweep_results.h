// The results of a sweep: one row per point that has a result file, with ratios to the
// `baseline` point of the same scenario and grid values; written as results.csv and drawn as
// DARSIE's Fig. 1/2 (the limit study of the baseline points), Fig. 8 (speedup), Fig. 9
// (instructions executed) and Fig. 11 (energy) in SVG (cli/sweep_figures.cpp).
#pragma once

#include <array>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/sweep_spec.h"

namespace simtlm::cli {

struct SweepRow {
  const SweepPoint* point = nullptr;
  bool passed = false;
  double cycles = 0, issued = 0, skipped = 0, interpWarp = 0, energyPj = 0, dynamicPj = 0;
  bool hasResult = true;  // false: the point's run left no result file (it could not run)
  // To the baseline of the same scenario and grid values; 0 (n/a) when there is no baseline, or
  // the point or its baseline failed: failed points stay out of every ratio and mean.
  double speedup = 0, instructions = 0, energy = 0;
  // "1D" or "2D": the first launch's block shape, by which DARSIE groups its geometric means.
  std::string dims;
  // The limit study of the reference run (sweeps ask for it on baseline points), as fractions
  // of the warp instructions; hasLimit false when the run did not do it.
  bool hasLimit = false;
  double gridRedundant = 0, tbRedundant = 0, warpRedundant = 0;
  std::array<double, 3> tbByStructure{};  // uniform, affine, unstructured
};

struct SweepTable {
  std::vector<SweepRow> rows;
  bool allPassed = true, hasEnergy = false;
};

SweepTable aggregateSweep(const SweepSpec& spec, const std::function<std::string(const SweepPoint&)>& jsonOf);
// A short human table: per point cycles and the ratios to baseline, then the geometric means.
void printSweepTable(std::ostream& out, const SweepTable& t);
// results.csv and the figures, in `dir` (each written atomically).
void writeSweepOutputs(const SweepSpec& spec, const SweepTable& t, const std::string& dir);

// Integral values (cycles, counts) exactly, others to 6 significant digits: for the CSV and charts.
std::string formatNumber(double v);
// "scenario key=value ...": the points that share a baseline.
std::string pointGroup(const SweepPoint& p);
// The figures (written atomically into `dir`): fig1_redundancy.svg and fig2_taxonomy.svg from
// the baseline rows' limit study, fig8_speedup.svg, fig9_instructions.svg, fig11_energy.svg with
// geometric means over the 1D groups, the 2D groups and all.
void writeSweepFigures(const SweepSpec& spec, const SweepTable& t, const std::string& dir);

// A grouped bar chart: one group per label, one bar per series; a dashed line at `reference`.
std::string groupedBarSvg(const std::string& title, const std::string& yLabel, const std::vector<std::string>& groups,
                          const std::vector<std::string>& series, const std::vector<std::vector<double>>& values,
                          double reference);

}  // namespace simtlm::cli
