// L2Cache: the optional shared L2 of the default memory-side IP, placed between the interconnect
// and DRAM. Upstream (`from_bus`) it is a TLM-2.0 base-protocol target: approximately-timed on
// nb_transport_fw (peq; END_REQ, then BEGIN_RESP, each response waiting for the previous
// END_RESP, like DramTarget), loosely-timed on b_transport, transport_dbg forwarded, DMI refused.
// Downstream (`to_memory`) it reaches memory through a MemPort (child `port`), so it accepts every
// legal target behaviour, in AT or LT mode (`L2Config::downstream_mode`).
//
// One L2Cache is the whole L2 or one slice of an address-interleaved L2 (slice_* fields, set
// index from the slice-local line number; gpu::Platform builds dram.channels x
// l2.sub_partitions of them). With request_queue > 0 END_REQ is given at once while the queue
// has room and the cache looks up one queued request per cycle: `a` below is then that lookup
// cycle. The rules below are those of WriteThroughNoAllocate; WriteBackAllocate's are in
// l2_cache_wb.cpp (there an atomic within one line is performed in the cache).
// Every request is looked up and acts on the cache at its arrival cycle `a` (the first clock
// edge at or after BEGIN_REQ, or the b_transport call once synchronised), in arrival order:
//   read, within one line, no byte enables:
//       hit:  the data is copied at `a`, the response is sent at a + hit_latency;
//       miss: merged into the MSHR already fetching the line, or a new MSHR whose line read
//             leaves for memory at a + hit_latency; on the fill the line is installed (invalid
//             way first, else LRU) and every merged request is answered (miss latency =
//             hit_latency + the memory's line-read time). No MSHR free: END_REQ is withheld
//             (b_transport waits) until one frees, and the request is then handled anew.
//   read with byte enables, or crossing a line: passed to memory (uncached, "bypass").
//   write:  write-through, no write-allocate: a cached line is updated (byte enables honoured),
//           the write leaves for memory at a + hit_latency with its byte enables, and is answered
//           when memory acknowledges (an error invalidates the touched lines).
//   atomic (AtomicExtension): the touched lines are invalidated, the atomic is performed at
//           memory (it leaves at a + hit_latency); the answer carries memory's old words.
// Write-through keeps memory up to date at all times, so another initiator reading memory
// directly sees every write once acknowledged, and nothing needs to be written back.
// A write, atomic or debug write marks MSHRs fetching its line stale: the fill still answers the
// reads merged before it (they arrived earlier) but is not installed, and later reads take a
// fresh MSHR. All memory traffic leaves hit_latency cycles after arrival in arrival order, so
// memory sees the requests in the order the L2 did.
// Local errors, answered at a + 1: TLM_IGNORE_COMMAND or a malformed atomic
// (TLM_COMMAND_ERROR_RESPONSE), length 0 (TLM_GENERIC_ERROR_RESPONSE), streaming width shorter
// than the data (TLM_BURST_ERROR_RESPONSE: not supported), byte-enable pointer with length 0
// (TLM_BYTE_ENABLE_ERROR_RESPONSE). Memory's error statuses reach the requester unchanged.
// Deterministic. Logger "gpu.mem.l2" (model/common/log.h): each read miss at trace.
#pragma once

#include "model/common/stats.h"
#include "model/mem/mem_port.h"

#include <systemc>
#include <tlm>
#include "model/mem/timed_peq.h"
#include <tlm_utils/simple_target_socket.h>

#include <spdlog/fwd.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace simtlm::mem {

struct L2Config {
  // WriteThroughNoAllocate: as the file comment says. WriteBackAllocate (l2_cache_wb.cpp, as
  // GPGPU-Sim's dl2 "L:B:m:L": write-back, allocate on miss, lazy fetch on read): see there.
  enum class WritePolicy { WriteThroughNoAllocate, WriteBackAllocate };

