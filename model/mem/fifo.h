// A first-in first-out queue in one growable ring buffer. std::deque allocates and frees a
// block every few elements when they are large (512-byte blocks: two shared-memory answers),
// which a unit that queues an element per access pays on every access; the ring allocates
// only when it grows past its largest size so far. Popped elements are not destroyed, only
// overwritten when their slot is reused: meant for plain values.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace simtlm::mem {

template <class T>
class Fifo {
 public:
  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }
  T& front() { return slots_[head_]; }
  const T& front() const { return slots_[head_]; }
  T& back() { return slots_[index(count_ - 1)]; }
  // The i-th element from the front (i < size()).
  T& operator[](std::size_t i) { return slots_[index(i)]; }
  const T& operator[](std::size_t i) const { return slots_[index(i)]; }
  // Returns the element pushed; references to elements stay valid until the next push.
  T& push_back(const T& value) { return place() = value; }
  T& push_back(T&& value) { return place() = std::move(value); }
  // A new last element holding whatever its slot held (for a caller that fills in every field
  // it uses: no temporary to build and copy).
  T& push_back() { return place(); }
  void pop_front() {
    head_ = index(1);
    --count_;
  }
  void clear() { head_ = count_ = 0; }

 private:
  std::size_t index(std::size_t i) const {
    const std::size_t j = head_ + i;
    return j < slots_.size() ? j : j - slots_.size();
  }
  T& place() {  // the slot after the last element, which becomes the last element
    if (count_ == slots_.size()) grow();
    return slots_[index(count_++)];
  }
  void grow() {  // doubles the ring, the elements in order from slot 0
    std::vector<T> next(slots_.empty() ? 8 : 2 * slots_.size());
    for (std::size_t i = 0; i < count_; ++i) next[i] = std::move(slots_[index(i)]);
    slots_ = std::move(next);
    head_ = 0;
  }

  std::vector<T> slots_;
  std::size_t head_ = 0, count_ = 0;
};

}  // namespace simtlm::mem
