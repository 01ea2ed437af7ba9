// The per-warp instruction buffer between fetch/decode and issue (two entries per warp by
// default, as in GPGPU-Sim). Entries carry their PC so that issue can tell a stale entry (fetched down a path
// the warp did not take) and flush it.
#pragma once

#include <cstdint>
#include <vector>

#include "isa/liveness.h"

namespace simtlm::sm {

struct IBufferEntry {
  uint32_t pc;
  isa::Instr instr;
  isa::RegSet touched{}, written{};  // registers read or written / written, known at decode
  // A mechanism's mark (sm_mechanism.h), for example the table entry this instruction leads or
  // skips; -1 for none. A skip is an instruction a mechanism delivered without fetching it: it
  // takes no issue slot and no buffer room, keeps program order, and the mechanism retires it.
  int16_t tag = -1;
  bool skip = false;
};

// A ring of entries (the SM looks at every warp's front each cycle; a deque's indirections cost
// more than the buffer itself). Skips take no room, so the ring grows when they pile up.
class IBuffer {
 public:
  IBuffer() : IBuffer(2) {}
  explicit IBuffer(int capacity) : capacity_(capacity), ring_(roundUp(capacity)) {}
  bool full() const { return size() >= capacity_; }
  bool empty() const { return count_ == 0; }
  int size() const { return count_ - skips_; }  // instructions
  int skips() const { return skips_; }
  void push(const IBufferEntry& e) {
    if (count_ == static_cast<int>(ring_.size())) grow();
    skips_ += e.skip;
    ring_[(head_ + count_) & mask()] = e;
    ++count_;
  }
  const IBufferEntry& front() const { return ring_[head_]; }
  IBufferEntry& front() { return ring_[head_]; }
  // Every entry, front first (entry(0) == front()).
  int count() const { return count_; }
  const IBufferEntry& entry(int i) const { return ring_[(head_ + i) & mask()]; }
  void pop() {
    skips_ -= ring_[head_].skip;
    head_ = (head_ + 1) & mask();
    --count_;
  }
  // A skip at the front becomes an instruction to issue (the mechanism could not retire it).
  void unskipFront() {
    if (front().skip) skips_--;
    front().skip = false;
  }
  void flush() {
    head_ = 0;
    count_ = skips_ = 0;
  }

 private:
  static size_t roundUp(int n) {
    size_t r = 1;
    while (r < static_cast<size_t>(n)) r <<= 1;
    return r;
  }
  int mask() const { return static_cast<int>(ring_.size()) - 1; }
  void grow() {
    std::vector<IBufferEntry> bigger(ring_.size() * 2);
    for (int i = 0; i < count_; ++i) bigger[static_cast<size_t>(i)] = entry(i);
    ring_.swap(bigger);
    head_ = 0;
  }

  int capacity_ = 2;
  int head_ = 0, count_ = 0, skips_ = 0;
  std::vector<IBufferEntry> ring_;
};

}  // namespace simtlm::sm
