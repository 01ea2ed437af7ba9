#include "model/sm/operand_stage.h"

#include <algorithm>
#include <stdexcept>

#include "isa/opcode.h"
#include "model/regfile/operands.h"

namespace simtlm::sm {

OperandStage::OperandStage(const config::GpuConfig& cfg, const MechanismResources& mechanism)
    : map_(regfile::RegisterMap::fromConfig(cfg)),
      oc_(cfg.regfile),
      poolBase_(map_.physRegs()),
      poolPerBlock_(mechanism.regsPerBlock),
      ranges_(static_cast<size_t>(cfg.sm.num_warps)),
      renamedMask_(static_cast<size_t>(cfg.sm.num_warps), 0),
      renamedTo_(poolPerBlock_ > 0 ? static_cast<size_t>(cfg.sm.num_warps) * 64 : 0),
      entries_(static_cast<size_t>(cfg.regfile.collectors)),
      issued_(static_cast<size_t>(cfg.sm.num_warps), 0),
      dispatched_(static_cast<size_t>(cfg.sm.num_warps), 0),
      inCollector_(static_cast<size_t>(cfg.sm.num_warps), 0),
      memInCollector_(static_cast<size_t>(cfg.sm.num_warps), 0),
      pendingWrites_(static_cast<size_t>(cfg.sm.num_warps), 0) {
  writes_.reserve(64);
  roundRobin_ = mechanism.dispatchRoundRobin;
  const int g = std::min(cfg.regfile.lane_group, cfg.gpu.warp_size);
  laneGroupsPerWarp_ = (cfg.gpu.warp_size + g - 1) / g;
  if (poolPerBlock_ > 0)
    oc_.setRenamedFrom(regfile::PhysReg{poolBase_}, mechanism.regsConflictFree);
}

// The physical registers of the named registers `gprs` (at most four): the warp's range, or
// where a register is renamed to.
regfile::Sources OperandStage::sources(int slot, uint64_t gprs) const {
  regfile::Sources s;
  if (gprs == 0) return s;
  const uint64_t renamed = renamedMask_[slot];
  for (uint64_t bits = gprs; bits != 0; bits &= bits - 1) {
    const auto r = static_cast<uint8_t>(__builtin_ctzll(bits));
    const regfile::PhysReg p = physOf(slot, r);
    // Distinct named registers in the warp's range are distinct physical registers: no search
    // for a duplicate (renamed ones may share one; add() also throws past kMaxSources).
    if ((renamed >> r & 1u) || s.count == regfile::kMaxSources) s.add(p);
    else s.reg[s.count++] = p;
  }
  return s;
}

void OperandStage::registerStats(stats::Registry& r, const std::string& smPrefix) {
  oc_.registerStats(stats::Group(r, smPrefix + ".regfile"));
  map_.registerStats(stats::Group(r, smPrefix + ".regmap"));
  r.add(smPrefix + ".regfile.writeback_lane_groups", writebackLaneGroups_, "accesses",
        "vector register writes of values a mechanism held (an operand bypass's write-backs), per lane group of the warp");
}

void OperandStage::allocate(const std::vector<uint32_t>& slots, int numRegs) {
  if (!map_.allocateBlock(slots, static_cast<uint32_t>(numRegs)))
    throw std::logic_error("operand stage: admitted a block whose registers do not fit");
  for (uint32_t w : slots) ranges_[w] = {map_.base(w), map_.length(w)};
}

void OperandStage::accept(int slot, const isa::Instr& in, uint32_t exec, uint32_t pc, uint64_t cycle,
                          uint64_t gprs, isa::Unit unit, bool memory) {
  regfile::Sources src = sources(slot, gprs);
  if (mech_) mech_->collecting(slot, in, pc, exec, src);
  const uint64_t seq = issued_[slot];
  const regfile::CollectorId id = oc_.accept(tagOf(slot, seq, unit), src, cycle);
  issued_[slot]++;
  CollectedInstr& e = entries_[regfile::index(id)];
  e.slot = slot;
  e.instr = in;
  e.exec = exec;
  e.pc = pc;
  e.seq = seq;
  e.memory = memory;
  inCollector_[slot]++;
  if (e.memory) memInCollector_[slot]++;
}

bool OperandStage::requestWrite(int slot, const isa::Instr& in,
                                std::optional<regfile::PhysReg> d) {
  if (!d) return false;
  if (mech_ && mech_->holdsResult(slot, in)) return false;
  for (PendingWrite& w : writes_)
    if (w.reg == *d) {
      // The scoreboard keeps a register's writes apart (WAW waits for the release), but a
      // mechanism's write-back of the register's older value may still wait: the result's
      // write takes its place (one bank write, of the newer value).
      if (w.slot >= 0) throw std::logic_error("operand stage: two results in flight for one physical register");
      w.slot = slot;
      w.instr = in;
      pendingWrites_[slot]++;
      return true;
    }
  writes_.push_back({*d, slot, in});
  pendingWrites_[slot]++;
  oc_.writeback(*d);
  return true;
}

void OperandStage::writeBack(int slot, uint8_t r) {
  const regfile::PhysReg p = physOf(slot, r);
  writebackLaneGroups_ += static_cast<uint64_t>(laneGroupsPerWarp_);
  for (const PendingWrite& w : writes_)
    if (w.reg == p) return;  // a write of the register is queued already (the port is taken once)
  writes_.push_back({p, -1, {}});
  oc_.writeback(p);
}

const std::vector<WrittenResult>& OperandStage::tick(uint64_t cycle) {
  written_.clear();
  oc_.tick(cycle);
  for (regfile::PhysReg p : oc_.written()) {
    auto w = std::find_if(writes_.begin(), writes_.end(), [p](const PendingWrite& x) { return x.reg == p; });
    if (w->slot >= 0) {
      written_.push_back({w->slot, w->instr});
      pendingWrites_[w->slot]--;
    }
    writes_.erase(w);
  }
  return written_;
}

}  // namespace simtlm::sm
