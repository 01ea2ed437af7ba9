// BOW-WR compiler write-back hints (BOW Sec. IV-B): for an instruction window of IW
// instructions, each value-producing instruction is told to write its result to the register
// file only, to the bypassing operand collector only (transient values), or to both.
#pragma once

#include <vector>

#include "isa/cfg.h"
#include "isa/kernel.h"
#include "isa/liveness.h"

namespace simtlm::isa {

// One hint per instruction; BowHint::None for instructions without a register result.
std::vector<BowHint> computeBowHints(const Kernel& k, const Cfg& cfg, const Liveness& live,
                                     int windowSize);
// Computes the hints and writes them into the kernel's hint bits.
void applyBowHints(Kernel& k, int windowSize);

}  // namespace simtlm::isa
