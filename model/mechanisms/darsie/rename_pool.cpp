#include "model/mechanisms/darsie/rename_pool.h"

#include <stdexcept>

namespace simtlm::darsie {

RenamePool::RenamePool(int physRegs, int lanes, int warps, int namedRegs)
    : lanes_(lanes), named_(static_cast<size_t>(namedRegs)),
      values_(static_cast<size_t>(physRegs) * static_cast<size_t>(lanes), 0),
      refs_(static_cast<size_t>(physRegs), 0), reg_(static_cast<size_t>(physRegs), 0),
      version_(static_cast<size_t>(physRegs), 0), nextVersion_(static_cast<size_t>(namedRegs), 0),
      map_(static_cast<size_t>(warps) * static_cast<size_t>(namedRegs), -1) {
  for (int p = physRegs - 1; p >= 0; --p) free_.push_back(p);  // lowest number first
}

int RenamePool::take(uint8_t reg) {
  if (free_.empty()) return -1;
  const int p = free_.back();
  free_.pop_back();
  refs_[static_cast<size_t>(p)] = 1;
  reg_[static_cast<size_t>(p)] = reg;
  version_[static_cast<size_t>(p)] = nextVersion_[reg];
  nextVersion_[reg] = static_cast<uint8_t>((nextVersion_[reg] + 1) & 31);
  created_++;
  return p;
}

bool RenamePool::release(int phys) {
  int& r = refs_.at(static_cast<size_t>(phys));
  if (r <= 0) throw std::logic_error("RenamePool: release of a free register");
  if (--r > 0) return false;
  free_.push_back(phys);
  released_++;
  return true;
}

void RenamePool::map(int w, uint8_t r, int phys) {
  addRef(phys);
  const int old = map_[idx(w, r)];
  map_[idx(w, r)] = static_cast<int16_t>(phys);
  if (old >= 0) release(old);
}

int RenamePool::unmap(int w, uint8_t r) {
  const int old = map_[idx(w, r)];
  map_[idx(w, r)] = -1;
  if (old >= 0) release(old);
  return old;
}

uint64_t RenamePool::mappedMask(int w) const {
  uint64_t m = 0;
  for (size_t r = 0; r < named_; ++r)
    if (map_[idx(w, static_cast<uint8_t>(r))] >= 0) m |= uint64_t{1} << r;
  return m;
}

}  // namespace simtlm::darsie
