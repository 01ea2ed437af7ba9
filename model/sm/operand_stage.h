// The register-file stage of the SM pipeline, between issue and the execution units
// (docs/timing-model.md, docs/regfile.md): the per-warp base + length register map, the
// operand collectors with their bank arbitration, and the writeback port.
//
//   issue      accept(): the instruction takes a free collector with its distinct vector-register
//              sources (physical registers by RegisterMap, banks by the default bank mapping;
//              predicates live in a separate file and cause no bank traffic);
//   read       the collectors read the sources from the banks (conflicts cost cycles);
//   dispatch   dispatch(): an instruction with every operand read leaves its collector when its
//              execution unit takes it, oldest accepted first, but each warp's instructions in
//              issue order (a younger instruction of a warp waits while an older one is still
//              in a collector: the SM executes the instruction's semantics at dispatch, so this
//              keeps every warp's register and memory effects in program order);
//   writeback  requestWrite(): a result queues a bank write, which competes with the reads for
//              the bank ports; tick() reports each result written, and the SM releases the
//              scoreboard then.
// A mechanism with an operand bypass (SmMechanism::collecting, holdsResult) may supply sources
// from storage of its own, keep results out of the banks, and queue bank writes of values it
// held (writeBack()).
//
// Plain C++; the SM core clocks it and skips tick() while idle().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/instruction.h"
#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/regfile/operand_collectors.h"
#include "model/regfile/register_map.h"
#include "model/sm/sm_mechanism.h"

namespace simtlm::sm {

// An instruction in an operand collector: what dispatch needs to execute it.
struct CollectedInstr {
  int slot = -1;       // warp slot
  isa::Instr instr{};
  uint32_t exec = 0;   // lanes that execute (fixed at issue, when the guard is final)
  uint32_t pc = 0;
  uint64_t seq = 0;    // issue order within the warp
  bool memory = false; // a load, store or atomic (barriers and fences wait for it)
};

// A result written to the register file in the last tick().
struct WrittenResult {
  int slot;
  isa::Instr instr;
};

class OperandStage {
 public:
  OperandStage(const config::GpuConfig& cfg, const MechanismResources& mechanism);

  // <smPrefix>.regfile.* (the collectors' counters, docs/regfile.md) and <smPrefix>.regmap.*.
  void registerStats(stats::Registry& r, const std::string& smPrefix);

  // Register ranges of admitted warps (all or nothing per block).
  bool canAllocate(int warps, int numRegs) const {
    return map_.canAllocate(static_cast<uint32_t>(warps), static_cast<uint32_t>(numRegs));
  }
  void allocate(const std::vector<uint32_t>& slots, int numRegs);  // throws if they do not fit
  void release(int slot) {
    map_.free(static_cast<uint32_t>(slot));
    ranges_[static_cast<size_t>(slot)] = {};
    renamedMask_[slot] = 0;
  }
  // The mechanism whose operand-bypass hooks the stage calls (null: none).
  void setMechanism(SmMechanism* m) { mech_ = m; }

  bool canAccept() const { return oc_.canAccept(); }
  // `sources`: the named vector registers `in` reads (regfile::sourceGprs), `unit` its unit,
  // `memory` whether it is a load, store or atomic (as decoded once by the caller).
  void accept(int slot, const isa::Instr& in, uint32_t exec, uint32_t pc, uint64_t cycle, uint64_t sources,
              isa::Unit unit, bool memory);
  void accept(int slot, const isa::Instr& in, uint32_t exec, uint32_t pc, uint64_t cycle) {
    accept(slot, in, exec, pc, cycle, regfile::sourceGprs(in), isa::info(in.op).unit, regfile::accessesMemory(in.op));
  }

  // Offers each dispatchable instruction, oldest accepted first and each warp's in issue order,
  // to its execution unit: unitFree(isa::Unit, const CollectedInstr&) tells whether the unit
  // takes it in `cycle`; if so it leaves its collector and run(const CollectedInstr&) executes it.
  // Returns the number dispatched.
  template <class UnitFree, class Run>
  int dispatch(uint64_t cycle, UnitFree&& unitFree, Run&& run);

