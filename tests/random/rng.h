// A small deterministic random source for the random-kernel generator: splitmix64, with our own
// range reduction (std::uniform_int_distribution's output differs between standard libraries,
// and a seed must give the same kernel everywhere).
#pragma once

#include <cstdint>
#include <vector>

#include "model/common/splitmix.h"

namespace simtlm::test {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed * 0x2545f4914f6cdd1dull + 0x1234567ull) {}

  uint64_t next() { return splitmixNext(state_); }
  // Uniform in [0, n) by the multiply-shift reduction of the high 32 bits (n >= 1).
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(((next() >> 32) * n) >> 32); }
  // Uniform in [lo, hi].
  int range(int lo, int hi) { return lo + static_cast<int>(below(static_cast<uint32_t>(hi - lo + 1))); }
  bool chance(int percent) { return static_cast<int>(below(100)) < percent; }
  uint32_t word() { return static_cast<uint32_t>(next() >> 32); }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[below(static_cast<uint32_t>(v.size()))]; }

 private:
  uint64_t state_;
};

}  // namespace simtlm::test
