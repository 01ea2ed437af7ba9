#include "model/mechanisms/uv/scalar_register_file.h"

#include <algorithm>

namespace simtlm::uv {

void ScalarRegisterFile::reset(int entries, int warps) {
  values_.assign(static_cast<size_t>(entries), 0);
  free_.resize(static_cast<size_t>(entries));
  // Register 0 is taken first: the stack is filled in reverse.
  for (int i = 0; i < entries; ++i) free_[static_cast<size_t>(i)] = static_cast<uint16_t>(entries - 1 - i);
  map_.assign(static_cast<size_t>(warps) * kRegs, -1);
  renamed_.assign(static_cast<size_t>(warps), 0);
  inUse_ = 0;
  since_ = 0;
}

void ScalarRegisterFile::account(uint64_t now) {
  if (now > since_) occupancyCycles_ += inUse_ * (now - since_);
  since_ = std::max(since_, now);
}

void ScalarRegisterFile::write(int slot, uint8_t r, uint32_t value, uint64_t now) {
  account(now);
  const uint16_t s = free_.back();
  free_.pop_back();
  int16_t& m = map_[index(slot, r)];
  if (m >= 0) {  // the old scalar: read, now dead
    free_.push_back(static_cast<uint16_t>(m));
    releases_++;
  } else {
    ++inUse_;
  }
  m = static_cast<int16_t>(s);
  renamed_[static_cast<size_t>(slot)] |= uint64_t{1} << r;
  values_[s] = value;
  writes_++;
  peak_ = std::max(peak_, inUse_);
}

void ScalarRegisterFile::release(int slot, uint8_t r, uint64_t now) {
  int16_t& m = map_[index(slot, r)];
  if (m < 0) return;
  account(now);
  free_.push_back(static_cast<uint16_t>(m));
  m = -1;
  renamed_[static_cast<size_t>(slot)] &= ~(uint64_t{1} << r);
  --inUse_;
  releases_++;
}

void ScalarRegisterFile::releaseWarp(int slot, uint64_t now) {
  for (uint64_t bits = renamed(slot); bits; bits &= bits - 1)
    release(slot, static_cast<uint8_t>(__builtin_ctzll(bits)), now);
}

}  // namespace simtlm::uv
