#include "cli/plot.h"
#include "workloads/data_dir.h"

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include "cli/scenario.h"
#include "cli/subprocess.h"

namespace simtlm::cli {
namespace {

const char* kInstallHint =
    "install it with `apt-get install python3-matplotlib`, or point SIMTLM_PYTHON at a Python 3 that has "
    "matplotlib";

}  // namespace

std::string plotPython() {
  const char* env = std::getenv("SIMTLM_PYTHON");
  return env && *env ? env : "/usr/bin/python3";
}

std::string plotScript() { return workloads::dataDir() + "/scripts/plot/simtlm_plot.py"; }

std::string plottingUnavailable() {
  const std::string python = plotPython();
  if (access(plotScript().c_str(), R_OK) != 0) return "the plotting script " + plotScript() + " is missing";
  if (access(python.c_str(), X_OK) != 0)
    return "there is no Python interpreter at " + python + " (SIMTLM_PYTHON); " + kInstallHint;
  const ProgramResult r = runProgram({python, "-c", "import matplotlib"});
  if (r.exitCode != 0) return python + " cannot import matplotlib; " + kInstallHint;
  return "";
}

void runPlotScript(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {plotPython(), plotScript()};
  argv.insert(argv.end(), args.begin(), args.end());
  const ProgramResult r = runProgram(argv);
  if (r.exitCode != 0)
    throw std::runtime_error("the plotting script failed (" + plotScript() + ", exit code " +
                             std::to_string(r.exitCode) + "):\n" + r.out + r.err);
}

int cmdPlot(const std::vector<std::string>& args) {
  const std::string why = plottingUnavailable();
  if (!why.empty()) throw std::runtime_error("plot: " + why);
  // The script becomes this process: its output, messages and exit code are the command's.
  std::vector<std::string> copy = {plotPython(), plotScript()};
  copy.insert(copy.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::cout.flush();
  execv(argv[0], argv.data());
  throw std::runtime_error("plot: cannot start " + copy[0]);
}

}  // namespace simtlm::cli
