// Power over time: the energy of each component in windows of N GPU cycles.
//
// PowerTrace turns successive snapshots of the counters into windows (the energy model evaluated
// on each window's counter increase, so the windows add up to the run's energy exactly, up to
// rounding). PowerSampler takes the snapshots during a simulation: armed by the platform's
// kernel-started event, it is called after every GPU cycle (gpu::Gpu::observeCycles) and samples
// every N cycles and when the kernel ends. It schedules no timed event of its own, so it neither
// keeps the simulation alive nor changes the order in which the kernel runs the model's
// processes: the statistics of a traced run are those of an untraced one.
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
  // each launch.
  PowerSampler(sc_core::sc_module_name name, const EnergyModel& model, const stats::Registry& registry,
               uint64_t windowCycles, const sc_core::sc_event& kernelStarted);
  // After each GPU cycle of a kernel; `ended`: the kernel completed or faulted in it.
  void cycle(bool ended);
  // After the simulation: counts that changed since the last sample join the last window.
  void finish();
  const PowerTrace& trace() const { return trace_; }

 private:
  void arm();
  std::vector<double> read() const;

  PowerTrace trace_;
  std::vector<std::function<double()>> readers_;
  uint64_t window_;
  const uint64_t* gpuCycles_ = nullptr;
  uint64_t lastCycles_ = 0;
  bool armed_ = false;
  int launch_ = 0;
};

}  // namespace simtlm::energy
