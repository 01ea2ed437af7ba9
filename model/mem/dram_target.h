// DramTarget: the default memory target. A TLM-2.0 base-protocol target (socket `from_bus`)
// that is approximately-timed on nb_transport_fw and also serves b_transport (LT), transport_dbg
// and DMI (per page) for loading. Backed by a SparseMemory.
//
// Timing, in cycles of `clock_period` (a request is seen at the first clock edge at or after its
// arrival):
//   bank   = (address / interleave_bytes) % banks
//   start  = max(arrival, bank free); the bank is then busy for bank_busy_cycles
//   ready  = start + latency_cycles
//   data   = ceil(length / bytes_per_cycle) cycles on the shared data bus, earliest free slot
//            at or after `ready`; BEGIN_RESP is sent when the transfer ends
// so a lone access takes latency + transfer cycles, accesses to one bank serialise by the bank
// busy time, different banks overlap, and a stream is limited to bytes_per_cycle.
// One request is accepted at a time: END_REQ follows BEGIN_REQ by accept_cycles, later if the
// bank's queue (requests accepted but not started) already holds bank_queue_depth entries.
// Responses are returned when ready, so out of order across banks, one at a time (each waits
// for the previous END_RESP). Functional effects happen at arrival, so the memory contents
// follow arrival order. Errors: TLM_ADDRESS_ERROR_RESPONSE outside [0, size),
// TLM_COMMAND_ERROR_RESPONSE for TLM_IGNORE_COMMAND, answered accept_cycles + 1 after arrival.
// b_transport adds latency + transfer without contention.
// With scheduler = FrFcfs the bank/bus timing above is replaced by channels of banks with open
// rows served first-ready first-come-first-served (dram_scheduler.h): END_REQ follows BEGIN_REQ
// by accept_cycles while the request's channel queue (queue_depth) has room, and is withheld
// until it has; b_transport then adds latency + tRCD + CL + transfer (a closed row, no queueing).
// Atomics (a payload carrying an AtomicExtension, see atomic_extension.h) are performed on the
// store at arrival like any access (so they serialise in arrival order, across all initiators)
// and timed as a read of their data length; an op outside [0, size) or not 4-byte aligned gives
// TLM_ADDRESS_ERROR_RESPONSE and no effect, a non-atomic opcode or a command other than read
// TLM_COMMAND_ERROR_RESPONSE.
// Logger "gpu.mem.dram" (model/common/log.h): each request with its bank and times at trace,
// error responses at info (the requester reports them).
#pragma once

#include "model/mem/dram_scheduler.h"
#include "model/mem/sparse_memory.h"

#include <systemc>
#include <tlm>
#include "model/mem/timed_peq.h"
#include <tlm_utils/simple_target_socket.h>

#include <spdlog/fwd.h>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <vector>

