// The results of a sweep: one row per point that has a result file, with ratios to the
// `baseline` point of the same scenario and grid values; written as results.csv and drawn as
// DARSIE's Fig. 1/2 (the limit study of the baseline points), Fig. 8 (speedup), Fig. 9
// (instructions executed) and Fig. 11 (energy) by the plotting script (cli/plot.h).
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
// results.csv (written atomically), then the figures drawn from it, in `dir`. Without
// matplotlib: a warning with the install hint, and false. Throws std::runtime_error when the
// plotting script fails.
bool writeSweepOutputs(const SweepSpec& spec, const SweepTable& t, const std::string& dir);

// Integral values (cycles, counts) exactly, others to 6 significant digits: for the CSV and charts.
std::string formatNumber(double v);
// "scenario key=value ...": the points that share a baseline.
std::string pointGroup(const SweepPoint& p);
}  // namespace simtlm::cli
