// ICache: an SM's instruction cache (DESIGN.md Sec. 3, front end), plain C++ with the units'
// small contract (canAccept / access / tick / idle), ticked once per core cycle.
//
//   geometry  frontend.icache_size bytes, frontend.icache_line-byte lines, icache_assoc ways,
//             LRU replacement. Only tags are kept: the fetch stage takes the instruction words
//             decoded at launch (sm::KernelImage); the fill is the timing and the proof that
//             the code is reachable in simulated memory (docs/timing-model.md, "Front end").
//   access    a tag lookup. Hit: the caller has its instructions icache_hit_latency cycles
//             later (the caller applies the latency; no callback). Miss: a second miss to a
//             line whose fill is in flight merges into its MSHR; otherwise one of icache_mshrs
//             MSHRs is allocated and the fill (a read of the whole line) leaves for the
//             mem::Downstream at once.
//   fill      when the read completes (a Downstream callback, later), it is queued; the next
//             tick(c) installs the line (LRU victim) and answers every waiting access, in merge
//             order, through the Respond hook: the caller's instructions are then available
//             icache_hit_latency cycles after c. An error response installs nothing and
//             answers every waiter with ok = false (the SM makes it a kernel fault). A memory
//             that answers inside read() without error (zero latency) fills the line at once:
//             access() returns Filled and the miss costs nothing more than a hit.
//   stalls    canAccept(address) is false when the access would miss, no fill for its line is
//             in flight and every MSHR is in use; each refusal counts one mshr_full_stall.
// invalidate() (at kernel launch: the host may have placed new code) drops every line; fills
// in flight then are neither installed nor answered. Deterministic.
//
// Statistics (under the group given, `sm<N>.icache`): accesses, hits, misses, merged, fills,
// fill_errors, mshr_full_stalls, and hit_rate.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/mem/downstream.h"

namespace simtlm::frontend {

class ICache {
 public:
  // Filled: a miss whose fill the memory answered inside read() (an ideal memory of zero
  // latency): the line is installed at once and, as for a hit, the requester has its
  // instructions icache_hit_latency cycles later; nothing is answered through Respond.
  enum class Outcome : std::uint8_t { Hit, Miss, Merged, Filled };
  // A fill answered an access that missed: the tag and byte address given to access(), whether
  // memory answered without error, and the cycle of the tick() that installed the line.
  using Respond =
      std::function<void(std::uint64_t tag, std::uint64_t address, bool ok, std::uint64_t cycle)>;
  static constexpr unsigned kNoWay = ~0u;

  // `cfg` from GpuConfig::frontend (the icache_* fields). Throws std::invalid_argument on a
  // geometry checkConfig would refuse.
  ICache(const config::GpuConfig::Frontend& cfg, mem::Downstream& memory, stats::Group stats);

  void setRespond(Respond respond) { respond_ = std::move(respond); }

  // Whether access(address) can be taken now: a hit, a merge, or a free MSHR. A refusal counts
  // one mshr_full_stall.
  bool canAccept(std::uint64_t address) const;
  // One fetch access at `address` (any byte of the line). `wayHint` (may be null) remembers the
  // way of the requester's last hit: when it still holds the line, no set search is needed.
  Outcome access(std::uint64_t address, std::uint64_t tag, std::uint64_t cycle,
                 unsigned* wayHint = nullptr);
  // Cycle `cycle`: installs the fills that arrived and answers their waiters. Returns whether
  // anything happened.
  bool tick(std::uint64_t cycle);
  bool idle() const { return free_.size() == mshrs_.size() && arrivals_.empty(); }

  void invalidate();

  std::uint64_t lineOf(std::uint64_t a) const { return a & ~std::uint64_t(cfg_.icache_line - 1); }
  bool contains(std::uint64_t address) const { return find(lineOf(address)) >= 0; }
  unsigned mshrsInUse() const { return unsigned(mshrs_.size() - free_.size()); }

 private:
  struct Way {
    std::uint64_t line = 0, lru = 0;
    bool valid = false;
  };
  struct Waiter {
    std::uint64_t tag, address;
  };
  struct Mshr {
    std::uint64_t line = 0;
    bool busy = false, stale = false;  // stale: invalidated while in flight
    std::vector<Waiter> waiters;       // merge order
  };
  struct Arrival {
    unsigned mshr;
    bool ok;
  };

  int find(std::uint64_t line) const;  // way index or -1
  int openMshr(std::uint64_t line) const;
  void install(std::uint64_t line);

  config::GpuConfig::Frontend cfg_;
  mem::Downstream& memory_;
  Respond respond_;
  unsigned sets_ = 0, assoc_ = 0, lineShift_ = 0;
  std::vector<Way> ways_;         // sets_ * assoc_
  std::vector<Mshr> mshrs_;
  std::vector<unsigned> free_;    // free MSHRs (a stack)
  std::deque<Arrival> arrivals_;  // completed fills, not yet installed
  std::uint64_t clock_ = 0;
  stats::Counter accesses_, hits_, misses_, merged_, fills_, fillErrors_;
  mutable stats::Counter mshrFullStalls_;
};

}  // namespace simtlm::frontend
