// DAC-IDEAL's runtime value tags (docs/dac.md): per warp, what each general register and
// predicate holds across its thread block. Uniform: the same value in every thread of the block.
// Affine: a linear function of the thread's index in the block (base + sx*tid.x + sy*tid.y +
// sz*tid.z, or the lane id), the same function in every warp. Generic: anything else. The
// transfer rules are those of the static lattice (isa/affine_analysis.cpp, Kim et al. Sec.
// 4.1-4.3), taken at run time and across the thread block instead of the warp.
#pragma once

#include <array>
#include <cstdint>

#include "isa/instruction.h"

namespace simtlm::dac {

// Ordered as the lattice: a meet takes the larger (less structured) one.
enum class Tag : uint8_t { Uniform, Affine, Generic };

inline Tag meet(Tag a, Tag b) { return a > b ? a : b; }

struct WarpTags {
  std::array<Tag, isa::kMaxRegs> regs;
  std::array<Tag, isa::kNumPreds + 1> preds;  // pt (kPredTrue) included: always Uniform
  // Registers start as zero in every thread: uniform.
  void reset() {
    regs.fill(Tag::Uniform);
    preds.fill(Tag::Uniform);
  }
};

// Instructions DAC-IDEAL may execute once per thread block: ALU formats (anything that computes
// a register or predicate from registers, immediates and special registers) without a guard.
// Memory, atomics, control and barriers are never removed.
bool removableOp(const isa::Instr& in);

// The tag of the value `in` writes, by a warp whose every thread executes it (the caller makes
// it Generic otherwise), from the tags of its sources. Generic for instructions without a
// result.
Tag resultTag(const isa::Instr& in, const WarpTags& t);

// Writes the destination's tag of `in` (no-op without one).
void writeTag(const isa::Instr& in, Tag tag, WarpTags& t);

}  // namespace simtlm::dac
