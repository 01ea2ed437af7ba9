#include "model/mechanisms/affine/asrf.h"

#include <stdexcept>

namespace simtlm::affine {

void Asrf::reset(int warps, int entries) {
  entries_ = entries;
  held_.assign(static_cast<size_t>(warps), 0);
  value_.assign(static_cast<size_t>(warps) * 64, AffineValue{});
}

bool Asrf::hasRoom(int slot, uint8_t r) const {
  return holds(slot, r) || __builtin_popcountll(held(slot)) < entries_;
}

void Asrf::write(int slot, uint8_t r, AffineValue v) {
  if (!hasRoom(slot, r)) throw std::logic_error("ASRF: a write without a free entry");
  held_[static_cast<size_t>(slot)] |= uint64_t{1} << r;
  value_[index(slot, r)] = v;
  writes_++;
  const auto used = static_cast<uint64_t>(__builtin_popcountll(held(slot)));
  if (used > peak_) peak_ = used;
}

void Asrf::clear(int slot, uint8_t r) { held_[static_cast<size_t>(slot)] &= ~(uint64_t{1} << r); }

void Asrf::clearWarp(int slot) { held_[static_cast<size_t>(slot)] = 0; }

}  // namespace simtlm::affine
