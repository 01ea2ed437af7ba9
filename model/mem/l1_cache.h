// L1Cache: an SM's L1 data cache for global memory (GPGPU-Sim's Pascal L1 in spirit).
//
//   loads   tag lookup at accept. Hit: the line's words reach the requester hit_latency cycles
//           later. Miss: merged into an MSHR already fetching the line (up to mshr_merge
//           requests per entry), or a new MSHR whose line fill (l1.line bytes) leaves for memory
//           hit_latency cycles later; when the fill arrives, the line is installed (LRU victim)
//           and every merged request is answered at the next tick.
//   stores  write-through, no write-allocate: a hit updates the cached words; every store goes
//           to memory as one write over the span of its words with byte enables (later lanes
//           win); answered (no data) when memory acknowledges.
//   atomics performed at memory (AtomicExtension): the line is invalidated here; answered with
//           the old word of each op.
// A store or atomic marks MSHRs fetching its line stale: their fill still answers the loads
// merged before it (program order) but is not installed, and later loads allocate a new MSHR,
// so the cache never holds data older than this SM's own writes. Every memory request leaves
// at most one per cycle, in accept order, hit_latency cycles after accept (the L1 pipeline).
// canAccept() is false while every MSHR is in use (a stall). Deterministic; plain C++: memory is
// a Downstream (MemPortDownstream in the model, a fake in tests).
#pragma once

#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/mem/atomic_extension.h"
#include "model/mem/downstream.h"
#include "model/mem/fifo.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <unordered_map>
#include <vector>

namespace simtlm::mem {

struct L1Request {
  enum class Kind : std::uint8_t { Load, Store, Atomic };
  Kind kind = Kind::Load;
  std::uint64_t tag = 0;      // the requester's, returned in the response
  std::uint64_t address = 0;  // Load: any byte of the line; Store/Atomic: base of the offsets
  isa::Op op{};               // Atomic
  WordOps ops;                // Store (b = data) and Atomic, lane order
};

struct L1Response {
  std::uint64_t tag = 0;
  L1Request::Kind kind = L1Request::Kind::Load;
  std::uint64_t address = 0;            // Load: the line address; otherwise the request's
  const std::uint32_t* words = nullptr; // Load: the line (line/4 words); Atomic: old word per op
  unsigned count = 0;                   // words
  bool hit = false;
  bool ok = true;  // false: memory answered with an error
};

class L1Cache {
 public:
  using Respond = std::function<void(const L1Response&)>;

  // `cfg` from GpuConfig::l1 (banks unused). With cfg.enabled false nothing is cached or merged:
  // every load is its own line read. tick() calls `respond` with each answer, a hit's words read
  // from the cache's queue in place: `respond` must not accept().
  L1Cache(const config::GpuConfig::L1& cfg, Downstream& memory, Respond respond,
          stats::Group stats);

  // Unit contract. tick(c) runs cycle c: arrived memory responses, due hits, one request out.
  bool canAccept() const;                          // an MSHR is free: any request fits
  bool canAccept(const L1Request& request) const;  // exact: hits and merges fit even when full
  void accept(const L1Request& request, std::uint64_t cycle);
  bool tick(std::uint64_t cycle);
  bool idle() const;
  // Between kernels (the cache must be idle): invalidates every line, since the host may have
  // written memory behind the cache, and restarts the cache's clock at cycle 0.
  void reset();
  // A write that goes to memory past this cache (the L1 bypassed, or another cache of the SM):
  // drops the line holding `address` and keeps fills in flight for it from being installed.
  void invalidateLine(std::uint64_t address);

  // For clock gating: the first cycle at which tick() has work (max() while only waiting for
  // memory), and a hook called when a memory response arrives.
  std::uint64_t nextEventCycle() const;
  void setWakeup(std::function<void()> wakeup) { wakeup_ = std::move(wakeup); }

  unsigned mshrsInUse() const { return static_cast<unsigned>(cfg_.mshrs) - unsigned(free_.size()); }
  unsigned outstandingWrites() const { return outstanding_; }  // stores and atomics in flight
  bool contains(std::uint64_t address) const { return find(lineOf(address)) >= 0; }

 private:
  struct Way {
    static constexpr std::uint64_t kNoLine = ~std::uint64_t{0};  // invalid (lines are aligned)
    std::uint64_t line = kNoLine, lru = 0;  // a valid way is found by one compare
  };
  struct Mshr {
    std::uint64_t line = 0;
    bool stale = false;
    std::vector<std::uint64_t> waiters;  // tags, merge order
  };
  struct Hit {
    std::uint64_t ready, tag, line;
    std::vector<std::uint32_t> words;
  };
  struct Outgoing {
    std::uint64_t release;
    L1Request request;
    unsigned mshr;  // loads
  };
  struct Arrival {
    L1Request::Kind kind;
    unsigned mshr;
    std::uint64_t tag, address;
    unsigned count;
    bool ok;
    std::vector<unsigned char> data;
  };

  std::uint64_t lineOf(std::uint64_t a) const { return a & ~std::uint64_t(cfg_.line - 1); }
  int find(std::uint64_t line) const;  // way index or -1
  void install(std::uint64_t line, const std::uint32_t* words);
  void writeLines(const L1Request& r, bool invalidate);  // store update / atomic invalidate
  void send(const Outgoing& o);
  void arrive(Arrival a);
  void stall() const;

  config::GpuConfig::L1 cfg_;
  Downstream& memory_;
  Respond respond_;
  std::function<void()> wakeup_;
  unsigned sets_, words_;
  std::vector<Way> ways_;               // sets_ * assoc
  // The way of each valid line: a lookup instead of a walk over a set's ways (96 in pascal.ini).
  std::unordered_map<std::uint64_t, int> wayOf_;
  std::vector<std::uint32_t> data_;     // ways_.size() * words_
  std::vector<Mshr> mshrs_;
  std::vector<unsigned> free_;          // free MSHRs (a stack)
  std::unordered_multimap<std::uint64_t, unsigned> open_;  // line -> non-stale MSHRs
  Fifo<Hit> hits_;  // (a slot's words keep their capacity: no allocation per hit)
  std::deque<Outgoing> outgoing_;
  std::deque<Arrival> arrivals_;
  unsigned outstanding_ = 0;
  std::uint64_t now_ = 0, clock_ = 0, last_send_ = std::numeric_limits<std::uint64_t>::max();
  mutable std::uint64_t last_stall_ = std::numeric_limits<std::uint64_t>::max();
  stats::Counter accesses_, loads_, hits_n_, misses_, merges_, stores_, atomics_, transactions_;
  mutable stats::Counter stalls_;
};

}  // namespace simtlm::mem
