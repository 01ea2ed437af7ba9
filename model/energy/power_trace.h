// Power over time: the energy of each component in windows of N GPU cycles.
//
// PowerTrace turns successive snapshots of the counters into windows (the energy model evaluated
// on each window's counter increase, so the windows add up to the run's energy exactly, up to
// rounding). PowerSampler is the SystemC module that takes the snapshots during a simulation: it
// wakes every N GPU clock cycles while a kernel runs (from the platform's kernel-started event to
// the completion interrupt) and schedules nothing while the GPU is idle, so it neither keeps the
// simulation alive nor changes a single cycle.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "model/common/stats.h"
#include "model/energy/model.h"

namespace simtlm::energy {

struct TraceWindow {
  int launch = 0;                    // 1-based kernel launch the window belongs to
  uint64_t startCycle = 0, endCycle = 0;  // gpu.cycles (kernel cycles, summed over launches)
  std::vector<double> componentPj;   // dynamic + static energy per component, catalogue() order
};

class PowerTrace {
 public:
  explicit PowerTrace(const EnergyModel& model);
  // Closes the window that ends at these counter values (aligned with model.counters()). A
  // snapshot without new cycles adds its energy to the last window instead of opening a new one.
  void sample(const std::vector<double>& values, int launch);
  const std::vector<TraceWindow>& windows() const { return windows_; }
  double totalPj() const;  // the integral of the trace
  // CSV: launch, start/end cycle, start/end second, W per charged component, total W.
  std::string csv() const;
  // HotSpot's .ptrace: a tab-separated line of unit names, then one line of W per window.
  std::string ptrace() const;

 private:
  const EnergyModel& model_;
  int cyclesIndex_ = -1;
  std::vector<double> last_;
  std::vector<TraceWindow> windows_;
};

class PowerSampler : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(PowerSampler);
  // Construct after every statistic is registered (after the platform). `kernelStarted` fires at
  // each launch, `done` rises when a kernel completes (the GPU's interrupt line).
  PowerSampler(sc_core::sc_module_name name, const EnergyModel& model, const stats::Registry& registry,
               uint64_t windowCycles, const sc_core::sc_event& kernelStarted, const sc_core::sc_signal<bool>& done);
  // After the simulation: counts that changed since the last sample join the last window.
  void finish();
  const PowerTrace& trace() const { return trace_; }

 private:
  void wake();
  std::vector<double> read() const;

  PowerTrace trace_;
  std::vector<std::function<double()>> readers_;
  uint64_t window_;
  sc_core::sc_time period_, first_;
  const sc_core::sc_signal<bool>& done_;
  const uint64_t* gpuCycles_ = nullptr;
  uint64_t lastCycles_ = 0;
  bool armed_ = false;
  int launch_ = 0;
};

}  // namespace simtlm::energy
