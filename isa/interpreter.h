// The golden functional interpreter: runs a whole grid, warp by warp, with a SIMT
// reconvergence stack at immediate post-dominators, bar.sync, shared memory per block, global
// memory, atomics and parameters. Every timing mechanism must end with the memory it produces.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "isa/cfg.h"
#include "isa/kernel.h"
#include "isa/launch.h"
#include "isa/memory.h"

namespace simtlm::isa {

struct ExecCounts {
  uint64_t warpInstructions = 0;
  uint64_t threadInstructions = 0;
  std::array<uint64_t, kNumOpClasses> warpByClass{};
  std::array<uint64_t, kNumOpClasses> threadByClass{};
  uint64_t blocks = 0, warps = 0, threads = 0;
  uint64_t divergentBranches = 0;
  uint64_t barriers = 0;  // completed bar.sync episodes

  ExecCounts& operator+=(const ExecCounts& o) {  // a workload of several launches sums them
    warpInstructions += o.warpInstructions;
    threadInstructions += o.threadInstructions;
    for (size_t i = 0; i < warpByClass.size(); ++i) {
      warpByClass[i] += o.warpByClass[i];
      threadByClass[i] += o.threadByClass[i];
    }
    blocks += o.blocks;
    warps += o.warps;
    threads += o.threads;
    divergentBranches += o.divergentBranches;
    barriers += o.barriers;
    return *this;
  }
};

class Interpreter {
 public:
  Interpreter(const Kernel& kernel, GlobalMemory& memory);
  // Runs the grid to completion. Throws ExecError on a fault or deadlock, std::invalid_argument
  // on a bad launch configuration.
  ExecCounts run(const LaunchConfig& launch, ExecObserver* observer = nullptr);
  // The counts of the last run(), also when it stopped with an error: what ran until then.
  const ExecCounts& counts() const { return counts_; }

  const Cfg& cfg() const { return cfg_; }

 private:
  const Kernel& kernel_;
  GlobalMemory& mem_;
  Cfg cfg_;
  std::vector<uint32_t> reconvergence_;  // per instruction: reconvergence PC of a branch
  ExecCounts counts_;
};

}  // namespace simtlm::isa
