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
  if (cfg.dram.scheduler == config::DramScheduler::Frfcfs) {
    d.scheduler = mem::DramConfig::Scheduler::FrFcfs;
    d.banks = static_cast<unsigned>(cfg.dram.banks_per_channel);
    d.channels = static_cast<unsigned>(cfg.dram.channels);
    d.queue_depth = static_cast<unsigned>(cfg.dram.queue_depth);
    d.accept_cycles = 0;  // the channel queues take a request per delta cycle while they have room
    d.dram_clock_period = sc_time(1.0e6 / cfg.dram.clock_mhz, SC_PS);
    d.t_rcd = static_cast<unsigned>(cfg.dram.t_rcd);
    d.t_rp = static_cast<unsigned>(cfg.dram.t_rp);
    d.t_ras = static_cast<unsigned>(cfg.dram.t_ras);
    d.t_cl = static_cast<unsigned>(cfg.dram.t_cl);
    d.t_wl = static_cast<unsigned>(cfg.dram.t_wl);
    d.t_ccd = static_cast<unsigned>(cfg.dram.t_ccd);
    d.atom_bytes = static_cast<unsigned>(cfg.dram.atom_bytes);
  }
  return d;
}

unsigned l2Slices(const config::GpuConfig& cfg) {
  return static_cast<unsigned>(cfg.dram.channels * cfg.l2.sub_partitions);
}

unsigned l2SliceOf(const config::GpuConfig& cfg, std::uint64_t address) {
  const auto channel = static_cast<unsigned>(address / static_cast<uint64_t>(cfg.dram.interleave) %
                                             static_cast<uint64_t>(cfg.dram.channels));
  const auto sub = static_cast<unsigned>(address / static_cast<uint64_t>(cfg.l2.line) %
                                         static_cast<uint64_t>(cfg.l2.sub_partitions));
  return channel * static_cast<unsigned>(cfg.l2.sub_partitions) + sub;
}

mem::L2Config l2ConfigOf(const config::GpuConfig& cfg) {
  mem::L2Config c;
  c.size = static_cast<uint64_t>(cfg.l2.size) / l2Slices(cfg);
  c.mshrs = static_cast<unsigned>(cfg.l2.mshrs);
  c.mshr_merge = static_cast<unsigned>(cfg.l2.mshr_merge);
  c.request_queue = static_cast<unsigned>(cfg.l2.request_queue);
  c.dram_queue = static_cast<unsigned>(cfg.l2.dram_queue);
  c.slice_channels = static_cast<unsigned>(cfg.dram.channels);
  c.slice_sub_partitions = static_cast<unsigned>(cfg.l2.sub_partitions);
  c.slice_interleave = static_cast<unsigned>(cfg.dram.interleave);
  c.write_policy = cfg.l2.write_policy == config::L2WritePolicy::WriteBack
                       ? mem::L2Config::WritePolicy::WriteBackAllocate
                       : mem::L2Config::WritePolicy::WriteThroughNoAllocate;
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

void Platform::registerL2Totals(stats::Registry& r) {
  using S = mem::L2Cache::Stats;
  const struct {
    const char* name;
    uint64_t S::*field;
    const char* unit;
    const char* description;
  } totals[] = {
      {"reads", &S::reads, "requests", "read requests (hits, misses and bypasses), all slices"},
      {"writes", &S::writes, "requests", "write requests, all slices"},
      {"atomics", &S::atomics, "requests", "atomics (performed at memory), all slices"},
      {"hits", &S::hits, "requests", "reads served from the cache, all slices"},
      {"misses", &S::misses, "requests", "reads that missed (including merged), all slices"},
      {"merged", &S::merged, "requests", "missing reads merged into an MSHR in flight, all slices"},
      {"bypasses", &S::bypasses, "requests", "reads passed to memory uncached, all slices"},
      {"evictions", &S::evictions, "lines", "valid lines replaced, all slices"},
      {"mshr_stalls", &S::mshr_stalls, "requests", "requests that waited for an MSHR, all slices"},
      {"queue_full", &S::queue_full, "requests", "requests held by a full request queue, all slices"},
      {"dram_queue_stalls", &S::dram_queue_stalls, "requests",
       "lookups delayed by a full queue towards DRAM, all slices"},
      {"errors", &S::errors, "requests", "responses with an error status, all slices"},
      {"bytes_from_memory", &S::bytes_from_memory, "bytes", "data received from memory, all slices"},
      {"bytes_to_memory", &S::bytes_to_memory, "bytes", "data sent to memory, all slices"},
      {"write_hits", &S::write_hits, "requests", "write-back: writes to a line held, all slices"},
      {"write_misses", &S::write_misses, "requests",
       "write-back: writes that allocated a line, all slices"},
      {"writebacks", &S::writebacks, "lines", "write-back: dirty lines written to DRAM, all slices"},
      {"partial_fills", &S::partial_fills, "lines",
       "write-back: fills merged under bytes written before, all slices"},
  };
  // Counters, not derived values: per-launch deltas and the energy layer read integers.
  for (const auto& t : totals) add(r, std::string("l2.") + t.name, l2_totals_.*t.field, t.unit, t.description);
  r.addRatio("l2.hit_rate", "l2.hits", "l2.reads", "ratio", "hits per read request, all slices");
}

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
    l2_dram = std::make_unique<mem::Interconnect>("l2_dram");
    l2_dram->to_targets.bind(dram.from_bus);
    l2_dram->map(0, 0, kDramBytes, false);
    const mem::L2Config slice = l2ConfigOf(cfg);
    std::vector<unsigned> targets;
    for (unsigned i = 0; i < l2Slices(cfg); ++i) {
      const std::string name = i == 0 && l2Slices(cfg) == 1 ? "l2" : "l2_" + std::to_string(i);
      l2.push_back(std::make_unique<mem::L2Cache>(name.c_str(), slice));
      bus.to_targets.bind(l2.back()->from_bus);
      l2.back()->to_memory.bind(l2_dram->from_initiators);
      l2.back()->registerStats(stats::Group(stats, "l2.slice" + std::to_string(i)));
      l2.back()->shareTotals(&l2_totals_);
      targets.push_back(i);
    }
    bus.mapInterleaved(0, kDramBytes, std::move(targets), static_cast<uint64_t>(cfg.l2.line),
                       [cfg](uint64_t a) { return l2SliceOf(cfg, a); });
    registerL2Totals(stats);
  } else {
    bus.to_targets.bind(dram.from_bus);
    bus.map(0, 0, kDramBytes, false);
  }

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
  add(stats, "dram.queue_full_stalls", d.queue_full_stalls, "requests",
      "requests held by a full bank queue (fixed) or channel queue (frfcfs)");
  add(stats, "dram.row_hits", d.row_hits, "accesses", "accesses to the bank's open row (frfcfs)");
  add(stats, "dram.row_misses", d.row_misses, "accesses", "accesses that activated a row (frfcfs)");
  add(stats, "dram.row_conflicts", d.row_conflicts, "accesses",
      "row misses that first precharged another open row (frfcfs)");
  stats.addDerived(
      "dram.row_hit_rate",
      [&d] { return d.row_hits + d.row_misses ? double(d.row_hits) / double(d.row_hits + d.row_misses) : 0.0; },
      "ratio", "row hits per access (frfcfs)");
}

}  // namespace simtlm::gpu
