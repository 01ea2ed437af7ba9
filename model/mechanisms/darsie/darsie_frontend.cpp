// DARSIE's front end and issue side (docs/darsie.md; DARSIE Sec. 4.3-4.5): the skipper beside
// the fetch scheduler, leader election, followers' skips retired in program order through the
// rename pool, majority-path branch barriers, and leaving the majority path.
#include <algorithm>
#include <cstring>
#include <sstream>

#include "model/mechanisms/darsie/darsie_mechanism.h"
#include "model/regfile/operands.h"
#include "model/sm/operand_stage.h"
#include "model/sm/scoreboard.h"

namespace simtlm::darsie {

namespace {

bool isGuarded(const isa::Instr& in) { return in.guard != isa::kPredTrue || in.guardNeg; }

// What an observer of the SM (a warp timeline, docs/timeline.md) is told, besides the instants
// "leader" (an election), "skip" (a follower's skip retired) and "majority leave": a follower's
// probe waiting for its leader's write-back (darsie.leaderwb_waits, per cycle) and a warp
// waiting at a branch barrier of the majority path (darsie.branch_stall_cycles).
constexpr const char* kFollowerWait = "follower wait";
constexpr const char* kMajorityWait = "majority-path wait";

}  // namespace

// --- launch, admission, retirement ----------------------------------------------------------

sm::MechanismResources DarsieMechanism::resources(const config::GpuConfig& cfg) {
  return {cfg.darsie.rename_regs, !cfg.darsie.rename_bank_conflicts, "DARSIE's rename pool, darsie.rename_regs"};
}

DarsieMechanism::DarsieMechanism(sm::SmContext& sm, stats::Registry& stats, DarsieVariant variant)
    : sm_(sm) {
  d_.ignoreStores = variant.ignoreStores;
  d_.noCfSync = variant.noCfSync;
  d_.earlySkip = variant.earlySkip;
  registerStats(stats);
}

// The state lives as long as the SM (its counters are registered); a launch resets the rest.
void DarsieMechanism::kernelStarted() {
  DarsieState& d = d_;
  d.poolRegs = 0;
  const isa::Kernel& k = *sm_.image.kernel;
  const uint32_t W = sm_.image.launch.warpSize;
  d.marking = markForLaunch(k, sm_.image.launch.block, W, sm_.cfg.darsie.tid_yz);
  d.warps.assign(sm_.warps.size(), DarsieWarp{});
  d.blocks.clear();
  d.blocks.resize(sm_.blocks.size());
  d.cand.assign((sm_.warps.size() + 63) / 64, ~uint64_t{0});
  d.parked.assign(d.cand.size(), 0);
  d.parkedWb.assign(d.cand.size(), 0);
  d.bumpEpoch();
  // Rename registers per block (Sec. 4.3.1): up to darsie.rename_regs, fewer when that would
  // lower the number of resident blocks the baseline reaches.
  const uint64_t wpb = (sm_.image.launch.block.count() + W - 1) / W;
  if (wpb > 64 || d.marking.skippableCount == 0) return;  // masks hold 64 warps
  const uint64_t blockRegs = wpb * W * static_cast<uint64_t>(k.numRegs);
  uint64_t fit = std::min<uint64_t>(static_cast<uint64_t>(sm_.cfg.sm.max_blocks),
                                    static_cast<uint64_t>(sm_.cfg.sm.num_warps) / wpb);
  if (blockRegs) fit = std::min<uint64_t>(fit, static_cast<uint64_t>(sm_.cfg.sm.num_registers) / blockRegs);
  if (k.sharedBytes) fit = std::min<uint64_t>(fit, static_cast<uint64_t>(sm_.cfg.shared.size) / k.sharedBytes);
  if (fit == 0) return;
  const uint64_t spare = static_cast<uint64_t>(sm_.cfg.sm.num_registers) / fit - blockRegs;
  d.poolRegs = static_cast<int>(std::min<uint64_t>(static_cast<uint64_t>(sm_.cfg.darsie.rename_regs), spare / W));
}

int DarsieMechanism::regsPerBlock() const {
  return d_.poolRegs * static_cast<int>(sm_.image.launch.warpSize);
}

void DarsieMechanism::blockAdmitted(int b) {
  DarsieState& d = d_;
  const sm::BlockSlot& blk = sm_.blocks[b];
  d.blocks[b].emplace(sm_.cfg.darsie.skip_entries, d.poolRegs, static_cast<int>(sm_.image.launch.warpSize),
                      static_cast<int>(blk.warps.size()), sm_.image.kernel->numRegs);
  for (int s : blk.warps) {
    d.warps[s] = DarsieWarp{};
    d.warps[s].leadWrite.assign(static_cast<size_t>(sm_.image.kernel->numRegs), -1);
    if (d.earlySkip) {
      d.warps[s].heldFor.assign(static_cast<size_t>(sm_.image.kernel->numRegs), -1);
      d.warps[s].heldSince.assign(static_cast<size_t>(sm_.image.kernel->numRegs), 0);
    }
    if (d.poolRegs > 0 && eligible(sm_.warps[s])) d.blocks[b]->majority |= bitOf(sm_.warps[s].indexInBlock);
    touch(s);
  }
}

void DarsieMechanism::blockRetired(int b) {
  d_.liveEntries -= static_cast<uint64_t>(d_.blocks[b]->table.occupancy());
  d_.retiredTaken += d_.blocks[b]->pool.versionsCreated();
  d_.retiredReleased += d_.blocks[b]->pool.versionsReleased();
  d_.blocks[b].reset();
  d_.bumpEpoch();
}

void DarsieMechanism::woken(int slot) {
  if (slot >= 0) return touch(slot);
  std::fill(d_.cand.begin(), d_.cand.end(), ~uint64_t{0});
  std::fill(d_.parked.begin(), d_.parked.end(), 0);
  std::fill(d_.parkedWb.begin(), d_.parkedWb.end(), 0);
}

// Full warps without divergence or exited lanes may lead and follow (Sec. 4.5, rule 2).
bool DarsieMechanism::eligible(const sm::WarpSlot& w) const {
  const uint32_t W = sm_.image.launch.warpSize;
  const uint32_t full = W >= 32 ? ~0u : (1u << W) - 1;
  return w.ctx->liveMask() == full && w.ctx->exitedMask() == 0 && w.ctx->stackDepth() == 1;
}

// --- the skipper, beside the fetch scheduler -------------------------------------------------

// Also a warp waiting at bar.sync: fetch stops after it until the barrier opens (positions
// restart there, barrierReleased), and a flush while the warp waits would let fetch run past it.
bool DarsieMechanism::holdsFetch(int slot) const {
  const sm::WarpSlot& w = sm_.warps[slot];
  return w.atBarrier || mustDecide(w, slot);
}

bool DarsieMechanism::mustDecide(const sm::WarpSlot& w, int slot) const {
  const DarsieState& d = d_;
  const size_t i = isa::Kernel::indexOf(w.fetchPc);
  return i < d.marking.skippable.size() && d.marking.skippable[i] &&
         d.warps[slot].decidedPc != w.fetchPc && (d.blocks[w.block]->majority & bitOf(w.indexInBlock));
}

// Every cycle the skipper looks at the warps that must decide their fetch PC, round robin from
// `rr`. Only the candidates (DarsieState::cand) are visited, in that order: every other warp has
// nothing to decide. A parked warp's probe would wait again: it counts its wait without looking
// the table up (and, waiting for an older instance, takes its read port).
void DarsieMechanism::beforeFetch(uint64_t cycle) {
  DarsieState& d = d_;
  sm_.now = cycle;
  d.occupancySum += d.liveEntries;
  uint32_t probed[64];
  int nprobed = 0, skips = 0;
  const unsigned n = static_cast<unsigned>(sm_.warps.size());
  // The PC coalescer: warps at the same PC share one read port. False: no port left.
  auto port = [&](uint32_t pc) {
    if (std::find(probed, probed + nprobed, pc) != probed + nprobed) return true;
    if (nprobed == sm_.cfg.darsie.skip_ports) {
      d.portLimited++;
      return false;
    }
    probed[nprobed++] = pc;
    d.tableLookups++;
    return true;
  };
  const unsigned start = d.rr % n;
  for (int pass = 0; pass < 2; ++pass) {
    const unsigned lo = pass == 0 ? start : 0, hi = pass == 0 ? n : start;
    // (Bits are read again at every step: a probe may make a later warp a candidate.)
    for (unsigned slot = lo; slot < hi; ++slot) {
      const size_t wd = slot / 64;
      const uint64_t cand = d.cand[wd] & (~uint64_t{0} << (slot % 64));
      const uint64_t bits = cand & ~d.parkedWb[wd];
      // The warps waiting for LeaderWB before the next one to visit (and before hi) wait again:
      // counted as a run (a probe that bumps the epoch makes the later ones candidates again).
      if (const uint64_t waiting = cand & d.parkedWb[wd]) {
        uint64_t before = bits ? (bits & (~bits + 1)) - 1 : ~uint64_t{0};
        if (hi - wd * 64 < 64) before &= (uint64_t{1} << (hi - wd * 64)) - 1;
        if (waiting & before) countLeaderWbWaits(wd, waiting & before);
      }
      if (!bits) {
        slot = static_cast<unsigned>(wd * 64 + 63);
        continue;
      }
      slot = static_cast<unsigned>(wd * 64) + static_cast<unsigned>(__builtin_ctzll(bits));
      if (slot >= hi) break;
      const uint64_t m = uint64_t{1} << (slot % 64);
      DarsieWarp& dw = d.warps[slot];
      if ((d.parked[wd] & m) && dw.parkEpoch == d.epoch) {
        // A follower waiting for LeaderWB sits in the entry's warps-waiting mask until the
        // leader's write-back wakes it (Sec. 4.3.2): it takes no read port meanwhile. A warp
        // waiting for an older instance to leave would probe again.
        if (dw.parkKind == DarsieWarp::Park::LeaderWB) {
          d.leaderWbWaits++;
          sm_.report(sm::MechanismEvent::WaitCycle, kFollowerWait, static_cast<int>(slot));
        } else if (port(dw.parkPc)) d.lapWaits++;
        continue;
      }
      d.parked[wd] &= ~m;
      sm::WarpSlot& w = sm_.warps[slot];
      if (!w.active || w.done || w.fetchInFlight || w.fetchBlocked || !mustDecide(w, static_cast<int>(slot)) ||
          w.ibuf.skips() >= sm_.cfg.darsie.skip_entries) {
        d.cand[wd] &= ~m;  // nothing to decide until the warp is woken or changed
        continue;
      }
      if (!port(w.fetchPc)) continue;
      switch (waitsAgain(w, dw)) {  // (what probe() would do, without its lookup)
        case Wait::Sync: d.freelistWait++; break;
        case Wait::LeaderWB:
          d.leaderWbWaits++;
          sm_.report(sm::MechanismEvent::WaitCycle, kFollowerWait, static_cast<int>(slot));
          park(static_cast<int>(slot), DarsieWarp::Park::LeaderWB, w.fetchPc, dw.parkEntry);
          break;
        case Wait::None: probe(static_cast<int>(slot), skips); break;
      }
    }
  }
  d.rr = (d.rr + 1) % n;
}

// The probe waited and will wait again until the warp or the table changes.
void DarsieMechanism::park(int slot, DarsieWarp::Park kind, uint32_t pc, int entry) {
  DarsieWarp& dw = d_.warps[slot];
  dw.parkKind = kind;
  dw.parkPc = pc;
  if (entry >= 0) dw.parkEntry = entry;
  dw.parkEpoch = d_.epoch;
  const uint64_t m = uint64_t{1} << (slot % 64);
  d_.parked[static_cast<size_t>(slot) / 64] |= m;
  if (kind == DarsieWarp::Park::LeaderWB) d_.parkedWb[static_cast<size_t>(slot) / 64] |= m;
  else d_.parkedWb[static_cast<size_t>(slot) / 64] &= ~m;
}

void DarsieMechanism::countLeaderWbWaits(size_t wd, uint64_t waiting) {
  d_.leaderWbWaits += static_cast<uint64_t>(__builtin_popcountll(waiting));
  if (!sm_.observer) return;
  for (; waiting; waiting &= waiting - 1)
    sm_.report(sm::MechanismEvent::WaitCycle, kFollowerWait, static_cast<int>(wd * 64 + static_cast<size_t>(__builtin_ctzll(waiting))));
}

// The PC skip table is probed for the warp's fetch PC (Sec. 4.3.5).
void DarsieMechanism::probe(int slot, int& skips) {
  DarsieState& d = d_;
  sm::WarpSlot& w = sm_.warps[slot];
  DarsieWarp& dw = d.warps[slot];
  DarsieBlock& db = *d.blocks[w.block];
  const int me = static_cast<int>(w.indexInBlock);
  const uint64_t bit = bitOf(me);
  const uint32_t pc = w.fetchPc;
  const uint64_t pos = dw.fetchPos;
  const size_t idx = isa::Kernel::indexOf(pc);
  auto decide = [&](int entry) {
    dw.decidedPc = pc;
    dw.decidedEntry = entry;
    if (entry < 0) d.privateExec++;
    sm_.event();  // the fetch scheduler may fetch it now
    sm_.wake(slot);
  };
  const int e = db.table.find(pc);
  if (e >= 0) {
    SkipEntry& x = db.table[e];
    if (x.instance < pos) {  // an older instance of this PC is still in the table
      d.lapWaits++;
      return park(slot, DarsieWarp::Park::Lap, pc);
    }
    if (x.instance > pos || (x.arrived & bit)) return decide(x.leader == me && !x.leaderWB ? e : -1);
    if (x.invalid) {  // executes the load itself (its value checked, but under ignore-store)
      if (!d.ignoreStores) checkLoad(slot, x, sm_.image.kernel->instrs[idx]);
      x.arrived |= bit;
      decide(-1);
      return sweep(w.block);
    }
    if (x.sync) {  // freelist synchronization point: every majority warp must arrive first
      x.waiting |= bit;
      if (((x.arrived | x.waiting) & db.majority) != db.majority) {
        d.freelistWait++;
        dw.parkEntry = e;  // (no parking: waitsAgain() checks the entry)
        return;
      }
    }
    if (!x.leaderWB && !d.earlySkip) {  // (darsie-early-skip: the skip's readers wait instead)
      d.leaderWbWaits++;
      sm_.report(sm::MechanismEvent::WaitCycle, kFollowerWait, slot);
      // (At a synchronization point the wait depends on other warps' arrivals: no parking.)
      if (!x.sync) park(slot, DarsieWarp::Park::LeaderWB, pc, e);
      return;
    }
    if (skips >= sm_.cfg.darsie.skips_per_cycle) return;
    skips++;
    x.arrived |= bit;
    x.waiting &= ~bit;
    x.pendingSkips++;
    sm::IBufferEntry s = sm_.decode(pc);
    s.tag = static_cast<int16_t>(e);
    s.skip = true;
    w.ibuf.push(s);
    w.fetchPc += 8;
    dw.fetchPos++;
    sm_.event();
    sm_.wake(slot);  // (its next PC may be one fetch fetches)
    return;
  }
  // No entry: the warp becomes the leader if a register and an entry are free.
  if (db.pool.freeCount() == 0) {
    d.freelistEmpty++;
    return decide(-1);
  }
  int s = db.table.freeSlot();
  if (s < 0 && (s = db.table.evictable()) >= 0) {
    db.pool.release(db.table[s].phys);
    db.table[s] = SkipEntry{};
    d.bumpEpoch();
    d.evictions++;
    d.liveEntries--;
  }
  if (s < 0) {
    d.fullEvents++;
    return decide(-1);
  }
  SkipEntry& x = db.table[s];
  x = SkipEntry{};
  x.valid = true;
  x.pc = pc;
  x.instance = pos;
  x.leader = me;
  x.isLoad = d.marking.isLoad[idx];
  x.isGlobalLoad = d.marking.isGlobalLoad[idx];
  x.phys = db.pool.take(sm_.image.kernel->instrs[idx].d);
  x.created = db.counter++;
  // Majority warps already past this position passed this instance (executing it themselves).
  x.arrived = bit;
  for (int o : sm_.blocks[w.block].warps)
    if ((db.majority & bitOf(sm_.warps[o].indexInBlock)) && d.warps[o].fetchPos > pos)
      x.arrived |= bitOf(sm_.warps[o].indexInBlock);
  if (db.pool.freeCount() == 0 && !d.noCfSync) {
    x.sync = true;
    d.freelistSyncs++;
  }
  d.elections++;
  sm_.report(sm::MechanismEvent::Instant, "leader", slot);
  d.liveEntries++;
  d.bumpEpoch();
  d.occupancyMax = std::max(d.occupancyMax, static_cast<uint64_t>(db.table.occupancy()));
  decide(s);
}

// Fetch delivered an instruction into the warp's I-buffer.
// A warp that executes a TB-redundant instance itself passes it here: if a leader created an
// entry for that instance after the warp's decision, the warp counts as arrived there.
void DarsieMechanism::delivered(int slot, sm::IBufferEntry& e) {
  DarsieWarp& dw = d_.warps[slot];
  const uint64_t pos = dw.fetchPos++;
  if (e.pc != dw.decidedPc) return;
  e.tag = static_cast<int16_t>(dw.decidedEntry);
  dw.decidedPc = ~0u;
  if (dw.decidedEntry >= 0) return;
  const sm::WarpSlot& w = sm_.warps[slot];
  DarsieBlock& db = *d_.blocks[w.block];
  const int x = db.table.find(e.pc);
  if (x >= 0 && db.table[x].instance == pos) {
    db.table[x].arrived |= bitOf(w.indexInBlock);
    sweep(w.block);
  }
}

// A flush drops what was fetched after the issue point: skips in it are undone.
void DarsieMechanism::flushed(int slot) {
  DarsieState& d = d_;
  sm::WarpSlot& w = sm_.warps[slot];
  DarsieWarp& dw = d.warps[slot];
  for (int i = 0; i < w.ibuf.count(); ++i)
    if (const sm::IBufferEntry& e = w.ibuf.entry(i); e.skip) {
      SkipEntry& x = d.blocks[w.block]->table[e.tag];
      x.pendingSkips--;
      x.arrived &= ~bitOf(w.indexInBlock);
    }
  dw.fetchPos = dw.issuePos;
  dw.decidedPc = ~0u;
  touch(slot);
  if (dw.check.active && !dw.check.dispatched) {  // the load was dropped: probed again
    d.blocks[w.block]->pool.release(dw.check.phys);
    dw.check.active = false;
  }
}

// --- issue side --------------------------------------------------------------------------------

// Skips at the front of the I-buffer take effect in program order: the follower's named
// register is mapped onto the leader's version. They wait until every older instruction of
// the warp has executed (those read and write through the mapping at dispatch) and no older
// write of the register is in flight. A skip whose entry was cleared by a store or atomic
// meanwhile becomes an instruction the warp executes itself.
void DarsieMechanism::retireSkips(int slot) {
  DarsieState& d = d_;
  sm::WarpSlot& w = sm_.warps[slot];
  while (!w.ibuf.empty() && w.ibuf.front().skip) {
    sm::IBufferEntry& e = w.ibuf.front();
    DarsieBlock& db = *d.blocks[w.block];
    SkipEntry& x = db.table[e.tag];
    // darsie-ignore-store checks every skip's value (verifiedSkip); a global load a
    // store hit cannot be read again without timing beyond the SM: it is executed.
    const bool verify = d.ignoreStores;
    const bool globalHit = verify && x.storeHit && x.isGlobalLoad;
    if (globalHit) d.storeHitSkips++;
    if (x.invalid && !verify) checkLoad(slot, x, e.instr);  // (before the entry may go)
    if (x.invalid || globalHit) {
      x.pendingSkips--;
      e.tag = -1;
      w.ibuf.unskipFront();
      sm_.wake(slot);  // (issue looks at its new front)
      d.unskipped++;
      sm_.fetched++;  // it has to be fetched after all
      sm_.event();
      return sweep(w.block);
    }
    // (A verified skip reads its sources: it waits for them too.)
    const DarsieWarp::LoadCheck& check = d.warps[slot].check;
    if ((check.active && check.dispatched) || sm_.operands.inCollectors(slot) > 0 || !sm_.scoreboard.canIssue(slot, verify ? e.touched : e.written)) return;
    const uint8_t r = e.instr.d;
    const int me = static_cast<int>(w.indexInBlock);
    if (!verify || !verifiedSkip(slot, e, x)) {
      db.pool.map(me, r, x.phys);
      // (A test corrupts the rename on purpose: the follower reads the neighbouring register.)
      mapReg(slot, r, sm_.cfg.darsie.corrupt_rename_for_test ? (x.phys + 1) % db.pool.size() : x.phys);
      if (!x.leaderWB) holdEarly(slot, r, x);  // (darsie-early-skip only)
    }
    sm_.advance(slot, e.instr, w.ctx->activeMask(), e.pc);
    d.warps[slot].issuePos++;
    x.pendingSkips--;
    d.skipped++;
    sm_.report(sm::MechanismEvent::Instant, "skip", slot);
    if (x.kind == ValueKind::Uniform) d.skippedUniform++;
    else if (x.kind == ValueKind::Affine) d.skippedAffine++;
    else d.skippedUnstructured++;
    w.ibuf.pop();
    sm_.wake(slot);
    sm_.event();
    sweep(w.block);
  }
}

bool DarsieMechanism::holdsIssue(int slot) const {
  const DarsieWarp& dw = d_.warps[slot];
  return dw.branchWait || dw.busyUntil > sm_.now;
}

// An instruction issued (after the SIMT stack moved past it).
void DarsieMechanism::issued(int slot, const sm::IBufferEntry& e, bool diverged) {
  followPath(slot, e, diverged);
  d_.renameLookups += static_cast<uint64_t>(__builtin_popcountll(regfile::sourceGprs(e.instr)) +
                                            (regfile::destGpr(e.instr) ? 1 : 0));
}

void DarsieMechanism::followPath(int slot, const sm::IBufferEntry& e, bool diverged) {
  DarsieState& d = d_;
  sm::WarpSlot& w = sm_.warps[slot];
  DarsieWarp& dw = d.warps[slot];
  const uint64_t pos = dw.issuePos++;
  if (e.tag >= 0) {
    dw.leads.emplace_back(e.pc, e.tag);
    dw.pendingLeads++;
  }
  DarsieBlock& db = *d.blocks[w.block];
  const uint64_t bit = bitOf(w.indexInBlock);
  if (!(db.majority & bit) || w.ctx->done()) return;
  if (w.ctx->exitedMask() != 0) return leave(slot);  // some lanes exited
  if (e.instr.op != isa::Op::BRA || !isGuarded(e.instr)) return;
  const uint32_t target = w.ctx->pc();
  if (d.noCfSync) {  // idealized: the first majority warp's outcome is the majority's
    auto it = std::find_if(db.decided.begin(), db.decided.end(), [&](const auto& p) { return p.first == pos; });
    if (it == db.decided.end()) {
      if (pos < db.forgotten) {
        // The outcome at this position was forgotten (the warp fell darsie.branch_history
        // branches behind): it cannot know it followed the majority, so it leaves the path.
        d.historyMisses++;
        return leave(slot);
      }
      db.decided.emplace_back(pos, target);
      if (db.decided.size() > static_cast<size_t>(sm_.cfg.darsie.branch_history)) {
        db.forgotten = std::max(db.forgotten, db.decided.front().first + 1);
        db.decided.pop_front();
      }
      it = db.decided.end() - 1;
    }
    if (diverged || it->second != target) leave(slot);
    return;
  }
  // Branch barrier among the majority warps (Sec. 4.3.3); fetch stays blocked until it opens.
  dw.branchWait = true;
  dw.branchTarget = target;
  dw.branchDiverged = diverged;
  dw.waitSince = sm_.now;
  sm_.report(sm::MechanismEvent::WaitBegin, kMajorityWait, slot);
  w.fetchBlocked = true;
  tryReleaseBranch(w.block);
}

void DarsieMechanism::tryReleaseBranch(int b) {
  DarsieState& d = d_;
  DarsieBlock& db = *d.blocks[b];
  const sm::BlockSlot& blk = sm_.blocks[b];
  uint64_t waiting = 0;
  for (int s : blk.warps)
    if (d.warps[s].branchWait) waiting |= bitOf(sm_.warps[s].indexInBlock);
  if (waiting == 0 || (waiting & db.majority) != db.majority) return;
  // The majority outcome: the target most warps without SIMD divergence took; a tie goes to
  // the group of the lowest-numbered warp.
  uint32_t best = 0;
  int bestCount = 0;
  for (int s : blk.warps) {
    const DarsieWarp& dw = d.warps[s];
    if (!dw.branchWait || dw.branchDiverged) continue;
    int count = 0;
    for (int o : blk.warps)
      count += d.warps[o].branchWait && !d.warps[o].branchDiverged && d.warps[o].branchTarget == dw.branchTarget;
    if (count > bestCount) {
      best = dw.branchTarget;
      bestCount = count;
    }
  }
  d.branchBarriers++;
  for (int s : blk.warps) {
    DarsieWarp& dw = d.warps[s];
    if (!dw.branchWait) continue;
    dw.branchWait = false;
    sm_.report(sm::MechanismEvent::WaitEnd, kMajorityWait, s);
    sm_.warps[s].fetchBlocked = false;
    sm_.wake(s);
    d.branchStall += sm_.now - dw.waitSince;
    if (dw.branchDiverged || dw.branchTarget != best) leave(s);
  }
  sm_.event();
}

// The warp leaves the majority path: it copies its renamed registers into its own space (one
// register per cycle) once its own lead results are written.
void DarsieMechanism::leave(int slot) {
  DarsieState& d = d_;
  sm::WarpSlot& w = sm_.warps[slot];
  DarsieBlock& db = *d.blocks[w.block];
  const uint64_t bit = bitOf(w.indexInBlock);
  if (db.majority & bit) {
    db.majority &= ~bit;
    d.leaves++;
    sm_.report(sm::MechanismEvent::Instant, "majority leave", slot);
  }
  sm_.wake(slot);  // fetch no longer waits for the skipper's decisions
  DarsieWarp& dw = d.warps[slot];
  if (dw.decidedEntry < 0) dw.decidedPc = ~0u;  // a lead already decided is still fetched and led
  if (!mayLeaveNow(dw)) {  // its own leads, or (early skip) values it maps, not written yet
    dw.leavePending = true;
  } else {
    const int me = static_cast<int>(w.indexInBlock);
    const uint64_t mapped = db.pool.mappedMask(me);
    int n = 0;
    for (int r = 0; r < 64; ++r) {
      if (!(mapped >> r & 1u)) continue;
      const uint8_t reg = static_cast<uint8_t>(r);
      std::memcpy(w.ctx->privateReg(reg), w.ctx->reg(reg), sizeof(uint32_t) * static_cast<size_t>(w.ctx->lanes()));
      unmapReg(slot, reg);
      db.pool.unmap(me, reg);
      n++;
    }
    d.copied += static_cast<uint64_t>(n);
    dw.busyUntil = std::max(dw.busyUntil, sm_.now + static_cast<uint64_t>(n));
    dw.leavePending = false;
  }
  sweep(w.block);
  tryReleaseBranch(w.block);
}

void DarsieMechanism::registerStats(stats::Registry& r) {
  const std::string p = "sm" + std::to_string(sm_.id) + ".darsie.";
  DarsieState& d = d_;
  r.add(p + "skipped", d.skipped, "instructions", "warp instructions skipped by followers (never fetched)");
  r.add(p + "skipped.uniform", d.skippedUniform, "instructions", "skipped: the value was the same in every lane");
  r.add(p + "skipped.affine", d.skippedAffine, "instructions", "skipped: the value was base + stride x lane");
  r.add(p + "skipped.unstructured", d.skippedUnstructured, "instructions", "skipped: any other TB-redundant value");
  r.add(p + "leader_elections", d.elections, "events", "skip-table entries created by a leader warp");
  r.add(p + "private_executions", d.privateExec, "instructions", "TB-redundant instructions a majority warp executed itself (no entry, table or freelist exhausted, entry cleared)");
  r.add(p + "leaderwb_waits", d.leaderWbWaits, "warp-cycles", "follower probes that waited for the leader's write-back");
  r.add(p + "lap_waits", d.lapWaits, "warp-cycles", "probes that waited for an older instance of the PC to leave the table");
  r.add(p + "skip_port_limited", d.portLimited, "warp-cycles", "warps not probed because every skip-table read port was taken");
  r.add(p + "branch_barriers", d.branchBarriers, "events", "majority-path branch barriers completed");
  r.add(p + "branch_stall_cycles", d.branchStall, "warp-cycles", "cycles warps waited at branch barriers");
  r.add(p + "majority_leaves", d.leaves, "events", "warps that left the majority path");
  r.add(p + "copied_registers", d.copied, "registers", "renamed registers copied into warp-private space on leaving");
  r.add(p + "rejoins", d.rejoins, "events", "warps restored to the majority path by bar.sync");
  r.add(p + "adopted_versions", d.adopted, "registers", "register versions a rejoining warp adopted from the majority");
  r.add(p + "adoptions_deferred", d.adoptionsDeferred, "registers",
        "TB-redundant registers a rejoining warp kept in its own space at bar.sync because a write "
        "of them was still in flight in the majority warp or in itself");
  r.add(p + "freelist_syncs", d.freelistSyncs, "events", "entries made synchronization points by an empty freelist");
  r.add(p + "freelist_sync_waits", d.freelistWait, "warp-cycles", "follower probes waiting at a freelist synchronization point");
  r.add(p + "freelist_empty", d.freelistEmpty, "events", "would-be leaders that found no free rename register");
  r.add(p + "skip_table.occupancy", d.occupancySum, "entry-cycles", "skip-table entries in use, summed over cycles");
  r.add(p + "skip_table.max_occupancy", d.occupancyMax, "entries", "most entries one block's table held");
  r.add(p + "skip_table.evictions", d.evictions, "events", "entries evicted to make room for a new leader");
  r.add(p + "skip_table.full", d.fullEvents, "events", "would-be leaders that found the table full");
  r.add(p + "skip_table.invalidated_by_store", d.invalidByStore, "entries", "load entries cleared by a store of the block");
  r.add(p + "skip_table.invalidated_by_atomic", d.invalidByAtomic, "entries", "global-load entries cleared by a global atomic or fence");
  r.add(p + "skip_table.lookups", d.tableLookups, "accesses",
        "skip-table read-port accesses (one per distinct PC probed in a cycle)");
  r.add(p + "rename.lookups", d.renameLookups, "accesses",
        "rename-table reads: register operands (sources and destination) of issued instructions");
  auto pools = [this](bool released) {
    const DarsieState& ds = d_;
    uint64_t n = released ? ds.retiredReleased : ds.retiredTaken;
    for (const auto& b : ds.blocks)
      if (b) n += released ? b->pool.versionsReleased() : b->pool.versionsCreated();
    return static_cast<double>(n);
  };
  r.addDerived(p + "freelist.allocations", [pools] { return pools(false); }, "registers",
               "rename registers taken from the freelist (new versions)");
  r.addDerived(p + "freelist.releases", [pools] { return pools(true); }, "registers",
               "rename registers returned to the freelist (versions no warp needs)");
  r.add(p + "no_cf_sync.history_misses", d.historyMisses, "events",
        "darsie-no-cf-sync: majority warps whose branch outcome was no longer in the history "
        "(darsie.branch_history); they left the majority path");
  r.add(p + "ignore_store.store_hit_skips", d.storeHitSkips, "instructions",
        "darsie-ignore-store: skips of a load entry a store of the block had hit (the real "
        "mechanism would have executed them)");
  r.add(p + "ignore_store.stale_skips", d.staleSkips, "instructions",
        "darsie-ignore-store: skips whose leader's value differed from the follower's own (a "
        "store changed a load's value, or a value computed from it); the model delivered the "
        "follower's own value, at the skip's time");
  r.add(p + "load_checks", d.loadChecks, "instructions",
        "TB-redundant loads a follower executed itself because a store or atomic cleared their "
        "entry; their value is compared with the leader's");
  r.add(p + "load_check_leaves", d.loadCheckLeaves, "events",
        "of those, loads whose value differed from the leader's (a race the program allows): the "
        "warp left the majority path");
  r.add(p + "early_skip.holds", d.earlyHolds, "registers",
        "darsie-early-skip: skips that took effect before their leader's write-back; the "
        "register stayed pending in the follower's scoreboard until then");
  r.add(p + "early_skip.hold_cycles", d.earlyHoldCycles, "register-cycles",
        "darsie-early-skip: cycles those registers stayed pending, summed (released holds)");
  r.add(p + "unskipped", d.unskipped, "instructions", "skips turned back into instructions because their entry was cleared");
}

}  // namespace simtlm::darsie
