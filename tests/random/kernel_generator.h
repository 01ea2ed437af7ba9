// Random kernels for the equivalence net of issue 14: from a seed, a structured kernel that
// always terminates and is legal (addresses in bounds, barriers only where the whole block is
// converged and every thread is live, atomics whose final memory does not depend on the order of
// the lanes), with its launch and input buffers. The interpreter defines what it computes; the
// timing model must end with the same memory under every mechanism.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "isa/launch.h"
#include "isa/memory.h"

namespace simtlm::test {

// Constructs the generator can be forced to produce or to avoid. Each of the first six is a
// failure class of issue 14 (the number in the comment); the tests force them one by one.
enum class Feature : int {
  ControlAtJoin,      // 1: a bra, guarded bra or exit at the reconvergence point of a branch
  BarrierAtJoin,      // 2: bar.sync at the join of a divergent if/else with a non-empty taken path
  TwoBarrierPcs,      // 3: warps of a block wait at two bar.sync PCs with the same id
  LongBranchHistory,  // 4: > 64 guarded branches per warp while one warp is slowed by uncoalesced loads
  SharedStoreReload,  // 5: one warp stores to a uniform shared address and reloads it (TB-redundant)
  Regs64,             // 6: `.regs 64`, or r63 in use
  Count_
};
inline constexpr int kNumFeatures = static_cast<int>(Feature::Count_);
const char* featureName(Feature f);

enum class Choice : uint8_t { Auto, On, Off };  // Auto: the seed decides

struct GenOptions {
  std::array<Choice, kNumFeatures> feature{};  // all Auto
  Choice& operator[](Feature f) { return feature[static_cast<size_t>(f)]; }
  Choice operator[](Feature f) const { return feature[static_cast<size_t>(f)]; }
};

struct GeneratedKernel {
  uint64_t seed = 0;
  std::string text;  // assembly
  isa::Dim3 grid, block;
  uint32_t warpSize = 32;
  // Buffers in parameter order (IN, OUT, ATOM), then the scalar parameters.
  std::vector<std::pair<std::string, std::vector<uint32_t>>> buffers;
  std::vector<uint32_t> scalars;
  uint32_t features = 0;  // bit per Feature the kernel actually contains
  bool has(Feature f) const { return features & (1u << static_cast<int>(f)); }
  std::string describe() const;  // launch shape and features, one line

  // Allocates the buffers in `mem` and returns the launch (parameters filled in).
  isa::LaunchConfig setup(isa::GlobalMemory& mem) const;
};

GeneratedKernel generateKernel(uint64_t seed, const GenOptions& opt = {});

}  // namespace simtlm::test
