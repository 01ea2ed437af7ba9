// An SM's observer events of one cycle, held while the SMs run on several host threads
// (sim.threads) and replayed into the real observer afterwards in the order one thread would have
// made them: the observer (a warp timeline) then sees the same calls in the same order for every
// thread count. Only records; its storage is kept across cycles, so a cycle allocates nothing
// once the largest cycle has been seen.
#pragma once

#include <cstdint>
#include <vector>

#include "model/sm/sm_observer.h"

namespace simtlm::sm {

class ObserverRecorder final : public SmObserver {
 public:
  void kernelStarted(int sm, uint64_t cycle) override { add(Kind::KernelStarted, sm, 0, 0, cycle); }
  void warpAdmitted(int sm, int slot, uint64_t cycle) override { add(Kind::WarpAdmitted, sm, slot, 0, cycle); }
  void issued(int sm, int slot, uint32_t pc, uint64_t cycle) override { add(Kind::Issued, sm, slot, pc, cycle); }
  void stalled(int sm, int slot, StallReason why, uint64_t cycle) override {
    add(Kind::Stalled, sm, slot, static_cast<uint32_t>(why), cycle);
  }
  void barrierArrived(int sm, int slot, uint64_t cycle) override { add(Kind::BarrierArrived, sm, slot, 0, cycle); }
  void barrierReleased(int sm, int slot, uint64_t cycle) override { add(Kind::BarrierReleased, sm, slot, 0, cycle); }
  void warpExited(int sm, int slot, uint64_t cycle) override { add(Kind::WarpExited, sm, slot, 0, cycle); }
  void warpRetired(int sm, int slot, uint64_t cycle) override { add(Kind::WarpRetired, sm, slot, 0, cycle); }
  void mechanismEvent(int sm, int slot, MechanismEvent kind, const char* what, uint64_t cycle) override {
    events_.push_back({Kind::Mechanism, kind, sm, slot, 0, what, cycle});
  }

  // The events recorded since the last replay, in their order, into `to`; then forgets them.
  void replayInto(SmObserver& to);

 private:
  enum class Kind : uint8_t {
    KernelStarted, WarpAdmitted, Issued, Stalled, BarrierArrived, BarrierReleased, WarpExited, WarpRetired, Mechanism
  };
  struct Event {
    Kind kind;
    MechanismEvent mechanismKind;
    int sm, slot;
    uint32_t value;  // issued: the PC; stalled: the reason
    const char* what;
    uint64_t cycle;
  };
  void add(Kind k, int sm, int slot, uint32_t value, uint64_t cycle) {
    events_.push_back({k, MechanismEvent::Instant, sm, slot, value, nullptr, cycle});
  }
  std::vector<Event> events_;
};

}  // namespace simtlm::sm