  // The physical register the result of `in` goes to, resolved when the instruction's
  // semantics write it (a rename in between must not move a write already made), or
  // nothing for predicates only.
  std::optional<regfile::PhysReg> dest(int slot, const isa::Instr& in) const {
    const std::optional<uint8_t> d = regfile::destGpr(in);
    if (!d) return std::nullopt;
    return physOf(slot, *d);
  }
  // The result of `in` is ready: queues the bank write of `dest` (from dest()). Returns false
  // (nothing queued) when it writes no vector register.
  // Returns false (nothing queued) when it writes no vector register, or the mechanism keeps the
  // result (SmMechanism::holdsResult).
  bool requestWrite(int slot, const isa::Instr& in, std::optional<regfile::PhysReg> dest);
  // A mechanism's bank write of a value it held for the warp's named register r (a write-back):
  // it takes a bank port like a result's, and no one waits for it. Counted in
  // <sm>.regfile.writeback_lane_groups (every lane group of the warp, for the energy).
  void writeBack(int slot, uint8_t r);
  // The physical register the warp's named register r is read from and written to now.
  regfile::PhysReg physOf(int slot, uint8_t r) const {
    if (renamedMask_[slot] >> r & 1u) return renamedTo_[static_cast<size_t>(slot) * 64 + r];
    const Range& range = ranges_[static_cast<size_t>(slot)];
    if (r < range.length) return regfile::PhysReg{range.base + r};
    return map_.phys(static_cast<uint32_t>(slot), r);  // (throws: past the warp's range)
  }

  // One cycle of bank arbitration (do not call while idle(): it would do nothing). Returns the
  // results written in this cycle.
  const std::vector<WrittenResult>& tick(uint64_t cycle);
  bool idle() const { return oc_.idle(); }
  void countFullCycle() { oc_.countFullCycle(); }
  // While the SM rests from `cycle` on: -1 unless every instruction in a collector has its
  // operands read, was dispatchable in `cycle`, and each that its warp's order lets dispatch
  // satisfies `waits(const CollectedInstr&)` (its unit refuses it until the SM is woken); else
  // the number of those, the offers dispatch() refuses in each cycle of the rest.
  template <class Waits>
  int restingDispatch(uint64_t cycle, Waits&& waits) const {
    int refused = 0;
    bool all = true;
    const bool ok = oc_.allDispatchable(cycle, [&](const regfile::OperandCollectors::Ready& r) {
      if (seqOf(r.tag) != dispatched_[slotOf(r.tag)]) return;  // an older one of its warp first
      if (waits(entries_[regfile::index(r.id)])) ++refused;
      else all = false;
    });
    return ok && all ? refused : -1;
  }
  // Counts `cycles` of rest with `refused` offers refused in each (restingDispatch).
  void countRest(uint64_t cycles, uint64_t refused) { oc_.countUnchanged(cycles, refused); }
  bool waitingForUnits(uint64_t cycle) const { return oc_.waitingForUnit(cycle); }

  // Instructions of the warp in collectors, or results of it waiting for a bank write.
  bool busy(int slot) const { return inCollector_[slot] + pendingWrites_[slot] > 0; }
  // Loads, stores and atomics of the warp still in collectors (not yet executed).
  int undispatchedMemory(int slot) const { return memInCollector_[slot]; }
  int inCollectors(int slot) const { return inCollector_[slot]; }

  // A mechanism's registers (MechanismResources, for example a rename pool): a warp's named
  // register renamed onto one is read and written there, in that register's bank. Block slot b's pool registers are the physical registers
  // poolReg(b, 0..) past the warps' ranges, consecutive and so strided across the banks.
  regfile::PhysReg poolReg(int blockSlot, int i) const {
    return regfile::PhysReg{poolBase_ + static_cast<uint32_t>(blockSlot * poolPerBlock_ + i)};
  }
  // (The mechanism's remapped() hook hears of both.)
  void rename(int slot, uint8_t r, regfile::PhysReg p) {
    renamedMask_[slot] |= uint64_t{1} << r;
    renamedTo_[static_cast<size_t>(slot) * 64 + r] = p;
    if (mech_) mech_->remapped(slot, r);
  }
  void unrename(int slot, uint8_t r) {
    renamedMask_[slot] &= ~(uint64_t{1} << r);
    if (mech_) mech_->remapped(slot, r);
  }

  const regfile::OperandCollectors& collectors() const { return oc_; }
  const regfile::RegisterMap& registerMap() const { return map_; }

