// The default platform the command line runs: the GPU top, the host driver, the interconnect
// and the DRAM target, wired as a user would wire them (docs/tlm.md):
//
//   host.control ---------------------------------> gpu.regs.control
//   host.to_memory --+                     +--> l2_0 --+
//                    +--> bus (interconnect) --> ...  --+--> l2_dram (interconnect) --> dram
//   gpu.port --------+   (address-interleaved) +--> l2_N --+                          [0, 2 GiB)
// With l2.enabled false the bus goes straight to dram. The L2 has dram.channels x
// l2.sub_partitions slices; l2SliceOf() gives the slice of an address.
//   gpu.irq ----------> irq signal ----------------> host.irq
//
// Every memory-side statistic is registered in the same registry as the SMs' (dram.*, noc.*,
// tlm.*), so one walk writes them all. One Platform per process (SystemC elaborates once).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/gpu/gpu.h"
#include "model/gpu/host_driver.h"
#include "model/mem/dram_target.h"
#include "model/mem/interconnect.h"
#include "model/mem/l2_cache.h"

namespace simtlm::gpu {

// The configuration of one L2 slice from l2.* (the L2 is present when l2.enabled).
mem::L2Config l2ConfigOf(const config::GpuConfig& cfg);
unsigned l2Slices(const config::GpuConfig& cfg);
// The slice holding `address`: channel (address / dram.interleave) % dram.channels, and in it
// sub-partition (address / l2.line) % l2.sub_partitions (GPGPU-Sim's dramid@8 with the
// sub-partition taken from the bank's low bit, bit 7); slice = channel * sub_partitions + sub.
unsigned l2SliceOf(const config::GpuConfig& cfg, std::uint64_t address);
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
  std::vector<std::unique_ptr<mem::L2Cache>> l2;  // the slices; none when l2.enabled is false
  std::unique_ptr<mem::Interconnect> l2_dram;     // the slices' way to dram
  sc_core::sc_signal<bool> irq;
  // Notified (one delta later) whenever the host launches a kernel: observers such as the energy
  // layer's power sampler (model/energy/power_trace.h) start watching the run here.
  sc_core::sc_event kernel_started;

 private:
  void registerL2Totals(stats::Registry& r);  // l2.<counter>: the sum over the slices
  mem::L2Cache::Stats l2_totals_;
};

}  // namespace simtlm::gpu
