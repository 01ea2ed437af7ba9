// Breathing Operand Windows (Esfeden et al.; docs/bow.md), a mechanism of the SM attached through
// the operand stage's bypass hooks (model/sm/sm_mechanism.h), and the register-file cache it
// compares against (Gebhart et al., ISCA 2011, BOW's reference 13).
//
// Each warp has a bypassing operand collector (BOC) holding the registers its last IW
// instructions accessed (operand_window.h). When an instruction enters the operand stage, a
// source the BOC holds is not read from the banks; when it executes, that source's value is read
// from the BOC's storage (the warp's register is mapped onto the BOC's row for the instruction),
// so a stale entry gives a wrong answer.
//   bow          results are written to the BOC and the register file (write-through);
//   bow-wr       results are written to the BOC only and written back when they leave the
//                window, unless overwritten in it; with the compiler's hints (bow.hints, isa/
//                bow_hints for the configured IW) to the register file only, the BOC only
//                (transient: never written back unless it must leave early), or both;
//   bow-wr-half  bow-wr with half the storage (2 x IW registers instead of 4 x IW), FIFO eviction
//                (BOW Sec. IV-C); an evicted dirty entry is written back;
//   rfc          a register-file cache of rfc.entries registers per warp, allocated on write,
//                FIFO, write-back; organized like the register file, so its accesses take the
//                same bank ports (it saves energy, not time).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "model/mechanisms/bow/operand_window.h"
#include "model/sm/sm_mechanism.h"

namespace spdlog {
class logger;
}

namespace simtlm::bow {

enum class BowKind { Bow, BowWr, BowWrHalf, Rfc };

class BowMechanism final : public sm::SmMechanism {
 public:
  BowMechanism(sm::SmContext& sm, stats::Registry& stats, BowKind kind);

  // The policy a kind runs with under `cfg` (storage, window, write policy).
  static WindowPolicy policyOf(BowKind kind, const config::GpuConfig& cfg);

  void kernelStarted() override;
  void collecting(int slot, const isa::Instr& in, uint32_t pc, uint32_t exec, regfile::Sources& sources) override;
  bool holdsResult(int slot, const isa::Instr& in) override;
  void remapped(int slot, uint8_t r) override;
  void planExecute(int slot, const isa::Instr& in, uint32_t pc, sm::ExecutePlan& plan) override;
  void afterExecute(int slot, const isa::Instr& in) override;
  void written(int slot, const isa::Instr& in) override;
  void warpExited(int slot) override;

 private:
  // The values side of one warp's buffer: a row per register it holds.
  struct WarpValues {
    std::vector<uint32_t> rows;  // 64 registers x lanes, allocated when the warp first admits
    uint64_t present = 0, dirty = 0, awaitFill = 0;
    std::deque<Decision> pending;  // admitted, not executed yet (in issue order)
  };
  uint32_t* row(int slot, uint8_t r);
  void copyRow(const uint32_t* from, uint32_t* to, int lanes) const;

  sm::SmContext& sm_;
  spdlog::logger& log_;
  BowKind kind_;
  WindowPolicy policy_;
  bool removesReads_;  // bypassed sources take no bank port (BOW); an RFC's banks are the RF's
  std::vector<OperandWindow> windows_;  // by warp slot
  std::vector<WarpValues> values_;      // by warp slot
  std::vector<isa::BowHint> hints_;     // by instruction (bow-wr with hints)
  std::vector<uint64_t> held_;          // by warp slot: results kept out of the banks, not yet released
  WindowCounters c_;
  uint64_t forcedThrough_ = 0;  // results written through because another structure holds the register
  // The executing instruction's registers mapped onto rows, and what they pointed at before.
  int execSlot_ = -1;
  Decision exec_{};
  std::array<uint32_t*, 64> saved_{};
  uint64_t mapped_ = 0;
};

}  // namespace simtlm::bow
