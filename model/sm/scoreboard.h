// Dependence tracking: per warp, the registers and predicates with a write in flight. An
// instruction may issue when none of the registers it reads or writes is pending (RAW and WAW
// hazards); its destinations become pending at issue and are released at write-back, whatever
// the latency (fixed for ALU ops, variable for memory).
#pragma once

#include <vector>

#include "isa/liveness.h"
#include "model/regfile/operands.h"  // writtenRegs: isa::writesOf from a table

namespace simtlm::sm {

class Scoreboard {
 public:
  explicit Scoreboard(int numWarps) : pending_(static_cast<size_t>(numWarps)) {}

  bool canIssue(int warp, const isa::Instr& in) const {
    isa::RegSet touched = isa::usesOf(in) | regfile::writtenRegs(in);
    return (touched & pending_[warp]).empty();
  }
  // The same with the instruction's register sets already decoded.
  bool canIssue(int warp, const isa::RegSet& touched) const {
    return (touched & pending_[warp]).empty();
  }
  void reserve(int warp, const isa::Instr& in) {
    pending_[warp] = pending_[warp] | regfile::writtenRegs(in);
  }
  void reserve(int warp, const isa::RegSet& written) { pending_[warp] = pending_[warp] | written; }
  void release(int warp, const isa::Instr& in) {
    pending_[warp] = pending_[warp].minus(regfile::writtenRegs(in));
  }
  // A register a mechanism makes the warp wait for (a value another warp still has to write).
  void hold(int warp, uint8_t reg) { pending_[warp].gpr |= uint64_t{1} << reg; }
  void unhold(int warp, uint8_t reg) { pending_[warp].gpr &= ~(uint64_t{1} << reg); }
  bool idle(int warp) const { return pending_[warp].empty(); }
  // Of `touched`, the registers still pending (what an instruction waits for).
  isa::RegSet blocking(int warp, const isa::RegSet& touched) const { return touched & pending_[warp]; }
  // A write of the register is in flight (or the register is held).
  bool pending(int warp, uint8_t reg) const { return (pending_[warp].gpr >> reg) & 1u; }
  void clear(int warp) { pending_[warp] = {}; }

 private:
  std::vector<isa::RegSet> pending_;
};

}  // namespace simtlm::sm
