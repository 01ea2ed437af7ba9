// PayloadMap<T>: a record per payload in flight, found by the payload's address, for a module
// that sees payloads from many initiators (the Interconnect): an open-addressing table (linear
// probing, backward-shift erase) over records in a common::SlotPool kept in a deque (a record
// never moves while its payload is in flight, whatever is inserted meanwhile). Once warm, nothing
// is allocated per transaction.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "model/common/slot_pool.h"

namespace simtlm::mem {

template <typename T>
class PayloadMap {
 public:
  PayloadMap() : table_(64) {}
  // `key` must be absent; the record is default-constructed.
  T& insert(const void* key) {
    if (2 * (records_.live() + 1) > table_.size()) grow();
    const std::uint32_t slot = records_.acquire();
    records_[slot] = T{};
    place(key, slot);
    return records_[slot];
  }
  T* find(const void* key) {
    for (std::size_t i = home(key);; i = (i + 1) & mask()) {
      if (table_[i].key == key) return &records_[table_[i].slot];
      if (!table_[i].key) return nullptr;
    }
  }
  bool contains(const void* key) { return find(key) != nullptr; }
  void erase(const void* key) {
    std::size_t i = home(key);
    for (;; i = (i + 1) & mask()) {
      if (table_[i].key == key) break;
      if (!table_[i].key) return;
    }
    records_.release(table_[i].slot);
    // Backward shift: entries after i that may not stay past the hole move into it.
    for (std::size_t j = (i + 1) & mask(); table_[j].key; j = (j + 1) & mask()) {
      const std::size_t k = home(table_[j].key);
      const bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
      if (stays) continue;
      table_[i] = table_[j];
      i = j;
    }
    table_[i] = Entry{};
  }
  std::size_t size() const { return records_.live(); }

 private:
  struct Entry {
    const void* key = nullptr;
    std::uint32_t slot = 0;
  };
  std::size_t mask() const { return table_.size() - 1; }
  std::size_t home(const void* key) const {
    const auto h = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(key)) * 0x9E3779B97F4A7C15ull;
    return static_cast<std::size_t>(h >> 32) & mask();
  }
  void place(const void* key, std::uint32_t slot) {
    std::size_t i = home(key);
    while (table_[i].key) i = (i + 1) & mask();
    table_[i] = Entry{key, slot};
  }
  void grow() {
    std::vector<Entry> old(table_.size() * 2);
    old.swap(table_);
    for (const Entry& e : old)
      if (e.key) place(e.key, e.slot);
  }

  std::vector<Entry> table_;  // a power of two long, at most half full
  common::SlotPool<T, std::deque<T>> records_;
};

}  // namespace simtlm::mem
