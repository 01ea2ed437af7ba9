// Launch shape and parameters of a kernel, and what observers of an execution see.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "isa/kernel.h"

namespace simtlm::isa {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return static_cast<uint64_t>(x) * y * z; }
  // The (x, y, z) index of the linear block `linear` of a grid of this shape (x fastest).
  std::array<uint32_t, 3> blockIndex(uint64_t linear) const {
    return {static_cast<uint32_t>(linear % x), static_cast<uint32_t>(linear / x % y),
            static_cast<uint32_t>(linear / (static_cast<uint64_t>(x) * y))};
  }
  std::string str() const;
};

struct LaunchConfig {
  Dim3 grid, block;
  uint32_t warpSize = 32;             // 1..32
  std::vector<uint32_t> params;       // parameter buffer, one word per .param
  // Global address of the launch's local space (isa/local_memory.h), set by prepareLocal when
  // the launch runs; 0 for kernels without .local.
  uint32_t localBase = 0;
  // Run limit: the launch stops with a LimitError after this many warp instructions (a kernel
  // that never ends). Callers that run several launches pass what is left of their budget.
  uint64_t maxWarpInstructions = 2'000'000'000ull;
  // Called every 2^20 warp instructions with the launch's count so far (a progress display).
  std::function<void(uint64_t)> onProgress;
  // Validates against the kernel; throws std::invalid_argument naming the parameter and range.
  void validate(const Kernel& kernel) const;
};

// One executed warp instruction, as seen by observers (the limit study, traces).
struct WarpStep {
  uint32_t blockLinear;    // linear block id in the grid
  uint32_t warp;           // warp index within the block
  uint32_t pc;
  const Instr* instr;
  uint32_t activeMask;     // lanes issued (SIMT stack top, minus exited lanes)
  uint32_t execMask;       // activeMask after the guard predicate
  uint32_t warpMask;       // lanes that exist in this warp (partial last warp)
  int lanes;               // warp size
  // Source operand vectors: per lane value = src[i][lane * srcStride[i]] (stride 0: broadcast).
  int numSrcs = 0;
  std::array<const uint32_t*, 4> src{};
  std::array<int, 4> srcStride{};
  // Result vector (the whole destination after the write), or nullptr when none is written.
  const uint32_t* result = nullptr;

  void addSource(const uint32_t* p, int stride) {
    src[numSrcs] = p;
    srcStride[numSrcs++] = stride;
  }
};

class ExecObserver {
 public:
  virtual ~ExecObserver() = default;
  virtual void onLaunch(const Kernel&, const LaunchConfig&) {}
  virtual void onBlockStart(uint32_t /*blockLinear*/, uint32_t /*numWarps*/) {}
  virtual void onWarpStep(const WarpStep&) {}
  virtual void onBlockEnd(uint32_t /*blockLinear*/) {}
  virtual void onGridEnd() {}
};

}  // namespace simtlm::isa
