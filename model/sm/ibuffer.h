// The per-warp instruction buffer between fetch/decode and issue (DARSIE Sec. 3: two entries
// per warp). Entries carry their PC so that issue can tell a stale entry (fetched down a path
// the warp did not take) and flush it.
#pragma once

#include <cstdint>
#include <deque>

#include "isa/liveness.h"

namespace simtlm::sm {

struct IBufferEntry {
  uint32_t pc;
  isa::Instr instr;
  isa::RegSet touched{}, written{};  // registers read or written / written, known at decode
  // DARSIE (model/sm/sm_darsie.cpp): the skip-table entry this instruction leads, or that this
  // entry skips (a skip takes no issue slot and no buffer room: it only keeps program order).
  int16_t darsieEntry = -1;
  bool skip = false;
};

class IBuffer {
 public:
  IBuffer() = default;
  explicit IBuffer(int capacity) : capacity_(capacity) {}
  bool full() const { return size() >= capacity_; }
  bool empty() const { return entries_.empty(); }
  int size() const { return static_cast<int>(entries_.size()) - skips_; }  // instructions
  int skips() const { return skips_; }
  void push(const IBufferEntry& e) {
    skips_ += e.skip;
    entries_.push_back(e);
  }
  const IBufferEntry& front() const { return entries_.front(); }
  const std::deque<IBufferEntry>& entries() const { return entries_; }
  IBufferEntry& front() { return entries_.front(); }
  void pop() {
    skips_ -= entries_.front().skip;
    entries_.pop_front();
  }
  // A skip at the front becomes an instruction to issue (its skip-table entry was cleared).
  void unskipFront() {
    if (entries_.front().skip) skips_--;
    entries_.front().skip = false;
  }
  void flush() {
    entries_.clear();
    skips_ = 0;
  }

 private:
  int capacity_ = 2;
  int skips_ = 0;
  std::deque<IBufferEntry> entries_;
};

}  // namespace simtlm::sm
