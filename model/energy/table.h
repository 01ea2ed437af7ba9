// An energy table: for every component of the catalogue, the energy of each of its events (pJ)
// and its static power (mW); the technology node, supply voltage and clock the numbers were made
// for; and where every number comes from. Parsed from the text of a YAML file (configs/energy/*.yaml,
// format in docs/energy.md), which the command line reads (cli::loadEnergyTable): the model reads
// no files. Every problem is one InputError naming the file, line, column and entry.
#pragma once

#include <string>
#include <vector>

namespace simtlm::energy {

struct Sourced {
  double value = 0;
  std::string source;  // where the number comes from (a paper and table, a derivation, an estimate)
};

struct ComponentEntry {
  std::vector<Sourced> events;  // pJ per event, in the order of the catalogue's events
  Sourced staticMw;             // static (leakage) power, mW: per SM for per-SM components
};

struct EnergyTable {
  std::string name, description, file;
  Sourced nodeNm, voltageV, clockMhz;
  Sourced gatedSmLeakage;                   // fraction of per-SM static power drawn while an SM is gated
  std::vector<ComponentEntry> components;   // in catalogue() order
};

// Parses a table's text; `fileName` names it in errors and gives the table's default name (its
// stem). Throws InputError.
EnergyTable parseTable(const std::string& text, const std::string& fileName);

}  // namespace simtlm::energy
