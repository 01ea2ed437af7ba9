// The broadcast path of a mechanism that keeps some of a warp's register values outside the
// vector register file (UV's scalars, the affine ASRF's base and stride), shared by uv/ and
// affine/. For one instruction, between planExecute and afterExecute, a register whose value the
// mechanism holds is mapped (isa::WarpContext::mapReg) onto a scratch row holding that value in
// every lane, so that the SM's semantics read it as a vector; a destination whose result must not
// reach the vector register is mapped onto a row too. Afterwards every mapping is undone, and a
// vector result the semantics wrote at execute onto one of the rows is copied into its register.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "isa/warp.h"

namespace simtlm::mechanisms {

class BroadcastRows {
 public:
  // One row per register source (three at most), and one for a destination (scratch()).
  static constexpr size_t kSourceRows = 3;

  // Forgets the previous instruction's mappings (its rows are not unmapped: afterExecute did).
  void reset() { mapped_.clear(); }
  // Maps register r onto the next free row and returns that row, whose first lanes() words the
  // caller fills with the value every lane reads.
  uint32_t* mapSource(isa::WarpContext& ctx, uint8_t r);
  // Maps register r onto the destination row, unless a row of this instruction holds it already
  // (a source row, whose result then lands there).
  void mapDestination(isa::WarpContext& ctx, uint8_t r);
  // The destination row, also a scratch row for a mechanism's own use before mapDestination.
  uint32_t* scratch() { return rows_[kSourceRows].data(); }
  // Undoes every mapping of the instruction; `writtenAtExecute` names a register whose vector
  // result the semantics wrote onto its row at execute: it belongs in the register.
  void unmapAll(isa::WarpContext& ctx, std::optional<uint8_t> writtenAtExecute);

 private:
  std::vector<uint8_t> mapped_;  // registers mapped onto rows, in order (sources first)
  std::array<std::array<uint32_t, 32>, kSourceRows + 1> rows_{};
};

}  // namespace simtlm::mechanisms
