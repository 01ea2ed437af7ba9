// Coalescer: turns one warp memory instruction (per-lane byte addresses, active mask, access
// size) into the memory transactions it needs: one per aligned segment touched, in ascending
// address order, each with the lanes it serves, the byte span touched and the number of
// distinct access-sized units touched. Pure C++.
//
// As a unit it holds one instruction at a time and hands its transactions to the downstream
// unit (the L1 or the shared-memory path), at most `per_cycle` per cycle; the downstream may
// refuse (its canAccept() is false), which is counted as a stall cycle and retried next cycle.
#pragma once

#include "model/common/stats.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace simtlm::mem {

struct MemTransaction {
  std::uint64_t address = 0;  // segment-aligned
  std::uint32_t lanes = 0;    // bit l: lane l's access lies (at least partly) in this segment
  std::uint32_t begin = 0;    // first byte touched, as an offset in the segment
  std::uint32_t end = 0;      // one past the last byte touched
  std::uint32_t units = 0;    // distinct access-sized units touched (words, for size 4)
  bool last = false;          // the instruction's last transaction (set by the unit)
};

class Coalescer {
 public:
  struct Config {
    unsigned segment_bytes = 128;  // a power of two, at least the access size
    unsigned warp_size = 32;       // at most 32
    unsigned per_cycle = 1;        // transactions handed downstream per cycle
  };
  // Offered a transaction of the instruction tagged `tag`; returns whether it was taken.
  using Issue = std::function<bool(const MemTransaction&, std::uint64_t tag)>;

  Coalescer(const Config& config, Issue issue, stats::Group stats);

  // The transactions of one warp access (ascending address); `size` is a power of two no
  // larger than the segment. Accesses are expected size-aligned (the ISA faults misaligned
  // ones); one that crosses a segment boundary is served by both segments. Not counted.
  void coalesce(const std::uint64_t* address, std::uint32_t mask, unsigned size,
                std::vector<MemTransaction>& out) const;

  // The same transactions as coalesce() for lane l at address base + stride * l (mod 2^32),
  // computed from base and stride: one step per segment, no address compared (a strided access
  // whose addresses are known compactly). Accesses that wrap around 2^32 or are not size-aligned
  // take the lane-by-lane path on addresses computed from base and stride.
  void coalesceStrided(std::uint32_t base, std::uint32_t stride, std::uint32_t mask, unsigned size,
                       std::vector<MemTransaction>& out) const;

  // Unit contract. accept() coalesces (and counts) an instruction; tick() hands transactions
  // downstream. `address` holds warp_size entries (inactive lanes ignored). acceptStrided()
  // takes a strided access the same way (the same queue, in order with the others), counted
  // apart (compact_*): its transactions cost no address comparison.
  bool canAccept() const { return next_ == pending_.size(); }
  void accept(const std::uint64_t* address, std::uint32_t mask, unsigned size, std::uint64_t tag,
              std::uint64_t cycle);
  void acceptStrided(std::uint32_t base, std::uint32_t stride, std::uint32_t mask, unsigned size,
                     std::uint64_t tag, std::uint64_t cycle);
  bool tick(std::uint64_t cycle);
  bool idle() const { return canAccept(); }

  std::size_t remaining() const { return pending_.size() - next_; }
  const Config& config() const { return config_; }

 private:
  Config config_;
  Issue issue_;
  std::vector<MemTransaction> pending_;
  std::size_t next_ = 0;
  std::uint64_t tag_ = 0;
  std::uint64_t accepted_cycle_ = 0;
  void queue(std::uint64_t tag, std::uint64_t cycle);
  stats::Counter accesses_, transactions_, stalls_, compactAccesses_, compactTransactions_;
};

}  // namespace simtlm::mem
