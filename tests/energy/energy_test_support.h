// Helpers of the energy tests: complete energy tables written from the catalogue, so that a test
// prices exactly the events it names and everything else at zero.
#pragma once

#include <map>
#include <sstream>
#include <string>

#include "model/energy/catalogue.h"
#include "model/energy/table.h"

namespace simtlm::test {

// A complete table: every event at 0 pJ and every static power at 0 mW except those named
// ("regfile.read" -> pJ in `events`, "regfile" -> mW in `statics`).
inline std::string tableText(const std::map<std::string, double>& events, const std::map<std::string, double>& statics = {},
                             double voltage = 1.0, double gated = 1.0) {
  std::ostringstream s;
  s.precision(17);
  s << "name: test\ntechnology:\n"
    << "  node: {nm: 28, source: test}\n  voltage: {v: " << voltage << ", source: test}\n"
    << "  clock: {mhz: 1000, source: test}\n"
    << "gated_sm_leakage: {fraction: " << gated << ", source: test}\ncomponents:\n";
  for (const auto& c : energy::catalogue()) {
    s << "  " << c.name << ":\n";
    for (const auto& e : c.events) {
      auto it = events.find(c.name + "." + e.name);
      s << "    " << e.name << ": {pj: " << (it == events.end() ? 0.0 : it->second) << ", source: test}\n";
    }
    auto st = statics.find(c.name);
    s << "    static: {mw: " << (st == statics.end() ? 0.0 : st->second) << ", source: test}\n";
  }
  return s.str();
}

inline energy::EnergyTable table(const std::map<std::string, double>& events,
                                 const std::map<std::string, double>& statics = {}, double voltage = 1.0,
                                 double gated = 1.0) {
  return energy::parseTable(tableText(events, statics, voltage, gated), "test.yaml");
}

}  // namespace simtlm::test
