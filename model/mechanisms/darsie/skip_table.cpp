#include "model/mechanisms/darsie/skip_table.h"

namespace simtlm::darsie {

ValueKind classify(const uint32_t* v, int n) {
  bool uniform = true, affine = true;
  const uint32_t stride = n > 1 ? v[1] - v[0] : 0;
  for (int l = 1; l < n; ++l) {
    uniform = uniform && v[l] == v[0];
    affine = affine && v[l] - v[l - 1] == stride;
  }
  return uniform ? ValueKind::Uniform : affine ? ValueKind::Affine : ValueKind::Unstructured;
}

int SkipTable::find(uint32_t pc) const {
  for (size_t i = 0; i < e_.size(); ++i)
    if (e_[i].valid && !e_[i].stale && e_[i].pc == pc) return static_cast<int>(i);
  return -1;
}

int SkipTable::freeSlot() const {
  for (size_t i = 0; i < e_.size(); ++i)
    if (!e_[i].valid) return static_cast<int>(i);
  return -1;
}

int SkipTable::evictable() const {
  int best = -1;
  for (size_t i = 0; i < e_.size(); ++i) {
    const SkipEntry& x = e_[i];
    if (x.valid && x.leaderWB && x.pendingSkips == 0 && x.waiting == 0 &&
        (best < 0 || x.created < e_[static_cast<size_t>(best)].created))
      best = static_cast<int>(i);
  }
  return best;
}

int SkipTable::occupancy() const {
  int n = 0;
  for (const auto& x : e_) n += x.valid;
  return n;
}

}  // namespace simtlm::darsie
