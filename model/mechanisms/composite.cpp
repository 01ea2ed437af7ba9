#include "model/mechanisms/composite.h"

namespace simtlm::mechanisms {

CompositeMechanism::CompositeMechanism(std::vector<std::unique_ptr<sm::SmMechanism>> parts)
    : parts_(std::move(parts)) {
  for (const auto& p : parts_) {
    couples_ = couples_ || p->couplesWarps();
    wakes_ = wakes_ && p->wakesOnIssueChanges();
  }
}

void CompositeMechanism::kernelStarted() {
  for (auto& p : parts_) p->kernelStarted();
}

int CompositeMechanism::regsPerBlock() const {
  int n = 0;
  for (const auto& p : parts_) n += p->regsPerBlock();
  return n;
}

void CompositeMechanism::blockAdmitted(int b) {
  for (auto& p : parts_) p->blockAdmitted(b);
}

void CompositeMechanism::blockRetired(int b) {
  for (auto& p : parts_) p->blockRetired(b);
}

void CompositeMechanism::warpExited(int slot) {
  for (auto& p : parts_) p->warpExited(slot);
}

void CompositeMechanism::warpDrained(int slot) {
  for (auto& p : parts_) p->warpDrained(slot);
}

void CompositeMechanism::beforeFetch(uint64_t cycle) {
  for (auto& p : parts_) p->beforeFetch(cycle);
}

bool CompositeMechanism::holdsFetch(int slot) const {
  for (const auto& p : parts_)
    if (p->holdsFetch(slot)) return true;
  return false;
}

void CompositeMechanism::delivered(int slot, sm::IBufferEntry& entry) {
  for (auto& p : parts_) p->delivered(slot, entry);
}

bool CompositeMechanism::fetchStopsAfter(const isa::Instr& in) const {
  for (const auto& p : parts_)
    if (p->fetchStopsAfter(in)) return true;
  return false;
}

bool CompositeMechanism::holdsIssue(int slot) const {
  for (const auto& p : parts_)
    if (p->holdsIssue(slot)) return true;
  return false;
}

void CompositeMechanism::retireSkips(int slot) {
  for (auto& p : parts_) p->retireSkips(slot);
}

void CompositeMechanism::issuing(int slot, const sm::IBufferEntry& entry, uint32_t exec) {
  for (auto& p : parts_) p->issuing(slot, entry, exec);
}

void CompositeMechanism::issued(int slot, const sm::IBufferEntry& entry, bool diverged) {
  for (auto& p : parts_) p->issued(slot, entry, diverged);
}

void CompositeMechanism::woken(int slot) {
  for (auto& p : parts_) p->woken(slot);
}

void CompositeMechanism::flushed(int slot) {
  for (auto& p : parts_) p->flushed(slot);
}

void CompositeMechanism::collecting(int slot, const isa::Instr& in, uint32_t pc, uint32_t exec,
                                    regfile::Sources& sources) {
  for (auto& p : parts_) p->collecting(slot, in, pc, exec, sources);
}

bool CompositeMechanism::holdsResult(int slot, const isa::Instr& in) {
  bool held = false;
  for (auto& p : parts_) held = p->holdsResult(slot, in) || held;  // (each asked: it may clear state)
  return held;
}

void CompositeMechanism::remapped(int slot, uint8_t r) {
  for (auto& p : parts_) p->remapped(slot, r);
}

void CompositeMechanism::beforeExecute(int slot, const isa::Instr& in, uint32_t pc) {
  for (auto& p : parts_) p->beforeExecute(slot, in, pc);
}

void CompositeMechanism::planExecute(int slot, const isa::Instr& in, uint32_t pc, sm::ExecutePlan& plan) {
  for (auto& p : parts_) p->planExecute(slot, in, pc, plan);
}

bool CompositeMechanism::compactAddress(int slot, const isa::Instr& in, uint32_t exec, sm::CompactAddress& out) {
  for (auto& p : parts_)
    if (p->compactAddress(slot, in, exec, out)) return true;
  return false;
}

void CompositeMechanism::afterExecute(int slot, const isa::Instr& in) {
  for (auto& p : parts_) p->afterExecute(slot, in);
}

void CompositeMechanism::written(int slot, const isa::Instr& in) {
  for (auto& p : parts_) p->written(slot, in);
}

void CompositeMechanism::barrierReleased(sm::BlockSlot& block) {
  for (auto& p : parts_) p->barrierReleased(block);
}

std::string CompositeMechanism::describeWarp(int slot) const {
  std::string all;
  for (const auto& p : parts_) {
    const std::string d = p->describeWarp(slot);
    if (!d.empty()) all += (all.empty() ? "" : "; ") + d;
  }
  return all;
}

}  // namespace simtlm::mechanisms
