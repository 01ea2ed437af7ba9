// SmCore's issue stage (docs/timing-model.md): per scheduler, the warps of its partition in
// priority order up to the first that can issue, with each warp's stall reason cached between
// its events; the issued instruction goes into an operand collector and its control flow is
// resolved.
#include <stdexcept>

#include "model/sm/sm_core.h"
#include "model/sm/sm_core_state.h"

#include "model/regfile/operands.h"

namespace simtlm::sm {

// The checks in this order; the first that fails is the warp's stall reason. Execution units
// are not checked here: an instruction waits for its unit in its operand collector.
SmCore::Stall SmCore::issueStall(int slot) {
  const Warp& w = warps_[static_cast<size_t>(slot)];
  if (!w.active || w.done) return Stall::NotLive;
  if (w.atBarrier) return Stall::Barrier;
  if (mech_ && mech_->holdsIssue(slot)) {
    look_[static_cast<size_t>(slot)] |= kWoken;  // (a hold may end with time alone: the next look asks again)
    return Stall::Sync;
  }
  if (w.ibuf.empty()) return Stall::EmptyIBuffer;
  const IBufferEntry& e = w.ibuf.front();
  if (e.skip) return Stall::Dependence;  // a mechanism's skip waiting to take effect
  if (!scoreboard_.canIssue(slot, e.touched)) return Stall::Dependence;
  if (decodedAt(e.pc).global && !mem_.canAccept()) return Stall::Memory;
  // Barriers and fences wait for the warp's own memory instructions to complete, including
  // those still in an operand collector.
  if ((e.instr.op == isa::Op::BAR_SYNC || e.instr.op == isa::Op::MEMBAR) &&
      (w.pendingMem || ops_.undispatchedMemory(slot)))
    return Stall::Memory;
  if (!ops_.canAccept()) return Stall::Structural;
  return Stall::None;
}

void SmCore::issue(uint64_t cycle) {
  const int S = cfg_.issue.schedulers;
  const int perScheduler = cfg_.sm.num_warps / S;
  int s = 0;
  for (; s < S && fault_.empty(); ++s) {
    // A scheduler that found no ready warp sleeps until something that can change the readiness
    // of one of its warps happens (issueVersion()), and counts the same stall meanwhile. A warp
    // waiting for the memory port is covered when the port counts what frees it
    // (GlobalMemoryPort::acceptVersion); a hold that ends with time is not: no sleep then.
    SchedulerMemo& memo = memo_[static_cast<size_t>(s)];
    if (memo.asleep && memo.version == memoVersion(s, memo.structural, memo.port)) {
      countStall(memo.stall, memo.cpi);
      if (observer_) observeStall(memo.warp, memo.stall, cycle);
      continue;
    }
    memo.asleep = false;
    // With a mechanism that couples warps, front fix-ups first, for every warp of the partition
    // that can need one (retired skips and their flushes change what fetch sees): those woken
    // since their front was last found neither a skip to retire nor stale. (A skip waits for
    // the warp's own dispatches and writes, or for the mechanism, which wakes the warp.)
    // Otherwise a front goes stale only through events that wake the warp; restall() checks it
    // then.
    if (coupled_) {
      uint64_t* fix = &fixups_[static_cast<size_t>(s * candidateWords_)];
      for (int i = 0; i < perScheduler; ++i) {
        const uint64_t rest = fix[i / 64] >> (i % 64);  // (read again: a fix-up may wake a later warp)
        if (!rest) {
          i = (i / 64) * 64 + 63;
          continue;
        }
        i += __builtin_ctzll(rest);
        if (i >= perScheduler) break;
        const int slot = i * S + s;
        Warp& w = warps_[slot];
        if (w.active && !w.done && !w.ibuf.empty()) {
          if (w.ibuf.front().skip) mech_->retireSkips(slot);
          if (!w.ibuf.empty() && w.ibuf.front().pc != w.pc) dropStaleFront(slot);
        }
        // Nothing left to fix until the warp is woken again (a skip still at the front waits).
        setBit(fix[i / 64], i % 64, false);
      }
    }
    // Then the scheduler's warps in its priority order, up to the first that can issue. Only the
    // candidates are looked at: every other warp keeps a cached stall that cannot be None.
    WarpScheduler& sched = *schedulers_[s];
    const WarpScheduler::Priority prio = sched.priority();
    int pick = -1;
    bool portWait = false, structural = false;  // a warp waits for something that frees by itself
    auto look = [&](int i) {
      const Stall st = stallOf(s, i);
      portWait = portWait || st == Stall::Memory || st == Stall::Sync;
      structural = structural || st == Stall::Structural;
      if (st == Stall::None) pick = i;
    };
    if (prio.first >= 0) look(prio.first);
    const uint64_t* cand = &candidates_[static_cast<size_t>(s * candidateWords_)];
    // One candidate word with at most one candidate besides `first` (the common case): it needs
    // no ordering.
    const uint64_t rest = candidateWords_ > 1 ? ~uint64_t{0}
                          : prio.first >= 0  ? cand[0] & ~(uint64_t{1} << prio.first)
                                             : cand[0];
    if (pick < 0 && !(rest & (rest - 1))) {
      if (rest) look(__builtin_ctzll(rest));
    } else if (pick < 0) {
      std::fill(byPosition_.begin(), byPosition_.end(), 0);
      for (int wd = 0; wd < candidateWords_; ++wd)
        for (uint64_t bits = cand[wd]; bits; bits &= bits - 1) {
          const int i = wd * 64 + __builtin_ctzll(bits);
          if (i == prio.first) continue;
          const int p = prio.position[i];
          byPosition_[static_cast<size_t>(p / 64)] |= uint64_t{1} << (p % 64);
        }
      for (int wd = 0; wd < candidateWords_ && pick < 0; ++wd)
        for (uint64_t bits = byPosition_[static_cast<size_t>(wd)]; bits && pick < 0; bits &= bits - 1)
          look(prio.order[wd * 64 + __builtin_ctzll(bits)]);
    }
    if (pick >= 0) {
      cpi_[static_cast<int>(CpiCategory::Issued)]++;
      sched.issued(pick);
      issueFrom(s, pick, cycle);
      continue;
    }
    // Nothing can issue (every candidate was looked at, every other warp's cached stall holds):
    // the stall of the oldest live warp.
    const int oldest = oldestLive(s);
    const Stall first = oldest >= 0 ? stallCache_[static_cast<size_t>(oldest)] : Stall::NotLive;
    const CpiCategory cpi = cpiOf(first, oldest);
    countStall(first, cpi);
    if (observer_) observeStall(oldest, first, cycle);
    // A wait that ends by itself: the scheduler sleeps only if every such wait is for the memory
    // port, whose count then wakes it, and the CPI category cannot change with time alone (a
    // collector wait counts as `operands` until an instruction in a collector is ready).
    if (!portWait || (portTracked_ && cpi != CpiCategory::Operands && onlyPortWaits(s)))
      memo = {true, memoVersion(s, structural, portWait), first, oldest, structural, portWait, cpi};
  }
  // (A fault ends the run in this cycle: the schedulers not looked at count as idle, so that
  // the CPI stack still sums to cycles x schedulers.)
  cpi_[static_cast<int>(CpiCategory::Idle)] += static_cast<uint64_t>(S - s);
}

// One category per scheduler cycle in which nothing issued: the oldest live warp's stall
// (issueStall's order: barrier, the mechanism's hold, empty I-buffer, dependence, memory port,
// operand collector), refined by what it waits for.
CpiCategory SmCore::cpiOf(Stall st, int slot) const {
  switch (st) {
    case Stall::Barrier: return CpiCategory::Barrier;
    case Stall::Sync: return CpiCategory::Mechanism;
    case Stall::EmptyIBuffer:  // (a mechanism that holds fetch is the one the warp waits for)
      return mech_ && mech_->holdsFetch(slot) ? CpiCategory::Mechanism : CpiCategory::Fetch;
    case Stall::Dependence: {
      const Warp& w = warps_[static_cast<size_t>(slot)];
      const IBufferEntry& e = w.ibuf.front();
      if (e.skip) return CpiCategory::Mechanism;  // a skip waiting to take effect
      const isa::RegSet blocked = scoreboard_.blocking(slot, e.touched);
      const int r = blocked.gpr ? __builtin_ctzll(blocked.gpr) : 64 + __builtin_ctz(blocked.pred | 0x100u);
      return r < kWaitRegs ? waitsOn_[static_cast<size_t>(slot) * kWaitRegs + static_cast<size_t>(r)]
                           : CpiCategory::DepAlu;
    }
    case Stall::Memory: {  // the memory port, or bar.sync/membar waiting for its memory instructions
      const Warp& w = warps_[static_cast<size_t>(slot)];
      const isa::Op op = w.ibuf.front().instr.op;
      return op == isa::Op::BAR_SYNC || op == isa::Op::MEMBAR ? CpiCategory::DepGlobal : CpiCategory::UnitBusy;
    }
    case Stall::Structural: return ops_.waitingForUnits(cycleNow_) ? CpiCategory::UnitBusy : CpiCategory::Operands;
    default: return CpiCategory::Idle;  // NotLive (None cannot be the oldest's stall here)
  }
}

void SmCore::noteWrites(int slot, const isa::RegSet& w, CpiCategory c) {
  CpiCategory* row = &waitsOn_[static_cast<size_t>(slot) * kWaitRegs];
  for (uint64_t g = w.gpr; g; g &= g - 1) row[__builtin_ctzll(g)] = c;
  for (unsigned p = w.pred; p; p &= p - 1) row[64 + __builtin_ctz(p)] = c;
}

// Up to issue.max_per_warp instructions of warp i of scheduler s, in program order, while the
// next can issue (and, with issue.dual_issue_diff_units, goes to a unit none of the earlier ones
// went to): GPGPU-Sim's -gpgpu_max_insn_issue_per_warp and -gpgpu_dual_issue_diff_exec_units.
void SmCore::issueFrom(int s, int i, uint64_t cycle) {
  const int slot = i * cfg_.issue.schedulers + s;
  const Warp& w = warps_[static_cast<size_t>(slot)];
  uint32_t units = 0;  // bit per isa::Unit of what issued
  for (int k = 0; k < cfg_.issue.max_per_warp; ++k) {
    if (k > 0) {
      if (!fault_.empty() || stallOf(s, i) != Stall::None || w.ibuf.front().pc != w.pc) return;
      const uint32_t unit = 1u << static_cast<int>(decodedAt(w.pc).unit);
      if (cfg_.issue.dual_issue_diff_units && (units & unit)) return;
      dualIssued_++;
    }
    units |= 1u << static_cast<int>(decodedAt(w.pc).unit);
    execute(slot, cycle);
  }
}

// Whether no warp of scheduler s waits for something that ends with time but the memory port:
// none is held by a mechanism (Sync), and each Memory stall is a global access at the front (not
// a barrier or fence waiting for its memory instructions). Every warp with such a stall is a
// candidate, so issue() has just looked at it.
bool SmCore::onlyPortWaits(int s) const {
  const int S = cfg_.issue.schedulers;
  for (int slot = s; slot < static_cast<int>(warps_.size()); slot += S) {
    const Stall st = stallCache_[static_cast<size_t>(slot)];
    if (st == Stall::Sync || (st == Stall::Memory && !(look_[static_cast<size_t>(slot)] & kFrontGlobal))) return false;
  }
  return true;
}

// The cached answer holds while that warp is live: warps admitted later are younger, and
// wakeAll() (admission, retirement) forgets it.
int SmCore::oldestLive(int s) {
  const int S = cfg_.issue.schedulers;
  int& oldest = oldestLive_[static_cast<size_t>(s)];
  if (oldest >= 0 && stallCache_[static_cast<size_t>(oldest)] != Stall::NotLive) return oldest;
  oldest = -1;
  uint64_t age = ~uint64_t{0};
  for (int slot = s; slot < static_cast<int>(warps_.size()); slot += S)
    if (stallCache_[static_cast<size_t>(slot)] != Stall::NotLive && warpAge_[static_cast<size_t>(slot)] < age) {
      oldest = slot;
      age = warpAge_[static_cast<size_t>(slot)];
    }
  return oldest;
}

// Entries fetched down a path the warp did not take are dropped before it can issue.
void SmCore::dropStaleFront(int slot) {
  Warp& w = warps_[slot];
  if (mech_) mech_->flushed(slot);
  w.ibuf.flush();
  w.fetchPc = w.pc;
  w.fetchBlocked = false;
  w.epoch++;
  flushes_++;
  wake(slot);
}

// A held register is pending like one with a write in flight; its release is a scoreboard
// release (an event, the warp woken).
void SmCore::holdRegister(int slot, uint8_t reg, bool hold) {
  if (hold) {
    waitsOn_[static_cast<size_t>(slot) * kWaitRegs + reg] = CpiCategory::Mechanism;
    return scoreboard_.hold(slot, reg);
  }
  scoreboard_.unhold(slot, reg);
  opEvents_++;
  wake(slot);
}

bool SmCore::advance(int slot, const isa::Instr& in, uint32_t exec, uint32_t pc) {
  Warp& w = warps_[static_cast<size_t>(slot)];
  const bool diverged = w.ctx->advance(in, exec, image_.reconvergence[isa::Kernel::indexOf(pc)]);
  if (!w.ctx->done()) w.pc = w.ctx->pc();
  return diverged;
}

SmCore::Stall SmCore::restall(int slot) {
  Warp& w = warps_[slot];
  if (!coupled_ && w.active && !w.done && !w.ibuf.empty() && w.ibuf.front().pc != w.pc)
    dropStaleFront(slot);
  look_[static_cast<size_t>(slot)] =
      !w.ibuf.empty() && decodedAt(w.ibuf.front().pc).global ? kFrontGlobal : 0;
  return stallCache_[static_cast<size_t>(slot)] = issueStall(slot);
}

void SmCore::countStall(Stall first, CpiCategory cpi, uint64_t n) {
  stallNoReady_ += n;
  cpi_[static_cast<int>(cpi)] += n;
  switch (first) {
    case Stall::Barrier: stallBarrier_ += n; break;
    case Stall::EmptyIBuffer: stallEmpty_ += n; break;
    case Stall::Dependence: stallDependence_ += n; break;
    case Stall::Memory: stallMemory_ += n; break;
    case Stall::Structural: stallStructural_ += n; break;
    case Stall::Sync: stallSync_ += n; break;
    default: stallIdle_ += n; break;
  }
}

const char* stallName(StallReason r) {
  static const char* const names[kStallReasons] = {"empty_ibuffer", "dependence", "barrier",
                                                   "memory", "structural", "sync"};
  return names[static_cast<int>(r)];
}

void SmCore::observeStall(int slot, Stall st, uint64_t cycle) const {
  StallReason r;
  switch (st) {
    case Stall::EmptyIBuffer: r = StallReason::EmptyIBuffer; break;
    case Stall::Dependence: r = StallReason::Dependence; break;
    case Stall::Barrier: r = StallReason::Barrier; break;
    case Stall::Memory: r = StallReason::Memory; break;
    case Stall::Structural: r = StallReason::Structural; break;
    case Stall::Sync: r = StallReason::Sync; break;
    default: return;  // issue.stall.idle: no warp
  }
  if (slot >= 0) observer_->stalled(id_, slot, r, cycle);
}

void SmCore::execute(int slot, uint64_t cycle) {
  Warp& w = warps_[slot];
  isa::WarpContext& ctx = *w.ctx;
  const IBufferEntry e = w.ibuf.front();
  w.ibuf.pop();
  const isa::Instr& in = e.instr;
  const DecodedInstr& d = decodedAt(e.pc);
  const uint32_t active = ctx.activeMask();
  const uint32_t exec = ctx.execMask(in);  // final: the guard is a scoreboarded source
  if (issueLog_.should_log(spdlog::level::trace)) traceIssue(slot, e, exec, cycle);
  warpInstrs_++;
  threadInstrs_ += static_cast<uint64_t>(__builtin_popcount(active));
  if (observer_) observer_->issued(id_, slot, e.pc, cycle);

  // A barrier takes effect at issue: the warp issues nothing more until its block is there.
  if (d.format == isa::Format::Barrier) {
    if (exec != active || active != (ctx.liveMask() & ~ctx.exitedMask())) {
      setFault(slot, "bar.sync executed by a diverged warp or under a partly false predicate");
      return;
    }
    w.atBarrier = true;
    blocks_[w.block].warpsAtBarrier++;
    w.barrierId = in.imm;
    w.barrierPc = e.pc;
    if (observer_) observer_->barrierArrived(id_, slot, cycle);
  }
  // Destinations are pending from issue until their register-file write; the instruction
  // waits in an operand collector for its sources, then for its unit, and executes at
  // dispatch (executeDispatched). Control flow is resolved here, at issue.
  if (!e.written.empty()) {
    scoreboard_.reserve(slot, e.written);
    noteWrites(slot, e.written, d.waitsAs);
  }
  ops_.accept(slot, in, exec, e.pc, cycle, d.sources, d.unit, d.memory);
  if (mech_) mech_->issuing(slot, e, exec);
  const bool diverged = advance(slot, in, exec, e.pc);
  // A control instruction resolved, or a redirect (which flushes below) dropped whatever blocked
  // fetch: a control instruction or bar.sync fetched behind a path that falls into a join that is
  // one. (A branch barrier the hooks below enter blocks it again.)
  if (isControl(in.op) || (!ctx.done() && w.pc != e.pc + 8)) w.fetchBlocked = false;
  if (mech_) mech_->issued(slot, e, diverged);
  if (!ctx.done() && w.pc != e.pc + 8) {  // control flow changed: redirect fetch
    if (mech_) mech_->flushed(slot);
    w.ibuf.flush();
    w.fetchPc = w.pc;
    w.epoch++;
    flushes_++;
  }
  wake(slot);
  Block& b = blocks_[w.block];
  if (ctx.done()) {
    w.done = true;
    b.warpsDone++;
    if (b.warpsDone == static_cast<int>(b.warps.size())) blocksFinished_++;
    if (mech_) mech_->warpExited(slot);
    if (observer_) observer_->warpExited(id_, slot, cycle);
  }
  if (w.atBarrier || w.done) releaseBarrier(b);
  if (b.warpsDone == static_cast<int>(b.warps.size())) retireBlock(b);  // (nothing to retire before)
}

void SmCore::complete(int slot, const isa::Instr& in, uint64_t when, const ResultChannel& to) {
  scoreboard_.reserve(slot, in);
  blockResults_[static_cast<size_t>(warps_[static_cast<size_t>(slot)].block)]++;
  resultEvents_++;
  if (directTick_) {  // for the cycle write-back would take it from `to`
    const uint64_t taken = to.out == executeResults_.out ? stepCycle_ + 1 : stepCycle_;
    return results_.add(InFlight{when, slot, in, ops_.dest(slot, in)}, std::max(when, taken), taken);
  }
  if (!to.out->nb_write(InFlight{when, slot, in, ops_.dest(slot, in)}))
    throw std::logic_error("SmCore: a result channel to write-back is full");
  sentSinceTaken_ = std::min(sentSinceTaken_, when);
}

}  // namespace simtlm::sm
