// Global memory for the functional interpreter: named allocations in a 32-bit address space.
// An access outside every allocation is a fault, so stray addresses are caught, not absorbed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simtlm::isa {

class GlobalMemory {
 public:
  struct Region {
    std::string name;
    uint32_t base = 0;
    std::vector<uint8_t> bytes;
    uint32_t size = 0;  // as allocated: a host driver may free `bytes` for a while (releaseWhileRunning)
    uint32_t end() const { return base + size; }
  };

  static constexpr uint32_t kFirstAddress = 0x10000000u;
  static constexpr uint32_t kAlignment = 256;

  // Reserves `bytes` (zero-filled) and returns the base address. Throws std::length_error
  // when the 32-bit space is exhausted.
  uint32_t allocate(const std::string& name, uint32_t bytes);

  // Region holding [addr, addr+size), or nullptr.
  const Region* find(uint32_t addr, uint32_t size) const;
  Region* find(uint32_t addr, uint32_t size);

  uint32_t read32(uint32_t addr) const;   // caller has checked with find()
  void write32(uint32_t addr, uint32_t value);

  const std::vector<Region>& regions() const { return regions_; }
  const Region& region(const std::string& name) const;
  // A region's bytes, to fill, release or rebuild in place (its name and base stay; a released,
  // empty region is not found by find() until it is rebuilt).
  std::vector<uint8_t>& bytes(size_t index) { return regions_[index].bytes; }
  std::vector<uint8_t>& bytes(const std::string& name) { return const_cast<Region&>(region(name)).bytes; }
  // Words of a region, for tests and verification.
  std::vector<uint32_t> words(const std::string& name) const;
  void setWords(const std::string& name, const std::vector<uint32_t>& words);
  bool operator==(const GlobalMemory& o) const;

 private:
  std::vector<Region> regions_;  // sorted by base
  uint32_t next_ = kFirstAddress;
  mutable size_t lastHit_ = 0;
};

}  // namespace simtlm::isa
