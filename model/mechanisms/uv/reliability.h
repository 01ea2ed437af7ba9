// UV's opportunistic reliability (UV Sec. 3.3 and 5.4; docs/uv.md), on with uv.reliability=true,
// and a fault injector beyond the paper (uv.fault.*). UvMechanism computes a converted uniform
// instruction on two lanes and keeps two copies of every scalar; this class counts what that
// protects (the paper's two coverages), counts the mismatches the comparisons find, and flips
// one bit when the configured fault is due.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "isa/liveness.h"
#include "isa/warp.h"
#include "model/common/config.h"
#include "model/common/stats.h"

namespace simtlm::uv {

class Reliability {
 public:
  Reliability(const config::GpuConfig& cfg, int smId, stats::Registry& stats);

  bool on() const { return on_; }
  void kernelStarted(const isa::Kernel& kernel, int warps);

  // ALU coverage (Sec. 5.4): an ALU instruction's thread operations, and whether they are
  // protected (computed twice and compared, or supplied by a parity-protected IRB entry).
  void aluInstruction(int threads, bool isProtected) {
    aluOps_ += static_cast<uint64_t>(threads);
    if (isProtected) aluProtected_ += static_cast<uint64_t>(threads);
  }
  // Register-file coverage (Sec. 5.4): after the warp executed the instruction at `pc`, its live
  // registers are those live out of it; `twoCopies` are those stored twice. Integrated over the
  // cycles until the warp's next instruction (or its block's retirement).
  void liveAfter(int slot, uint32_t pc, uint64_t twoCopies, uint64_t now);
  void warpGone(int slot, uint64_t now);

  // A comparison of two copies: two lanes' results (`alu`) or a scalar's stored copies.
  void compare(uint32_t a, uint32_t b, bool alu) {
    if (a == b) return;
    (alu ? aluMismatches_ : copyMismatches_)++;
    if (injected_) detected_++;
  }

  // Fault injection: due once, on the configured SM, at the first chance at or after the cycle.
  bool aluFaultDue(uint64_t now) const { return due(config::FaultTarget::Alu, now); }
  bool registerFaultDue(uint64_t now) const { return due(config::FaultTarget::Register, now); }
  // Flips a seeded bit of a seeded lane among `lanes` of `row` (an ALU result).
  void injectAlu(uint32_t* row, uint32_t lanes, uint64_t now);
  // Flips a seeded bit of a seeded lane of a seeded register live into the instruction at `pc`;
  // false (nothing injected yet) when none is live.
  bool injectRegister(isa::WarpContext& ctx, uint32_t pc, uint64_t now);

 private:
  bool due(config::FaultTarget t, uint64_t now) const {
    return !injected_ && fault_ == t && now >= faultCycle_ && smId_ == faultSm_;
  }
  uint64_t draw();  // the fault's next pseudo-random number (splitmix64 of the seed)
  void account(size_t slot, uint64_t now);

  bool on_;
  config::FaultTarget fault_;
  uint64_t faultCycle_;
  int smId_, faultSm_;
  uint64_t rng_;
  std::unique_ptr<isa::Liveness> liveness_;
  struct Live {
    uint32_t live = 0, twoCopies = 0;
    uint64_t since = 0;
  };
  std::vector<Live> warps_;
  uint64_t aluOps_ = 0, aluProtected_ = 0, liveCycles_ = 0, protectedCycles_ = 0;
  uint64_t aluMismatches_ = 0, copyMismatches_ = 0;
  uint64_t injected_ = 0, detected_ = 0, injectedCycle_ = 0;
};

}  // namespace simtlm::uv
