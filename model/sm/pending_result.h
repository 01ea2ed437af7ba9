// A result on its way to the write-back unit: due at cycle `at`, when its register-file write is
// requested. Two channels with the standard sc_fifo interfaces carry them (docs/timing-model.md):
//   execute -> writeback   ALU results and parameter loads, written when they dispatch; the
//                          write-back unit takes them in its next step (the next cycle);
//   answers -> writeback   shared-memory loads and atomics, written when the shared-memory unit
//                          answers; taken in the same cycle (write-back runs after answers).
// Write-back takes the first channel's before the second's, which keeps them in the order they
// were made. Under sm.scheduling=systemc they are sc_fifo channels of the SM's module. Under the
// sequential scheduling (SmCore::tick) the results skip them: they go straight into write-back's
// ResultWheel for the cycle write-back would have taken them, in the same order (the channels,
// pipeline registers then, stay empty).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <vector>

#include <systemc>

#include "isa/instruction.h"
#include "model/regfile/types.h"

namespace simtlm::sm {

struct PendingResult {
  uint64_t at = 0;
  int slot = -1;  // warp slot
  isa::Instr instr{};
  std::optional<regfile::PhysReg> dest;  // its register-file write (OperandStage::dest)
};

std::ostream& operator<<(std::ostream& os, const PendingResult& r);

// How deep each channel must be: results one step may write (every execution unit instance
// dispatches at most one instruction per cycle; the shared-memory unit answers a few at most).
constexpr int kMaxResultsPerStep = 64;

// Both ends of a channel of PendingResults.
struct ResultChannel {
  sc_core::sc_fifo_in_if<PendingResult>* in = nullptr;
  sc_core::sc_fifo_out_if<PendingResult>* out = nullptr;
};

// Write-back's results by the cycle they are written back in (their due cycle, or the cycle
// write-back takes them if that is later): a ring of buckets, one per cycle from the next cycle
// not yet taken on, each in the order the results were added (the order write-back took them
// from its channels, which it processes in). Every result held is due within the ring's span;
// add() widens the ring for one that is not.
class ResultWheel {
 public:
  ResultWheel() : buckets_(64) {}
  bool empty() const { return count_ == 0; }
  // A result for cycle `when`, added when no cycle before `now` (<= when) is to be taken any more.
  void add(const PendingResult& r, uint64_t when, uint64_t now) {
    if (count_ == 0) next_ = now;  // (the ring may have been left long ago)
    if (when - next_ >= buckets_.size()) widen(when);
    buckets_[when & (buckets_.size() - 1)].push_back(r);
    ++count_;
  }
  // The earliest cycle a result is held for (~0: none).
  uint64_t earliest() const {
    if (count_ == 0) return ~uint64_t{0};
    for (uint64_t c = next_;; ++c)
      if (!buckets_[c & (buckets_.size() - 1)].empty()) return c;
  }
  // take(cycle, f) calls f(result) for every result held for `cycle` or earlier, in cycle order,
  // each cycle's in the order added; the cycles up to `cycle` are taken then.
  template <class F>
  void take(uint64_t cycle, F&& f) {
    for (; next_ <= cycle && count_ > 0; ++next_) {
      std::vector<PendingResult>& b = buckets_[next_ & (buckets_.size() - 1)];
      for (size_t i = 0; i < b.size(); ++i) f(b[i]);
      count_ -= b.size();
      b.clear();
    }
    if (next_ <= cycle) next_ = cycle + 1;
  }

 private:
  void widen(uint64_t when) {
    size_t n = buckets_.size();
    while (when - next_ >= n) n *= 2;
    std::vector<std::vector<PendingResult>> wider(n);
    for (uint64_t c = next_; c < next_ + buckets_.size(); ++c)
      wider[c & (n - 1)].swap(buckets_[c & (buckets_.size() - 1)]);
    buckets_.swap(wider);
  }
  std::vector<std::vector<PendingResult>> buckets_;  // a power of two of them
  uint64_t next_ = 0;  // the next cycle take() has not passed
  size_t count_ = 0;
};

}  // namespace simtlm::sm
