#include "model/sm/observer_recorder.h"

namespace simtlm::sm {

void ObserverRecorder::replayInto(SmObserver& to) {
  for (const Event& e : events_) switch (e.kind) {
      case Kind::KernelStarted: to.kernelStarted(e.sm, e.cycle); break;
      case Kind::WarpAdmitted: to.warpAdmitted(e.sm, e.slot, e.cycle); break;
      case Kind::Issued: to.issued(e.sm, e.slot, e.value, e.cycle); break;
      case Kind::Stalled: to.stalled(e.sm, e.slot, static_cast<StallReason>(e.value), e.cycle); break;
      case Kind::BarrierArrived: to.barrierArrived(e.sm, e.slot, e.cycle); break;
      case Kind::BarrierReleased: to.barrierReleased(e.sm, e.slot, e.cycle); break;
      case Kind::WarpExited: to.warpExited(e.sm, e.slot, e.cycle); break;
      case Kind::WarpRetired: to.warpRetired(e.sm, e.slot, e.cycle); break;
      case Kind::Mechanism: to.mechanismEvent(e.sm, e.slot, e.mechanismKind, e.what, e.cycle); break;
    }
  events_.clear();
}

}  // namespace simtlm::sm