  std::uint64_t size = 2816 * 1024;  // bytes; a multiple of line * assoc   (params: l2.size)
  unsigned line = 128;               // bytes; a power of two in [8, 4096]  (params: l2.line)
  unsigned assoc = 16;               // ways, [1, 1024]                      (params: l2.assoc)
  unsigned hit_latency = 120;        // cycles, [0, 100000]                  (params: l2.latency)
  sc_core::sc_time clock_period = sc_core::sc_time(1, sc_core::SC_NS);  // > 0
  unsigned mshrs = 64;               // lines in flight, [1, 65536]
  unsigned mshr_merge = 0;           // requests one MSHR holds, [1, 65536]; 0: no limit
  // Requests accepted but not yet looked up, [0, 4096]. 0: END_REQ follows each request one
  // cycle after it is looked up (at most one per cycle). N > 0: END_REQ at once while fewer than
  // N wait; the cache looks up one waiting request per cycle, in arrival order.
  unsigned request_queue = 0;
  // Requests handed to the memory port but not yet sent (waiting for memory to accept them),
  // [0, 4096]; 0: no bound. At N, as GPGPU-Sim's memory sub-partition when its L2-to-DRAM queue
  // is full, the slice looks nothing up until memory takes one: a stream of stores evicting
  // dirty lines then runs no faster than memory accepts the write-backs.
  unsigned dram_queue = 0;
  // A slice of an address-interleaved L2: the set index is taken from the slice-local line
  // number ((a / interleave / channels) * (interleave / line / sub_partitions) +
  // (a % interleave) / line / sub_partitions), so that every set is used although the slice
  // sees only every (channels x sub_partitions)-th line. 1, 1, line: an unsliced cache.
  unsigned slice_channels = 1, slice_sub_partitions = 1, slice_interleave = 0;  // 0: line
  WritePolicy write_policy = WritePolicy::WriteThroughNoAllocate;
  MemPort::Mode downstream_mode = MemPort::Mode::ApproximatelyTimed;

  // Throws std::invalid_argument naming the first bad field and its allowed range.
  void validate() const;
};

class L2Cache : public sc_core::sc_module {
 public:
  struct Stats {
    std::uint64_t reads = 0;       // read requests (hits + misses + bypasses)
    std::uint64_t writes = 0, atomics = 0;
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;      // including merged
    std::uint64_t merged = 0;      // misses served by an MSHR already in flight
    std::uint64_t bypasses = 0;    // reads with byte enables or crossing a line (uncached)
    std::uint64_t evictions = 0;   // valid lines replaced by a fill
    std::uint64_t mshr_stalls = 0; // requests that waited for a free MSHR (or merge slot)
    std::uint64_t queue_full = 0;  // requests whose END_REQ waited for room in the queue
    std::uint64_t dram_queue_stalls = 0;  // lookups delayed by a full queue towards memory
    std::uint64_t write_hits = 0;    // write-back: writes to a line held (or being filled)
    std::uint64_t write_misses = 0;  // write-back: writes that allocated a line (no fetch)
    std::uint64_t writebacks = 0;    // write-back: dirty lines written to memory
    std::uint64_t partial_fills = 0; // write-back: fills merged under bytes written before
    std::uint64_t errors = 0;      // responses with a status other than TLM_OK_RESPONSE
    std::uint64_t bytes_from_memory = 0, bytes_to_memory = 0;
  };

  tlm_utils::simple_target_socket<L2Cache> from_bus;
  tlm::tlm_initiator_socket<> to_memory;

  SC_HAS_PROCESS(L2Cache);
  L2Cache(sc_core::sc_module_name name, const L2Config& config);  // validates config
  explicit L2Cache(sc_core::sc_module_name name) : L2Cache(name, L2Config{}) {}

  // Registers the statistics in `group` (the GPU platform passes the "l2" group). Once.
  void registerStats(stats::Group group);
  const Stats& stats() const { return stats_; }
  // Every count is also added to *totals (the platform's l2.* over all slices); null: none.
  void shareTotals(Stats* totals) { totals_ = totals; }
  const L2Config& config() const { return config_; }
  bool contains(std::uint64_t address) const { return find(lineOf(address)) >= 0; }
  unsigned mshrsInUse() const { return config_.mshrs - static_cast<unsigned>(free_.size()); }

 private:
  using gp_t = tlm::tlm_generic_payload;
  struct Job {
    gp_t* gp = nullptr;
    sc_core::sc_event* done = nullptr;  // b_transport: notified at completion; AT: null
    bool stalled = false;               // already counted in mshr_stalls
    bool queue_stalled = false;         // already counted in dram_queue_stalls
  };
  struct Outcome {
    enum Kind { Blocked, Respond, Pending } kind;
    std::uint64_t at = 0;  // Respond: the cycle of the response
  };
  struct Victim {  // a dirty line's bytes on their way to memory
    std::uint64_t line;
    std::vector<unsigned char> data, enable;  // enable empty: the whole line
    bool superseded = false;  // a later write or atomic to the line left for memory after it
  };
  struct Outgoing {
    enum Kind { Fill, Bypass, Write, Atomic, WriteBack } kind;
    std::uint64_t release;  // cycle it leaves for memory
    Job job;                // not Fill
    unsigned mshr = 0;      // Fill
    std::shared_ptr<Victim> victim = nullptr;  // WriteBack
  };
  struct Way {
    std::uint64_t line = 0, lru = 0;
    bool valid = false;
    bool pending = false;  // write-back: an MSHR is filling this way (it is not replaced)
    bool dirty = false;    // write-back: some byte differs from memory
  };
  struct Mshr {
    std::uint64_t line = 0;
    bool stale = false;
    int way = -1;              // write-back: the way reserved for the line
    std::vector<Job> waiters;  // merge order (write-back: reads and writes)
  };

