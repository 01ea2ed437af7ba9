// A composition of mechanisms ("darsie+NAME", docs/mechanisms.md): one SmMechanism for the SM
// that holds the mechanisms of the list and forwards every hook to each of them, in list order.
// The registry builds it only for a list whose hook groups do not conflict (registry.h), so
// that every answer below combines without one mechanism overruling another:
//   - notifications (kernelStarted, blockAdmitted, beforeFetch, delivered, issuing, issued, flushed,
//     beforeExecute, planExecute (each narrows or lengthens what the last left), afterExecute,
//     written, barrierReleased, warpExited, woken, ...): each mechanism in list
//     order;
//   - retireSkips: each in list order (only the one that delivers skips, the fetch probe's
//     exclusive user, finds any);
//   - holdsFetch, holdsIssue, fetchStopsAfter, couplesWarps: true when any mechanism says so;
//   - wakesOnIssueChanges: true when every mechanism says so;
//   - collecting, remapped: each in list order; holdsResult: true when any mechanism keeps the
//     result (only the operand bypass's exclusive user does);
//   - compactAddress: the first mechanism in list order that describes the addresses;
//   - regsPerBlock: the sum (at most one mechanism has registers: they need the operand
//     mapping exclusively);
//   - describeWarp: the non-empty descriptions joined with "; ".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/sm/sm_mechanism.h"

namespace simtlm::mechanisms {

class CompositeMechanism final : public sm::SmMechanism {
 public:
  explicit CompositeMechanism(std::vector<std::unique_ptr<sm::SmMechanism>> parts);

  void kernelStarted() override;
  int regsPerBlock() const override;
  void blockAdmitted(int blockSlot) override;
  void blockRetired(int blockSlot) override;
  void warpExited(int slot) override;
  void warpDrained(int slot) override;
  void beforeFetch(uint64_t cycle) override;
  bool holdsFetch(int slot) const override;
  void delivered(int slot, sm::IBufferEntry& entry) override;
  bool fetchStopsAfter(const isa::Instr& in) const override;
  bool holdsIssue(int slot) const override;
  void retireSkips(int slot) override;
  void issuing(int slot, const sm::IBufferEntry& entry, uint32_t exec) override;
  void issued(int slot, const sm::IBufferEntry& entry, bool diverged) override;
  void flushed(int slot) override;
  void collecting(int slot, const isa::Instr& in, uint32_t pc, uint32_t exec, regfile::Sources& sources) override;
  bool holdsResult(int slot, const isa::Instr& in) override;
  void remapped(int slot, uint8_t r) override;
  void beforeExecute(int slot, const isa::Instr& in, uint32_t pc) override;
  void planExecute(int slot, const isa::Instr& in, uint32_t pc, sm::ExecutePlan& plan) override;
  bool compactAddress(int slot, const isa::Instr& in, uint32_t exec, sm::CompactAddress& out) override;
  void afterExecute(int slot, const isa::Instr& in) override;
  void written(int slot, const isa::Instr& in) override;
  void barrierReleased(sm::BlockSlot& block) override;
  void woken(int slot) override;
  std::string describeWarp(int slot) const override;
  bool couplesWarps() const override { return couples_; }
  bool wakesOnIssueChanges() const override { return wakes_; }

  size_t size() const { return parts_.size(); }

 private:
  std::vector<std::unique_ptr<sm::SmMechanism>> parts_;
  bool couples_ = false;  // fixed for the SM's life (the SM asks once)
  bool wakes_ = true;     // the same
};

}  // namespace simtlm::mechanisms