 private:
  struct PendingWrite {
    regfile::PhysReg reg{};
    int slot = -1;  // -1: a mechanism's write-back (writeBack()), reported to no one
    isa::Instr instr{};
  };

  // The collectors' tag of an instruction: its warp slot and its issue order within the warp,
  // all the dispatch walk needs to pass over a younger instruction of a warp without looking
  // at its collector (sm.num_warps <= 1024 fits the slot's 16 bits).
  // The instruction's execution unit (isa::Unit) rides along in bits 16-17, so that a refused
  // instruction is passed over without reading its collector's entry.
  static regfile::OperandCollectors::Tag tagOf(int slot, uint64_t seq, isa::Unit unit) {
    return seq << 18 | static_cast<uint64_t>(unit) << 16 | static_cast<uint64_t>(slot);
  }
  static int slotOf(regfile::OperandCollectors::Tag t) { return static_cast<int>(t & 0xffff); }
  static isa::Unit unitOf(regfile::OperandCollectors::Tag t) { return static_cast<isa::Unit>(t >> 16 & 3); }
  static uint64_t seqOf(regfile::OperandCollectors::Tag t) { return t >> 18; }

  regfile::Sources sources(int slot, uint64_t gprs) const;

  regfile::RegisterMap map_;
  regfile::OperandCollectors oc_;
  SmMechanism* mech_ = nullptr;
  bool roundRobin_ = false;
  int rrFirst_ = 0, rrNext_ = 0;  // round-robin dispatch: the warp looked at first; after the last taken
  uint64_t writebackLaneGroups_ = 0;
  int laneGroupsPerWarp_ = 1;
  uint32_t poolBase_ = 0;  // the first of the mechanism's registers, past the map's registers
  int poolPerBlock_ = 0;
  // By warp slot, its range in the register map (map_.base, map_.length: kept here, where the
  // operand look-ups of every accept and result find them without a call).
  struct Range {
    uint32_t base = 0, length = 0;
  };
  std::vector<Range> ranges_;
  std::vector<uint64_t> renamedMask_;            // by warp slot: named registers renamed
  std::vector<regfile::PhysReg> renamedTo_;      // by slot * 64 + named register
  std::vector<CollectedInstr> entries_;    // by collector
  std::vector<uint64_t> issued_, dispatched_;  // by warp slot: instructions accepted / dispatched
  std::vector<int> inCollector_, memInCollector_, pendingWrites_;  // by warp slot
  // Results waiting for their bank write, in request order (at most one per physical register).
  // A few at a time: searched, not indexed by register, so that they stay in a line or two.
  std::vector<PendingWrite> writes_;
  std::vector<WrittenResult> written_;
};

template <class UnitFree, class Run>
int OperandStage::dispatch(uint64_t cycle, UnitFree&& unitFree, Run&& run) {
  if (oc_.busyCollectors() == 0) return 0;
  using Offer = regfile::OperandCollectors::Offer;
  using Ready = regfile::OperandCollectors::Ready;
  auto offer = [&](const Ready& r) {
    // An older instruction of the warp is still in a collector: this one waits.
    if (seqOf(r.tag) != dispatched_[slotOf(r.tag)]) return Offer::Skip;
    return unitFree(unitOf(r.tag), entries_[regfile::index(r.id)]) ? Offer::Take : Offer::Refuse;
  };
  auto leave = [&](const Ready& r) {  // its collector is free now
    const CollectedInstr& e = entries_[regfile::index(r.id)];
    dispatched_[e.slot]++;
    inCollector_[e.slot]--;
    if (e.memory) memInCollector_[e.slot]--;
    rrNext_ = e.slot + 1;
    run(e);
  };
  if (!roundRobin_) return oc_.dispatchReady(cycle, offer, leave);
  // Round-robin (MechanismResources::dispatchRoundRobin): warps in turn from the one after the
  // warp that last dispatched, each warp's instructions oldest first.
  const auto warps = static_cast<uint64_t>(issued_.size()), first = static_cast<uint64_t>(rrFirst_);
  const int n = oc_.dispatchReadyRanked(
      cycle, [&](regfile::OperandCollectors::Tag t) { return (static_cast<uint64_t>(slotOf(t)) + warps - first) % warps; },
      offer, leave);
  rrFirst_ = rrNext_ % static_cast<int>(warps);
  return n;
}

}  // namespace simtlm::sm
