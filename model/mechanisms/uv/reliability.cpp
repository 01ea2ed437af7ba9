#include "model/mechanisms/uv/reliability.h"

#include "isa/cfg.h"
#include "model/common/splitmix.h"

namespace simtlm::uv {

Reliability::Reliability(const config::GpuConfig& cfg, int smId, stats::Registry& stats)
    : on_(cfg.uv.reliability),
      fault_(cfg.uv.fault_target),
      faultCycle_(static_cast<uint64_t>(cfg.uv.fault_cycle)),
      smId_(smId),
      faultSm_(cfg.uv.fault_sm),
      rng_(static_cast<uint64_t>(cfg.uv.fault_seed)) {
  stats::Group g(stats, "sm" + std::to_string(smId) + ".uv");
  if (on_) {
    g.add("reliability.alu_ops", aluOps_, "operations", "thread operations of ALU instructions");
    g.add("reliability.alu_protected", aluProtected_, "operations",
          "thread operations of uniform instructions computed on two lanes and compared, or reused "
          "from the (parity-protected) IRB (UV Sec. 3.3)");
    g.addRatio("reliability.alu_coverage", "reliability.alu_protected", "reliability.alu_ops", "fraction",
               "protected over all ALU thread operations (UV Sec. 5.4, Fig. 14)");
    g.add("reliability.live_registers", liveCycles_, "register-cycles",
          "live vector registers (read later, by liveness) summed over cycles");
    g.add("reliability.protected_registers", protectedCycles_, "register-cycles",
          "live vector registers whose scalar is stored twice, summed over cycles");
    g.addRatio("reliability.rf_coverage", "reliability.protected_registers", "reliability.live_registers",
               "fraction", "protected over all live registers, per cycle (UV Sec. 5.4, Fig. 15)");
    g.add("reliability.alu_mismatches", aluMismatches_, "instructions",
          "uniform instructions whose two lanes' results differed (an ALU error detected)");
    g.add("reliability.copy_mismatches", copyMismatches_, "reads",
          "reads of a scalar whose two stored copies differed (a register error detected)");
  }
  if (fault_ != config::FaultTarget::None) {
    g.add("fault.injected", injected_, "faults", "bits flipped by the fault injector on this SM (0 or 1)");
    g.add("fault.cycle", injectedCycle_, "cycle", "when the fault was injected");
    g.add("fault.detected", detected_, "mismatches", "mismatches found after the injection");
  }
}

void Reliability::kernelStarted(const isa::Kernel& kernel, int warps) {
  if (!on_ && fault_ != config::FaultTarget::Register) return;
  liveness_ = std::make_unique<isa::Liveness>(kernel, isa::Cfg(kernel));
  warps_.assign(static_cast<size_t>(warps), Live{});
}

void Reliability::account(size_t slot, uint64_t now) {
  Live& w = warps_[slot];
  if (now > w.since) {
    liveCycles_ += w.live * (now - w.since);
    protectedCycles_ += w.twoCopies * (now - w.since);
  }
  w.since = now;
}

void Reliability::liveAfter(int slot, uint32_t pc, uint64_t twoCopies, uint64_t now) {
  if (!on_) return;
  const auto s = static_cast<size_t>(slot);
  account(s, now);
  const uint64_t live = liveness_->liveOut(pc / 8).gpr;
  warps_[s].live = static_cast<uint32_t>(__builtin_popcountll(live));
  warps_[s].twoCopies = static_cast<uint32_t>(__builtin_popcountll(live & twoCopies));
}

void Reliability::warpGone(int slot, uint64_t now) {
  if (!on_) return;
  account(static_cast<size_t>(slot), now);
  warps_[static_cast<size_t>(slot)] = Live{0, 0, now};
}

uint64_t Reliability::draw() { return splitmixNext(rng_); }

namespace {

int nthSetBit(uint64_t bits, uint64_t n) {
  for (; n > 0; --n) bits &= bits - 1;
  return __builtin_ctzll(bits);
}

}  // namespace

void Reliability::injectAlu(uint32_t* row, uint32_t lanes, uint64_t now) {
  const int lane = nthSetBit(lanes, draw() % static_cast<uint64_t>(__builtin_popcount(lanes)));
  row[lane] ^= 1u << (draw() % 32);
  injected_ = 1;
  injectedCycle_ = now;
}

bool Reliability::injectRegister(isa::WarpContext& ctx, uint32_t pc, uint64_t now) {
  // The registers live into the instruction: a flip of a dead one could not matter.
  const uint64_t regs = liveness_->liveIn(pc / 8).gpr;
  if (regs == 0) return false;
  const int r = nthSetBit(regs, draw() % static_cast<uint64_t>(__builtin_popcountll(regs)));
  const int lane = static_cast<int>(draw() % static_cast<uint64_t>(ctx.lanes()));
  ctx.privateReg(static_cast<uint8_t>(r))[lane] ^= 1u << (draw() % 32);
  injected_ = 1;
  injectedCycle_ = now;
  return true;
}

}  // namespace simtlm::uv
