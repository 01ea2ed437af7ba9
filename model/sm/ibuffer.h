// The per-warp instruction buffer between fetch/decode and issue (two entries per warp by
// default, as in GPGPU-Sim). Entries carry their PC so that issue can tell a stale entry (fetched down a path
// the warp did not take) and flush it.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "isa/liveness.h"

namespace simtlm::sm {

struct IBufferEntry {
  uint32_t pc;
  isa::Instr instr;
  // A mechanism's mark (sm_mechanism.h), for example the table entry this instruction leads or
  // skips; -1 for none. A skip is an instruction a mechanism delivered without fetching it: it
  // takes no issue slot and no buffer room, keeps program order, and the mechanism retires it.
  int16_t tag = -1;
  bool skip = false;
  isa::RegSet touched{}, written{};  // registers read or written / written, known at decode
};

// A ring of entries (the SM looks at every warp's front each cycle; a deque's indirections cost
// more than the buffer itself). Skips take no room, so the ring grows when they pile up. The
// first kInline entries live inside the buffer, and so inside the warp's slot: the issue stage
// reads every candidate warp's front each cycle, and with 28 SMs a front on the heap is a
// host cache miss (a third of all of them on matmul before this).
class IBuffer {
 public:
  static constexpr int kInline = 2;
  IBuffer() : IBuffer(2) {}
  explicit IBuffer(int capacity) : capacity_(capacity), slots_(static_cast<int>(roundUp(capacity))) {
    if (slots_ > kInline) heap_.resize(static_cast<size_t>(slots_));
  }
  // (Copies and moves keep the entries: storage is chosen by slots_, never a stored pointer.)
  bool full() const { return size() >= capacity_; }
  bool empty() const { return count_ == 0; }
  int size() const { return count_ - skips_; }  // instructions
  int skips() const { return skips_; }
  void push(const IBufferEntry& e) {
    if (count_ == slots_) grow();
    skips_ += e.skip;
    data()[(head_ + count_) & mask()] = e;
    ++count_;
  }
  const IBufferEntry& front() const { return data()[head_]; }
  IBufferEntry& front() { return data()[head_]; }
  // Every entry, front first (entry(0) == front()).
  int count() const { return count_; }
  const IBufferEntry& entry(int i) const { return data()[(head_ + i) & mask()]; }
  void pop() {
    skips_ -= data()[head_].skip;
    head_ = (head_ + 1) & mask();
    --count_;
  }
  // A skip at the front becomes an instruction to issue (the mechanism could not retire it).
  void unskipFront() {
    if (front().skip) skips_--;
    front().skip = false;
  }
  // A fetched instruction becomes a skip with the mechanism's `tag` (the mechanism removes it
  // before issue); entry(i) as above.
  void skipEntry(int i, int16_t tag) {
    IBufferEntry& e = data()[(head_ + i) & mask()];
    skips_ += !e.skip;
    e.skip = true;
    e.tag = tag;
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
  IBufferEntry* data() { return slots_ <= kInline ? inline_.data() : heap_.data(); }
  const IBufferEntry* data() const { return slots_ <= kInline ? inline_.data() : heap_.data(); }
  int mask() const { return slots_ - 1; }
  void grow() {
    std::vector<IBufferEntry> bigger(static_cast<size_t>(slots_) * 2);
    for (int i = 0; i < count_; ++i) bigger[static_cast<size_t>(i)] = entry(i);
    heap_.swap(bigger);
    slots_ *= 2;
    head_ = 0;
  }

  int capacity_ = 2;
  int head_ = 0, count_ = 0, skips_ = 0;
  int slots_;  // a power of two: inline_ while at most kInline, heap_ beyond
  std::array<IBufferEntry, kInline> inline_{};
  std::vector<IBufferEntry> heap_;
};

}  // namespace simtlm::sm
