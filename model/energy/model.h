// The energy calculator: an energy table, the run's machine and an operating point compiled into
// a list of linear terms (counter x pJ), evaluated on the statistics of a run, or on the increase
// of the counters over a window. It only reads counters and never changes timing.
//
//   dynamic energy  = sum over events of count x pJ x (V / V_table)^2      (on-chip components)
//   static energy   = static power x (V / V_table) x time,  time = cycles / clock
//
// Per-SM components are charged from sm<N>.* counters and their static power per SM; GPU-wide
// ones from l2.*, noc.*, dram.*, tlm.*; a mechanism's components only in runs of that mechanism.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/energy/table.h"

namespace simtlm::energy {

// What the calculator needs to know about the simulated machine.
struct RunInfo {
  int numSms = 1;
  int laneGroup = 8;        // regfile.lane_group
  int l2Line = 128;         // l2.line
  double clockMhz = 1480;   // gpu.core_clock_mhz: the clock the cycles were counted at
  std::string mechanism = "baseline";
  bool l2 = true;  // l2.enabled: an L2 the machine lacks costs nothing (the L1 is always there)
};
// RunInfo from a run's resolved configuration (the `config` object of a result file) and mechanism.
RunInfo runInfoFromConfig(const nlohmann::json& config, const std::string& mechanism);

// The operating point to evaluate at; 0 means "the table's voltage" / "the run's clock".
struct OperatingPoint {
  double voltageV = 0;
  double clockMhz = 0;
};
inline constexpr double kMinVoltage = 0.1, kMaxVoltage = 2.0;     // V
inline constexpr double kMinClockMhz = 1, kMaxClockMhz = 10000;   // MHz

// Energy of a run (or of a window of it), in pJ.
struct Breakdown {
  struct Part {
    double dynamic = 0, statik = 0;
    double total() const { return dynamic + statik; }
  };
  std::vector<Part> components;              // catalogue() order
  std::vector<std::vector<double>> events;   // dynamic pJ per component and event
  std::vector<Part> sms;                     // per SM: its per-SM components (overhead included)
  Part gpuWide;                              // GPU-wide components (L2, interconnect, DRAM, TLM)
  Part overhead;                             // mechanism structures (included in the totals)
  Part total;
  double cycles = 0;                         // gpu.cycles of what was evaluated
};

class EnergyModel {
 public:
  // Throws std::invalid_argument when the operating point is out of range.
  EnergyModel(const EnergyTable& table, const RunInfo& run, const OperatingPoint& op = {});

  // The counters read, in the order evaluate() expects their values.
  const std::vector<std::string>& counters() const { return counters_; }
  // Values of counters() from a flat statistics map; absent ones are 0 and listed in `missing`.
  std::vector<double> valuesOf(const nlohmann::json& stats, std::vector<std::string>* missing = nullptr) const;
  Breakdown evaluate(const std::vector<double>& values) const;

  const EnergyTable& table() const { return table_; }
  const RunInfo& run() const { return run_; }
  double voltageV() const { return voltage_; }
  double clockMhz() const { return clock_; }
  double dynamicScale() const { return dynScale_; }  // (V / V_table)^2
  double staticScale() const { return statScale_; }  // V / V_table
  double seconds(double cycles) const { return cycles / (clock_ * 1e6); }
  // Whether a component is charged in this run (its mechanism is the run's).
  bool active(size_t component) const { return active_[component]; }

 private:
  struct Term {
    int counter;
    double pjPerCount;
    int component, event;  // event -1: static
    int sm;                // -1: GPU-wide
  };
  int counterIndex(const std::string& name);
  void addStatic(int component, int sm, double pjPerCycle);

  EnergyTable table_;
  RunInfo run_;
  double voltage_, clock_, dynScale_, statScale_;
  std::vector<bool> active_;
  std::vector<std::string> counters_;
  std::unordered_map<std::string, int> counterIndex_;
  std::vector<Term> terms_;
};

// The energy report of a run: totals, average power, energy-delay product, per component (with
// its events), per SM, overhead, the table and operating point, and the counters that were absent.
nlohmann::json toJson(const EnergyModel& m, const Breakdown& b, const std::vector<std::string>& missing);
// The same for people: a few lines for the run's summary table.
std::string formatReport(const EnergyModel& m, const Breakdown& b);

}  // namespace simtlm::energy
