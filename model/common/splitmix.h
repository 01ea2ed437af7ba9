// splitmix64 (Steele, Lea, Flood 2014): the one seeded random source of the project. Every
// seeded thing (scenario buffer contents, fault injection, fault campaigns, the random-kernel
// generator) draws from it, so a seed gives the same values on every standard library.
#pragma once

#include <cstdint>

namespace simtlm {

// The finalizer: a well-mixed function of x.
constexpr uint64_t splitmixMix(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The generator: advances `state` by the golden-ratio increment and mixes it.
constexpr uint64_t splitmixNext(uint64_t& state) { return splitmixMix(state += 0x9e3779b97f4a7c15ull); }

}  // namespace simtlm
