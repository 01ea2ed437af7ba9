// The energy options of `simtlm run` and `simtlm compare` (docs/energy.md):
//   --energy FILE.yaml       energy table (default: configs/energy/default.yaml)
//   --energy-voltage V       supply voltage to evaluate at (default: the table's), 0.1..2.0 V
//   --energy-clock MHz       clock for time and power (default: gpu.core_clock_mhz), 1..10000
//   --power-trace OUT        power per component in windows (run only): CSV, or HotSpot's
//                            tab-separated layout when OUT ends in .ptrace
//   --window N               window length in GPU cycles for --power-trace, 1..10^9 (1000)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "model/energy/model.h"
#include "model/energy/table.h"

namespace simtlm::cli {

struct EnergyRequest {
  std::string tableFile;         // resolved path
  energy::EnergyTable table;
  energy::OperatingPoint op;
  std::string traceFile;         // empty: no power trace
  uint64_t window = 1000;
  bool ptrace() const;           // HotSpot layout (the file name ends in .ptrace)
};

// Reads and parses an energy table. Throws InputError naming the file (also when it cannot be
// read).
energy::EnergyTable loadEnergyTable(const std::string& path);

// Adds the options above (`withTrace`: also --power-trace and --window).
void addEnergyOptions(boost::program_options::options_description& desc, bool withTrace);
// Validates the options and loads the table. Throws std::invalid_argument naming the option and
// its allowed range, or InputError for a bad table.
EnergyRequest energyRequestFrom(const boost::program_options::variables_map& vm);
// The same options as command-line arguments, to hand to a child `simtlm run`.
std::vector<std::string> energyArguments(const boost::program_options::variables_map& vm);

}  // namespace simtlm::cli
