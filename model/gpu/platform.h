// The default platform the command line runs: the GPU top, the host driver, the interconnect
// and the DRAM target, wired as a user would wire them (docs/tlm.md):
//
//   host.control ---------------------------------> gpu.regs.control
//   host.to_memory --+
//                    +--> bus (interconnect) --> [l2 -->] dram     [0, 2 GiB)
//   gpu.port --------+
//   gpu.irq ----------> irq signal ----------------> host.irq
//
// Every memory-side statistic is registered in the same registry as the SMs' (dram.*, noc.*,
// tlm.*), so one walk writes them all. One Platform per process (SystemC elaborates once).
#pragma once

#include <memory>

#include <systemc>

#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/gpu/gpu.h"
#include "model/gpu/host_driver.h"
#include "model/mem/dram_target.h"
#include "model/mem/interconnect.h"
#include "model/mem/l2_cache.h"

namespace simtlm::gpu {

// The L2's configuration from l2.* (the L2 is present when l2.enabled).
mem::L2Config l2ConfigOf(const config::GpuConfig& cfg);
// The DRAM target's configuration from the machine configuration (dram.*, gpu.core_clock_mhz):
// channels x banks_per_channel banks, bandwidth rounded to whole bytes per cycle (at least 1).
mem::DramConfig dramConfigOf(const config::GpuConfig& cfg);

class Platform : public sc_core::sc_module {
 public:
  static constexpr uint64_t kDramBytes = uint64_t{1} << 31;

  Platform(sc_core::sc_module_name name, const config::GpuConfig& cfg, stats::Registry& stats,
           HostDriver::JobSource jobs);

  Gpu gpu;
  HostDriver host;
  mem::Interconnect bus;
  mem::DramTarget dram;
  std::unique_ptr<mem::L2Cache> l2;  // null when l2.enabled is false
  sc_core::sc_signal<bool> irq;
  // Notified (one delta later) whenever the host launches a kernel: observers such as the energy
  // layer's power sampler (model/energy/power_trace.h) start watching the run here.
  sc_core::sc_event kernel_started;
};

}  // namespace simtlm::gpu