namespace simtlm::mem {

struct DramConfig {
  // Fixed: every access holds its bank bank_busy_cycles (no row buffer); FrFcfs: channels,
  // banks and open rows (dram_scheduler.h), timed by the t_* fields below.
  enum class Scheduler { Fixed, FrFcfs };
  std::uint64_t size = std::uint64_t{4} << 30;  // bytes, addresses [0, size)
  sc_core::sc_time clock_period = sc_core::sc_time(1, sc_core::SC_NS);
  unsigned latency_cycles = 100;    // bank start to first data
  unsigned bytes_per_cycle = 32;    // data-bus bandwidth
  unsigned banks = 16;
  unsigned bank_busy_cycles = 20;   // a bank is occupied this long per access
  unsigned interleave_bytes = 256;  // consecutive chunks of this size go to consecutive banks
  unsigned bank_queue_depth = 8;    // accepted-but-not-started requests per bank
  unsigned accept_cycles = 1;       // BEGIN_REQ to END_REQ when the bank queue has room
  bool allow_dmi = true;
  Scheduler scheduler = Scheduler::Fixed;
  // FrFcfs only. `banks` is then per channel (a power of two); interleave_bytes is the channel
  // granule. Row timings are in cycles of dram_clock_period (GPGPU-Sim's -gpgpu_dram_timing_opt,
  // SM6_TITANX's values by default) and converted once to core cycles, rounded up.
  unsigned channels = 1;
  unsigned queue_depth = 64;        // requests queued per channel (-gpgpu_frfcfs_dram_sched_queue_size)
  sc_core::sc_time dram_clock_period = sc_core::sc_time(400, sc_core::SC_PS);  // 2500 MHz
  unsigned t_rcd = 16, t_rp = 16, t_ras = 37, t_cl = 16, t_wl = 6, t_ccd = 2;
  unsigned atom_bytes = 32;         // bytes per burst (bus width 4 B x burst length 8)
};

class DramTarget : public sc_core::sc_module {
 public:
  struct Stats {
    std::uint64_t reads = 0, writes = 0, errors = 0, bytes = 0;
    std::uint64_t atomics = 0;            // also counted in reads
    std::uint64_t bank_wait_cycles = 0;   // arrival to bank start, summed
    std::uint64_t bus_wait_cycles = 0;    // data ready to bus slot, summed
    std::uint64_t queue_full_stalls = 0;  // END_REQ delayed by a full bank (channel) queue
    std::uint64_t row_hits = 0;           // FrFcfs: accesses to the open row
    std::uint64_t row_misses = 0;         // FrFcfs: accesses that activated a row
    std::uint64_t row_conflicts = 0;      // FrFcfs: ... after precharging another open row
  };

  tlm_utils::simple_target_socket<DramTarget> from_bus;

  SC_HAS_PROCESS(DramTarget);
  DramTarget(sc_core::sc_module_name name, const DramConfig& config);
  explicit DramTarget(sc_core::sc_module_name name) : DramTarget(name, DramConfig{}) {}

  SparseMemory& store() { return store_; }
  const DramConfig& config() const { return config_; }
  const Stats& stats() const { return stats_; }
  unsigned bank_of(std::uint64_t address) const {
    return static_cast<unsigned>((address / config_.interleave_bytes) % config_.banks);
  }

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& gp);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);

  // A read, write or atomic on the store; sets and returns the response status.
  tlm::tlm_response_status perform(tlm::tlm_generic_payload& gp);
  void incoming(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase);  // BEGIN_REQ, END_RESP
  void internal(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase);  // END_REQ, response ready
  void begin_request(tlm::tlm_generic_payload& gp);
  void send_response();
  std::uint64_t now_cycle() const;
  sc_core::sc_time until(std::uint64_t cycle) const;
  std::uint64_t transfer_cycles(unsigned length) const;
  std::uint64_t reserve_bus(std::uint64_t ready, std::uint64_t length);
  void logError(const tlm::tlm_generic_payload& gp) const;
  void queue(tlm::tlm_generic_payload& gp);  // FrFcfs: into its channel queue
  void schedule_method();                    // FrFcfs: starts what the banks allow now

  DramConfig config_;
  SparseMemory store_;
  TimedPeq<DramTarget> in_peq_, internal_peq_;
  tlm::tlm_generic_payload* request_open_ = nullptr;   // awaiting our END_REQ
  tlm::tlm_generic_payload* response_open_ = nullptr;  // awaiting the initiator's END_RESP
  std::deque<tlm::tlm_generic_payload*> ready_;        // responses ready to be sent
  std::vector<std::uint64_t> bank_free_;               // first cycle each bank is free
  std::vector<std::deque<std::uint64_t>> bank_starts_; // start cycles of queued requests
  std::map<std::uint64_t, std::uint64_t> bus_;         // reserved data-bus slots [start, end)
  std::unique_ptr<FrFcfsDram> frfcfs_;                 // FrFcfs: the channels' timing
  tlm::tlm_generic_payload* held_ = nullptr;           // FrFcfs: waiting for queue room
  std::vector<FrFcfsDram::Started> started_;           // scratch
  sc_core::sc_event schedule_event_;
  Stats stats_;
  spdlog::logger& log_;
};

}  // namespace simtlm::mem
