// DARSIE's launch-time marking (Sec. 4.2, DESIGN.md rule 3): which static PCs the front end may
// skip for the launched block shape. The binary's hint bits decide (a binary without hints
// skips nothing); the driver's finalization pass, which has the code, re-runs the analysis for
// the thread-index components a conditionally redundant instruction depends on and promotes
// it when they repeat in every warp of the block.
#pragma once

#include <cstdint>
#include <vector>

#include "isa/kernel.h"
#include "isa/launch.h"

namespace simtlm::darsie {

struct LaunchMarking {
  // Per instruction: TB-redundant for this launch and skippable (writes a general register:
  // ALU results and loads; predicate writers, stores, atomics and control never are).
  std::vector<uint8_t> skippable;
  std::vector<uint8_t> isLoad, isGlobalLoad;  // per instruction
  // Per instruction, for bar.sync: bit r set = named register r is TB-redundant there.
  std::vector<uint64_t> redundantAtBarrier;
  size_t skippableCount = 0;
};

LaunchMarking markForLaunch(const isa::Kernel& k, const isa::Dim3& block, uint32_t warpSize,
                            bool tidYZ);

}  // namespace simtlm::darsie
