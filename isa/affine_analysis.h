// Static uniform/affine classification of register values within a warp (Kim et al., ISCA
// 2013, Sec. 4.1): uniform (one scalar for all lanes), affine (base + lane * stride) or generic.
#pragma once

#include <optional>
#include <vector>

#include "isa/cfg.h"
#include "isa/interpreter.h"
#include "isa/kernel.h"

namespace simtlm::isa {

enum class ValueShape : uint8_t { Uniform, Affine, Generic };
const char* shapeName(ValueShape s);  // "U", "A", "G"

struct AffineMarking {
  // Per instruction: the shape of the value it writes (Generic for no result).
  std::vector<ValueShape> instr;
};

// Without a block shape, tid.x is taken as affine in the lane (block.x a multiple of the warp
// size) and tid.y/tid.z as generic. With one, tid.x is affine when block.x is a multiple of the
// warp size, tid.y uniform when block.x is, tid.z uniform when block.x*block.y is. A component
// whose extent is 1 is uniform (zero), and tid.y (tid.z) is affine when the extents below it are
// all 1 and its own extent is a multiple of the warp size. Anything else is generic.
AffineMarking classifyAffine(const Kernel& k, const Cfg& cfg,
                             const std::optional<Dim3>& block = std::nullopt,
                             uint32_t warpSize = 32);

}  // namespace simtlm::isa
