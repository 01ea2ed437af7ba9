#include "cli/energy_options.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "cli/scenario.h"
#include "isa/input_file.h"
#include "workloads/data_dir.h"

namespace po = boost::program_options;

namespace simtlm::cli {
namespace {

std::string text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// A number within [lo, hi] given as text: one message naming the option and its range otherwise.
double number(const po::variables_map& vm, const char* option, double lo, double hi, const char* unit) {
  const std::string t = vm[option].as<std::string>();
  size_t used = 0;
  double v = NAN;
  try { v = std::stod(t, &used); } catch (...) { used = 0; }
  const std::string range = "[" + text(lo) + ", " + text(hi) + "] " + unit;
  if (used == 0 || used != t.size() || !std::isfinite(v))
    throw std::invalid_argument(std::string("--") + option + " '" + t + "': expected a number in " + range);
  if (v < lo || v > hi) throw std::invalid_argument(std::string("--") + option + " " + t + " is outside " + range);
  return v;
}

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

energy::EnergyTable loadEnergyTable(const std::string& path) {
  return energy::parseTable(readInputFile(path, "energy table"), path);
}

bool EnergyRequest::ptrace() const { return endsWith(traceFile, ".ptrace"); }

void addEnergyOptions(po::options_description& desc, bool withTrace) {
  desc.add_options()("energy", po::value<std::string>(), "energy table (configs/energy/*.yaml)")(
      "energy-voltage", po::value<std::string>(), "supply voltage for the energy report, V")(
      "energy-clock", po::value<std::string>(), "clock for the energy report's time and power, MHz");
  if (withTrace)
    desc.add_options()("power-trace", po::value<std::string>(), "write power per component over time (CSV or .ptrace)")(
        "window", po::value<std::string>(), "power-trace window, GPU cycles");
}

EnergyRequest energyRequestFrom(const po::variables_map& vm) {
  EnergyRequest r;
  if (vm.count("energy-voltage")) r.op.voltageV = number(vm, "energy-voltage", energy::kMinVoltage, energy::kMaxVoltage, "V");
  if (vm.count("energy-clock")) r.op.clockMhz = number(vm, "energy-clock", energy::kMinClockMhz, energy::kMaxClockMhz, "MHz");
  if (vm.count("window")) {
    if (!vm.count("power-trace")) throw std::invalid_argument("--window needs --power-trace OUT");
    r.window = static_cast<uint64_t>(number(vm, "window", 1, 1e9, "cycles"));
    if (static_cast<double>(r.window) != std::stod(vm["window"].as<std::string>()))
      throw std::invalid_argument("--window " + vm["window"].as<std::string>() + ": expected a whole number of cycles in [1, 1e+09]");
  }
  if (vm.count("power-trace")) {
    r.traceFile = vm["power-trace"].as<std::string>();
    if (r.traceFile.empty()) throw std::invalid_argument("--power-trace: expected a file name (.csv or .ptrace)");
  }
  r.tableFile = vm.count("energy") ? vm["energy"].as<std::string>() : workloads::dataDir() + "/configs/energy/default.yaml";
  r.table = loadEnergyTable(r.tableFile);
  return r;
}

std::vector<std::string> energyArguments(const po::variables_map& vm) {
  std::vector<std::string> a;
  for (const char* o : {"energy", "energy-voltage", "energy-clock"})
    if (vm.count(o)) a.insert(a.end(), {std::string("--") + o, vm[o].as<std::string>()});
  return a;
}

}  // namespace simtlm::cli
