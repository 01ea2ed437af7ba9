#include "model/gpu/platform.h"

#include <algorithm>
#include <cmath>

namespace simtlm::gpu {

using namespace sc_core;

mem::DramConfig dramConfigOf(const config::GpuConfig& cfg) {
  mem::DramConfig d;
  d.size = Platform::kDramBytes;
  d.clock_period = sc_time(1.0e6 / cfg.gpu.core_clock_mhz, SC_PS);
  d.latency_cycles = static_cast<unsigned>(cfg.dram.latency);
  d.bytes_per_cycle = static_cast<unsigned>(std::max(1.0, std::round(cfg.dram.bytes_per_cycle)));
  d.banks = static_cast<unsigned>(cfg.dram.channels * cfg.dram.banks_per_channel);
  d.bank_busy_cycles = static_cast<unsigned>(cfg.dram.bank_busy_cycles);
  d.interleave_bytes = static_cast<unsigned>(cfg.dram.interleave);
  return d;
}

mem::L2Config l2ConfigOf(const config::GpuConfig& cfg) {
  mem::L2Config c;
  c.size = static_cast<uint64_t>(cfg.l2.size);
  c.line = static_cast<unsigned>(cfg.l2.line);
  c.assoc = static_cast<unsigned>(cfg.l2.assoc);
  c.hit_latency = static_cast<unsigned>(cfg.l2.latency);
  c.clock_period = sc_time(1.0e6 / cfg.gpu.core_clock_mhz, SC_PS);
  c.downstream_mode = cfg.tlm.mode == config::TlmMode::Lt ? mem::MemPort::Mode::LooselyTimed
                                                          : mem::MemPort::Mode::ApproximatelyTimed;
  return c;
}

namespace {

// The memory-side units keep plain counter structs; the registry reads them in place.
void add(stats::Registry& r, const std::string& name, const uint64_t& counter, const char* unit,
         const char* description) {
  r.add(name, const_cast<uint64_t&>(counter), unit, description);
}

}  // namespace

Platform::Platform(sc_module_name name, const config::GpuConfig& cfg, stats::Registry& stats,
                   HostDriver::JobSource jobs)
    : sc_module(name), gpu("gpu", cfg, stats), host("host", std::move(jobs)), bus("bus"),
      dram("dram", dramConfigOf(cfg)), irq("irq") {
  auto launch = gpu.regs.onLaunch;  // the GPU's own handler, then the observers' event
  gpu.regs.onLaunch = [this, launch](const model::LaunchRegs& r) {
    launch(r);
    kernel_started.notify(SC_ZERO_TIME);
  };
  // The host knows the buffers: the GPU catches an access outside them as the interpreter does.
  host.beforeLaunch = [this](const HostJob& job) {
    std::vector<std::pair<uint32_t, uint32_t>> buffers;
    for (const auto& r : job.memory->regions()) buffers.emplace_back(r.base, r.end());
    gpu.checkBuffers(std::move(buffers));
  };
  host.control.bind(gpu.regs.control);
  gpu.irq(irq);
  host.irq(irq);
  gpu.port.to_memory.bind(bus.from_initiators);
  host.to_memory.bind(bus.from_initiators);
  if (cfg.l2.enabled) {
    l2 = std::make_unique<mem::L2Cache>("l2", l2ConfigOf(cfg));
    bus.to_targets.bind(l2->from_bus);
    l2->to_memory.bind(dram.from_bus);
    l2->registerStats(stats::Group(stats, "l2"));
  } else {
    bus.to_targets.bind(dram.from_bus);
  }
  bus.map(0, 0, kDramBytes, false);

  const auto& t = gpu.port.stats();
  add(stats, "tlm.transactions", t.transactions, "transactions", "TLM transactions the GPU's memory socket sent");
  add(stats, "tlm.reads", t.reads, "transactions", "read transactions (atomics included)");
  add(stats, "tlm.writes", t.writes, "transactions", "write transactions");
  add(stats, "tlm.atomics", t.atomics, "transactions", "atomic transactions (performed at memory)");
  add(stats, "tlm.errors", t.errors, "transactions", "transactions answered with an error status");
  add(stats, "tlm.bytes_read", t.bytes_read, "bytes", "bytes read through the memory socket");
  add(stats, "tlm.bytes_written", t.bytes_written, "bytes", "bytes written through the memory socket");
  add(stats, "tlm.latency_sum_ps", t.latency_sum_ps, "ps", "submit-to-completion time, summed");
  stats.addRatio("tlm.avg_latency_ps", "tlm.latency_sum_ps", "tlm.transactions", "ps", "mean transaction latency");
  const auto& n = bus.stats();
  add(stats, "noc.requests", n.requests, "transactions", "timed requests routed by the interconnect");
  add(stats, "noc.unmapped", n.unmapped, "transactions", "requests to no mapped target");
  const auto& d = dram.stats();
  add(stats, "dram.reads", d.reads, "accesses", "DRAM read accesses (atomics included)");
  add(stats, "dram.writes", d.writes, "accesses", "DRAM write accesses");
  add(stats, "dram.atomics", d.atomics, "accesses", "atomic accesses performed at DRAM");
  add(stats, "dram.bytes", d.bytes, "bytes", "bytes moved by DRAM accesses");
  add(stats, "dram.bank_wait_cycles", d.bank_wait_cycles, "cycles", "arrival to bank start, summed");
  add(stats, "dram.bus_wait_cycles", d.bus_wait_cycles, "cycles", "data ready to data-bus slot, summed");
  add(stats, "dram.queue_full_stalls", d.queue_full_stalls, "requests", "requests held by a full bank queue");
}

}  // namespace simtlm::gpu
