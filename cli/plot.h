// Figures through the plotting script scripts/plot/simtlm_plot.py (matplotlib), run as a child
// process: `sweep` and `compare --chart` draw with it, and `simtlm plot ...` passes through to it.
// The interpreter is SIMTLM_PYTHON, default /usr/bin/python3 (where Debian's python3-matplotlib
// installs; the first python3 on PATH may lack it).
#pragma once

#include <string>
#include <vector>

namespace simtlm::cli {

std::string plotPython();
std::string plotScript();  // <data root>/scripts/plot/simtlm_plot.py
// Empty when figures can be drawn; else why not, with how to install matplotlib.
std::string plottingUnavailable();
// Runs the script with `args` (its subcommand first); throws std::runtime_error with the
// script's messages when it fails.
void runPlotScript(const std::vector<std::string>& args);
// `simtlm plot sweep|energy|power ...`: the script's own command line; its exit code.
int cmdPlot(const std::vector<std::string>& args);

}  // namespace simtlm::cli
