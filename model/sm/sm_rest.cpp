// An SM at rest (docs/timing-model.md, "Nothing is scanned that cannot have changed"): when it
// may fall asleep after a cycle (maybeSleep), and what the cycles it rested would have counted
// (countRest).
#include <algorithm>

#include "model/sm/sm_core.h"
#include "model/sm/sm_core_state.h"

namespace simtlm::sm {

// What beginCycle() would have counted in each cycle restsIn() let pass, from restFrom_ to
// `cycle` (not included): the scheduler stalls stay those of the cycle the SM fell asleep in.
void SmCore::countRest(uint64_t cycle) {
  const uint64_t n = cycle - restFrom_;
  restFrom_ = kNoRest;
  cycles_ += n;
  activeCycles_ += n;
  for (const SchedulerMemo& m : memo_) countStall(m.stall, m.cpi, n);
  if (restDispatchStalls_ >= 0) ops_.countRest(n, static_cast<uint64_t>(restDispatchStalls_));
}

void SmCore::maybeSleep(uint64_t cycle) {
  if (mech_ || !fault_.empty() || !shared_->idle()) return;
  const bool opsIdle = ops_.idle();
  if (!opsIdle && (!portTracked_ || mem_.canAccept())) return;
  if (cfg_.frontend.clock_divider > 1) return;  // (a sleep would not wake at the next front-end cycle)
  if (!fetchAsleep_ || fetchVersion_ != stateVersion()) return;
  bool port = false;
  for (size_t s = 0; s < memo_.size(); ++s) {
    if (!memo_[s].asleep || memo_[s].version != memoVersion(static_cast<int>(s), memo_[s].structural, memo_[s].port)) return;
    port = port || memo_[s].port;
  }
  // Instructions in collectors may stay while the memory port refuses: each is then refused
  // (or waits for an older one of its warp) in every cycle until the port frees.
  restDispatchStalls_ = -1;
  if (!opsIdle) {
    restDispatchStalls_ = ops_.restingDispatch(cycle, [&](const CollectedInstr& c) { return decodedAt(c.pc).global; });
    if (restDispatchStalls_ < 0) return;
    port = true;
  }
  // (results execute sent this cycle: still in their channel under step())
  uint64_t until = std::min(sentSinceTaken_, results_.earliest());
  for (const auto& [i, id] : fetchList_) {  // (a fetch waiting for its fill wakes the SM with it)
    const Warp& w = warps_[static_cast<size_t>(i)];
    if (w.fetchInFlight && w.fetchId == id && w.fetchReadyAt != kNotYet) until = std::min(until, w.fetchReadyAt);
  }
  if (until <= cycle + 1) return;
  sleepUntil_ = until;
  sleepOnPort_ = port;
  sleepKey_ = sleepKey();
}

}  // namespace simtlm::sm
