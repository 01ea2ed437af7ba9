// What an observer outside the SM (a warp timeline, cli/timeline.h) sees of its pipeline: issue,
// the issue stall of each scheduler's oldest warp, barrier waits, warps arriving and leaving, and
// the events a mechanism reports of its own (SmContext::report). The SM calls these only when an
// observer is attached (SmCore::setObserver); without one it pays a null test per hook. The
// observer only records: it must not act on the SM. `cycle` is the engine's clock
// (GridEngine::now), the one `kernelStarted` gives the kernel's first cycle in.
#pragma once

#include <cstdint>

namespace simtlm::sm {

// Why a scheduler issued nothing, as issue.stall.* counts it (docs/statistics.md): the reason
// of the oldest live warp of its partition. (A partition without a live warp is issue.stall.idle,
// which no warp carries: it is not reported.)
enum class StallReason : uint8_t { EmptyIBuffer, Dependence, Barrier, Memory, Structural, Sync };
constexpr int kStallReasons = 6;
// The statistic's last name part: "empty_ibuffer", "dependence", ...
const char* stallName(StallReason r);

// A mechanism's own event of a warp: a moment, or one cycle of a wait (consecutive cycles make
// one wait), or the begin and end of a wait.
enum class MechanismEvent : uint8_t { Instant, WaitCycle, WaitBegin, WaitEnd };

class SmObserver {
 public:
  virtual ~SmObserver() = default;
  virtual void kernelStarted(int sm, uint64_t cycle) = 0;
  virtual void warpAdmitted(int sm, int slot, uint64_t cycle) = 0;
  // The warp issued the instruction at `pc` (twice in a cycle when it dual-issues).
  virtual void issued(int sm, int slot, uint32_t pc, uint64_t cycle) = 0;
  virtual void stalled(int sm, int slot, StallReason why, uint64_t cycle) = 0;
  // The warp's bar.sync issued in `cycle`; the barrier of its block opened in `cycle`.
  virtual void barrierArrived(int sm, int slot, uint64_t cycle) = 0;
  virtual void barrierReleased(int sm, int slot, uint64_t cycle) = 0;
  virtual void warpExited(int sm, int slot, uint64_t cycle) = 0;   // its last instruction issued
  virtual void warpRetired(int sm, int slot, uint64_t cycle) = 0;  // its block left the SM
  // `what` names the event (a string literal of the mechanism's, stable for the run).
  virtual void mechanismEvent(int sm, int slot, MechanismEvent kind, const char* what, uint64_t cycle) = 0;
};

}  // namespace simtlm::sm
