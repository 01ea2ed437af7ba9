// SlotPool<T>: records addressed by a small index (a slot) that a callback can carry instead of a
// pointer or a key, reused through a free list (last freed, first reused), so that nothing is
// allocated per use once warm. A reused slot keeps what its last user left in it: the caller sets
// what it needs. With Storage = std::deque a record stays in place while others are added.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simtlm::common {

template <class T, class Storage = std::vector<T>>
class SlotPool {
 public:
  std::uint32_t acquire() {
    live_++;
    if (free_.empty()) {
      records_.emplace_back();
      return static_cast<std::uint32_t>(records_.size() - 1);
    }
    const std::uint32_t slot = free_.back();
    free_.pop_back();
    return slot;
  }
  void release(std::uint32_t slot) {
    free_.push_back(slot);
    live_--;
  }
  T& operator[](std::uint32_t slot) { return records_[slot]; }
  const T& operator[](std::uint32_t slot) const { return records_[slot]; }
  std::size_t live() const { return live_; }               // acquired and not released
  std::uint32_t slots() const { return static_cast<std::uint32_t>(records_.size()); }  // ever made
  void clear() {
    records_.clear();
    free_.clear();
    live_ = 0;
  }

 private:
  Storage records_;
  std::vector<std::uint32_t> free_;
  std::size_t live_ = 0;
};

}  // namespace simtlm::common
