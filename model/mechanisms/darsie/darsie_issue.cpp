// DARSIE's issue side (docs/darsie.md; DARSIE Sec. 4.3.3, 4.5): followers' skips retired in
// program order through the rename pool, flushes, majority-path branch barriers, and leaving the
// majority path.
#include <algorithm>
#include <cstring>

#include "model/mechanisms/darsie/darsie_mechanism.h"
#include "model/regfile/operands.h"
#include "model/sm/operand_stage.h"
#include "model/sm/scoreboard.h"

namespace simtlm::darsie {

namespace {

bool isGuarded(const isa::Instr& in) { return in.guard != isa::kPredTrue || in.guardNeg; }

}  // namespace

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

}  // namespace simtlm::darsie
