// DARSIE's register renaming of one thread block (Sec. 4.3.1): the rename table
// (warp, named register) -> version, the version table (register, version) -> physical
// register, and the freelist of the physical registers set aside for the block at launch. The
// physical registers hold real values: a follower's named register is mapped onto the leader's
// row, so what it reads is what the leader wrote (isa::WarpContext::mapReg).
//
// A version is released when nothing refers to it: no warp's rename entry and no skip-table
// entry (whose followers may still take it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simtlm::darsie {

class RenamePool {
 public:
  RenamePool(int physRegs, int lanes, int warps, int namedRegs);

  int size() const { return static_cast<int>(refs_.size()); }
  int freeCount() const { return static_cast<int>(free_.size()); }
  // A new version of named register `reg`: a free physical register with one reference (the
  // skip-table entry's). Returns -1 when the freelist is empty.
  int take(uint8_t reg);
  void addRef(int phys) { refs_[static_cast<size_t>(phys)]++; }
  // Drops a reference; the register returns to the freelist at zero. Returns true then.
  bool release(int phys);
  uint32_t* row(int phys) { return &values_[static_cast<size_t>(phys) * static_cast<size_t>(lanes_)]; }
  uint8_t regOf(int phys) const { return reg_[static_cast<size_t>(phys)]; }
  uint8_t versionOf(int phys) const { return version_[static_cast<size_t>(phys)]; }

  // The rename table: the physical register warp w's named register r reads, or -1 (its own).
  int mapped(int w, uint8_t r) const { return map_[idx(w, r)]; }
  // Points (w, r) at phys (taking a reference), dropping the reference of its old mapping.
  void map(int w, uint8_t r, int phys);
  // Clears (w, r); returns the physical register it was mapped to, or -1.
  int unmap(int w, uint8_t r);
  uint64_t mappedMask(int w) const;  // named registers of w with an entry

  uint64_t versionsCreated() const { return created_; }
  uint64_t versionsReleased() const { return released_; }

 private:
  size_t idx(int w, uint8_t r) const { return static_cast<size_t>(w) * named_ + r; }

  int lanes_;
  size_t named_;
  std::vector<uint32_t> values_;
  std::vector<int> refs_, free_;
  std::vector<uint8_t> reg_, version_;
  std::vector<uint8_t> nextVersion_;  // per named register: 5-bit version numbers (Sec. 6.3)
  std::vector<int16_t> map_;
  uint64_t created_ = 0, released_ = 0;
};

}  // namespace simtlm::darsie
