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
};

class IBuffer {
 public:
  IBuffer() = default;
  explicit IBuffer(int capacity) : capacity_(capacity) {}
  bool full() const { return static_cast<int>(entries_.size()) >= capacity_; }
  bool empty() const { return entries_.empty(); }
  int size() const { return static_cast<int>(entries_.size()); }
  void push(const IBufferEntry& e) { entries_.push_back(e); }
  const IBufferEntry& front() const { return entries_.front(); }
  void pop() { entries_.pop_front(); }
  void flush() { entries_.clear(); }

 private:
  int capacity_ = 2;
  std::deque<IBufferEntry> entries_;
};

}  // namespace simtlm::sm