  tlm::tlm_sync_enum nb_transport_fw(gp_t& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void b_transport(gp_t& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(gp_t& gp);
  bool get_direct_mem_ptr(gp_t& gp, tlm::tlm_dmi& dmi);

  Outcome handle(Job& job);  // the lookup and cache actions at the current cycle
  // Write-back (l2_cache_wb.cpp).
  Outcome handleWb(Job& job, std::uint64_t a, std::uint64_t release);
  void fillWb(unsigned mshr, const MemResult& r);
  bool wb() const { return config_.write_policy == L2Config::WritePolicy::WriteBackAllocate; }
  std::uint64_t* validBits(int way) { return &masks_[std::size_t(way) * 2 * words_]; }
  std::uint64_t* dirtyBits(int way) { return validBits(way) + words_; }
  int victimWay(unsigned set) const;     // invalid first, else LRU not pending; -1: none
  void writeBack(int way, std::uint64_t release);  // its dirty bytes, then clean
  bool flushRange(std::uint64_t address, std::uint64_t length);  // false: a line is pending
  void applyWrite(int way, const gp_t& gp);
  bool atomicWordsValid(int way, const gp_t& gp);  // every op's word valid in the way
  void performAtomic(int way, gp_t& gp);  // in the cache, in op order; old words into gp's data
  void debugWb(gp_t& gp);                // after the memory's transport_dbg
  tlm::tlm_response_status check(const gp_t& gp) const;  // local errors
  void enqueue(const Outgoing& o);                       // to memory at o.release
  void incoming(gp_t& gp, const tlm::tlm_phase& phase);  // BEGIN_REQ, END_RESP (in_peq_)
  void hit_ready(gp_t& gp, const tlm::tlm_phase& phase); // BEGIN_RESP due (resp_peq_)
  void accepted(gp_t& gp, const Outcome& o);  // request handled: END_REQ next cycle, a local
                                              // response (hit or error) when due
  void end_req_method();
  void retry_method();   // the AT request blocked on MSHRs, when one frees
  void drain_method();   // request_queue > 0: looks up the oldest waiting request
  void end_req_now(gp_t& gp);
  void issue_method();   // releases outgoing memory requests
  void issue(const Outgoing& o);
  void fill(unsigned mshr, const MemResult& r);
  void complete(const Job& job);
  void send_response();

  std::uint64_t lineOf(std::uint64_t a) const { return a & ~std::uint64_t(config_.line - 1); }
  unsigned setOf(std::uint64_t line) const;
  int find(std::uint64_t line) const;  // way index or -1
  void invalidateRange(std::uint64_t address, std::uint64_t length);
  void invalidateLine(std::uint64_t line);
  void writeLines(const gp_t& gp);
  std::uint64_t now_cycle() const;
  sc_core::sc_time until(std::uint64_t cycle) const;

  L2Config config_;
  MemPort port_;
  unsigned sets_;
  std::vector<Way> ways_;             // sets_ * assoc
  std::vector<unsigned char> data_;   // ways_.size() * line
  unsigned words_ = 1;                // 64-bit words per byte mask
  std::vector<std::uint64_t> masks_;  // write-back: per way, valid bytes then dirty bytes
  std::vector<Mshr> mshrs_;
  std::vector<unsigned> free_;        // free MSHRs (a stack)
  std::unordered_map<std::uint64_t, unsigned> open_;  // line -> its non-stale MSHR
  std::deque<Outgoing> outgoing_;
  // Write-backs memory has not acknowledged, oldest first: debug reads see their bytes (memory
  // may not have them yet), debug writes update them (so they do not bring old bytes back).
  std::deque<std::shared_ptr<Victim>> unacked_;
  std::uint64_t clock_ = 0;           // LRU stamps

  TimedPeq<L2Cache> in_peq_, resp_peq_;
  sc_core::sc_event end_req_event_, mshr_freed_, issue_event_;
  gp_t* request_open_ = nullptr;       // awaiting our END_REQ
  std::uint64_t end_req_at_ = 0;       // its END_REQ cycle
  std::optional<Job> blocked_;         // the open request, waiting for an MSHR
  std::deque<Job> queue_;              // request_queue > 0: accepted, not yet looked up
  std::uint64_t next_drain_ = 0;       // the first cycle the next lookup may happen
  sc_core::sc_event drain_event_;
  gp_t* response_open_ = nullptr;      // awaiting the initiator's END_RESP
  std::deque<gp_t*> ready_;            // responses ready to be sent
  void bump(std::uint64_t Stats::*field, std::uint64_t n = 1) {
    stats_.*field += n;
    if (totals_) totals_->*field += n;
  }
  Stats stats_;
  Stats* totals_ = nullptr;
  spdlog::logger& log_;
};

}  // namespace simtlm::mem
