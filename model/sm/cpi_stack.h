// The CPI stack (docs/timing-model.md, "CPI stacks"): where every scheduler cycle of an SM went,
// one category per scheduler per clocked cycle, so that the categories sum exactly to
// sm<N>.cycles x issue.schedulers (and, with the cycles an SM was gated, gpu.cpi.* to
// gpu.cycles x SMs x schedulers).
#pragma once

#include <array>
#include <cstdint>

#include "isa/opcode.h"

namespace simtlm::sm {

enum class CpiCategory : uint8_t {
  Issued,      // the scheduler issued (one or more instructions)
  DepAlu,      // the oldest warp waited for a result of the SP/control units
  DepSfu,      // ... of the SFUs
  DepShared,   // ... of a shared-memory load or atomic
  DepGlobal,   // ... of a global, local, constant or parameter load or atomic, or its memory
               //     instructions before bar.sync/membar
  Barrier,     // the oldest warp waited at bar.sync
  Fetch,       // its I-buffer was empty (fetch, I-cache, redirect), or the front end's clock
               //     did not tick (frontend.clock_divider)
  Operands,    // no free operand collector, none waiting for a unit (bank reads)
  UnitBusy,    // no free operand collector while collected instructions wait for their unit, or
               //     the memory port was full
  Mechanism,   // a mechanism's own wait: it holds the warp's issue or fetch, a skip waiting to
               //     take effect, a register it holds
  Idle,        // no live warp in the scheduler's partition, or no resident block
  Count_
};
inline constexpr int kCpiCategories = static_cast<int>(CpiCategory::Count_);

struct CpiCategoryInfo {
  const char* name;         // the statistic's last component: sm<N>.cpi.<name>
  const char* description;  // one line, for the statistics registry
};
const CpiCategoryInfo& cpiInfo(CpiCategory c);

// What a warp waiting for a result of `op` waits for.
CpiCategory dependenceCategory(isa::Op op);

using CpiCounters = std::array<uint64_t, kCpiCategories>;

}  // namespace simtlm::sm
