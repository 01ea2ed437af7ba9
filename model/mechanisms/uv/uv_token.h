// UV's token-based intra-warp uniform vector instructions (docs/uv.md; UV paper Sec. 3.1.1), a
// mechanism of the SM attached through its hooks (model/sm/sm_mechanism.h).
//
// A token bit per vector register of a warp marks a uniform value. Its scalar lives in one lane
// of the register, N = warp size - SIMD width (0 when the unit is a warp wide): the other lanes
// are stale and are never read. An ALU instruction whose sources are all uniform (token
// registers, immediates, special registers the same in every thread), executed by the whole
// warp, is computed on lane N alone in one cycle of its unit and sets its destination's token.
// A vector instruction reads a token register through the broadcast path: lane N's value in
// every lane. A vector write to a token register clears the token; one that leaves lanes
// unwritten (divergence, a guard, a partial warp) first copies the scalar into every lane
// (copy-on-write, an inserted vector instruction). A load whose address is uniform, by the
// whole warp, returns one value through the broadcast path: its destination gets the token.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "model/sm/sm_mechanism.h"

namespace simtlm::uv {

class UvTokenMechanism final : public sm::SmMechanism {
 public:
  UvTokenMechanism(sm::SmContext& sm, stats::Registry& stats);

  void kernelStarted() override;
  void blockAdmitted(int blockSlot) override;
  void planExecute(int slot, const isa::Instr& in, sm::ExecutePlan& plan) override;
  void afterExecute(int slot, const isa::Instr& in) override;

  // For tests and reports: the warp's token bits (bit r: register r holds a uniform value).
  uint64_t tokens(int slot) const { return tokens_[static_cast<size_t>(slot)]; }
  int scalarLane() const { return lane_; }

 private:
  bool uniformSources(int slot, const isa::Instr& in) const;
  void copyOnWrite(int slot, uint8_t r, uint64_t occupancyOfCopy, sm::ExecutePlan& plan);
  void broadcastSources(int slot, const isa::Instr& in);

  sm::SmContext& sm_;
  int lane_ = 0;                  // N: the lane that holds a token register's scalar
  std::vector<uint64_t> tokens_;  // per warp slot, bit r for register r
  // The instruction between planExecute and afterExecute: the registers read through the
  // broadcast path (each mapped onto a row of `rows_` that holds lane N's value in every lane),
  // and the token its destination gets.
  struct Broadcast {
    uint8_t reg;
    int row;
  };
  std::vector<Broadcast> mapped_;
  std::array<std::array<uint32_t, 32>, 3> rows_{};
  int destToken_ = -1;  // -1: the destination's token is cleared; 1: set; 0: no destination
  uint64_t uniform_ = 0, copies_ = 0, broadcastReads_ = 0, uniformLoads_ = 0, cyclesSaved_ = 0;
};

}  // namespace simtlm::uv
