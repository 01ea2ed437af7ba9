// DARSIE in the SM, the register side (docs/darsie.md; DARSIE Sec. 4.3.1, 4.4, 4.5): renaming
// onto the block's rename pool (values and banks), the leader's version written at dispatch,
// LeaderWB, the load rules of Sec. 4.4, bar.sync's rejoin and the stuck-run description.
#include <algorithm>
#include <cstring>
#include <sstream>
#include <utility>

#include "model/mechanisms/darsie/darsie_mechanism.h"
#include "model/sm/operand_stage.h"
#include "model/sm/scoreboard.h"
#include "model/mem/shared_memory.h"

namespace simtlm::darsie {

// --- register side ------------------------------------------------------------------------------

// Renames the warp's named register r onto pool register `phys` of its block: its values (the
// functional side) and its bank (the operand collectors read and write it there).
void DarsieMechanism::mapReg(int slot, uint8_t r, int phys) {
  sm::WarpSlot& w = sm_.warps[slot];
  w.ctx->mapReg(r, d_.blocks[w.block]->pool.row(phys));
  sm_.operands.rename(slot, r, sm_.operands.poolReg(w.block, phys));
}

void DarsieMechanism::unmapReg(int slot, uint8_t r) {
  sm_.warps[slot].ctx->unmapReg(r);
  sm_.operands.unrename(slot, r);
}

// Before an instruction writing rD executes: a lead writes a new version (the leader's rD is
// mapped onto it, holding the old values so that sources and lanes not written see them);
// any other write goes to the warp's own register (copied out first if it was mapped).
void DarsieMechanism::beforeExecute(int slot, const isa::Instr& in, uint32_t pc) {
  writeVersion(slot, in, pc);
  clearLoadEntries(slot, isa::info(in.op));
}

void DarsieMechanism::writeVersion(int slot, const isa::Instr& in, uint32_t pc) {
  if (!isa::writesGpr(isa::info(in.op).format)) return;
  DarsieState& d = d_;
  sm::WarpSlot& w = sm_.warps[slot];
  DarsieWarp& dw = d.warps[slot];
  if (dw.check.active && !dw.check.dispatched && dw.check.pc == pc) dw.check.dispatched = true;
  DarsieBlock& db = *d.blocks[w.block];
  const int me = static_cast<int>(w.indexInBlock);
  const uint8_t r = in.d;
  const size_t bytes = sizeof(uint32_t) * static_cast<size_t>(w.ctx->lanes());
  if (!dw.leads.empty() && dw.leads.front().first == pc) {
    const int entry = dw.leads.front().second;
    dw.leads.pop_front();
    const int phys = db.table[entry].phys;
    std::memcpy(db.pool.row(phys), w.ctx->reg(r), bytes);
    db.pool.map(me, r, phys);
    mapReg(slot, r, phys);
    dw.leadWrite[r] = static_cast<int16_t>(entry);
    return;
  }
  // (Its own rename table says whether r is renamed: another mechanism, an operand bypass, may
  // have r's values in storage of its own for this instruction.)
  if (db.pool.mapped(me, r) < 0) return;
  std::memcpy(w.ctx->privateReg(r), w.ctx->reg(r), bytes);
  unmapReg(slot, r);
  db.pool.unmap(me, r);
}

// A register write was performed: a lead's sets LeaderWB and classifies the value.
void DarsieMechanism::written(int slot, const isa::Instr& in) {
  if (!isa::writesGpr(isa::info(in.op).format)) return;
  DarsieState& d = d_;
  sm::WarpSlot& w = sm_.warps[slot];
  DarsieWarp& dw = d.warps[slot];
  if (dw.check.active && dw.check.dispatched && !dw.check.ownDone && dw.check.reg == in.d) {
    dw.check.ownDone = true;  // checkLoad; younger instructions may overwrite it
    std::copy(w.ctx->reg(in.d), w.ctx->reg(in.d) + w.ctx->lanes(), dw.check.own.begin());
    if (checkReady(slot)) finishCheck(slot);
  }
  const int entry = dw.leadWrite[in.d];
  if (entry < 0) return;
  dw.leadWrite[in.d] = -1;
  dw.pendingLeads--;
  DarsieBlock& db = *d.blocks[w.block];
  SkipEntry& x = db.table[entry];
  x.leaderWB = true;
  d.bumpEpoch();  // its followers' waits end
  x.kind = classify(db.pool.row(x.phys), w.ctx->lanes());
  const int phys = x.phys;  // (finishing a check or a leave may sweep the entry)
  const uint64_t holders = std::exchange(x.earlyHolders, 0);
  for (int s : sm_.blocks[w.block].warps)  // followers whose own load wrote back first
    if (const auto& c = d.warps[s].check; c.active && c.ownDone && c.phys == phys) finishCheck(s);
  if (holders) releaseEarly(w.block, holders, in.d);
  sm_.event();  // followers may skip now
  if (w.done) db.pool.unmap(static_cast<int>(w.indexInBlock), in.d);
  else if (dw.leavePending && mayLeaveNow(dw)) leave(slot);
  sweep(w.block);
}

void DarsieMechanism::holdEarly(int slot, uint8_t r, SkipEntry& x) {
  DarsieWarp& dw = d_.warps[slot];
  const sm::WarpSlot& w = sm_.warps[slot];
  x.earlyHolders |= bitOf(w.indexInBlock);
  dw.heldFor[r] = static_cast<int16_t>(&x - &d_.blocks[w.block]->table[0]);
  dw.heldSince[r] = sm_.now;
  dw.earlyHeld++;
  d_.earlyHolds++;
  sm_.holdRegister(slot, r, true);
}

// (Every holder holds the same named register: the destination of the entry's instruction.)
void DarsieMechanism::releaseEarly(int b, uint64_t holders, uint8_t r) {
  const sm::BlockSlot& blk = sm_.blocks[b];
  for (; holders; holders &= holders - 1) {
    const int s = blk.warps[static_cast<size_t>(__builtin_ctzll(holders))];
    DarsieWarp& dw = d_.warps[s];
    dw.heldFor[r] = -1;
    dw.earlyHeld--;
    d_.earlyHoldCycles += sm_.now - dw.heldSince[r];
    sm_.holdRegister(s, r, false);
    if (dw.leavePending && mayLeaveNow(dw)) leave(s);
  }
}

// Sec. 4.4: a store of the block clears its load entries; a global atomic or fence clears
// every global-load entry of the SM. Cleared entries stay until every majority warp has passed
// them (so that no warp mistakes an instance), but no warp skips them any more. A local store
// clears nothing: it writes its own thread's words, which no other warp's load reads, and the
// compiler pass already took the thread's own stores before a local load into account
// (docs/darsie.md, "Local memory").
void DarsieMechanism::clearLoadEntries(int slot, const isa::OpInfo& oi) {
  DarsieState& d = d_;
  const bool store = (oi.cls == isa::OpClass::StoreGlobal && oi.op != isa::Op::ST_LOCAL) ||
                     oi.cls == isa::OpClass::StoreShared || oi.cls == isa::OpClass::AtomicShared;
  const bool global = oi.cls == isa::OpClass::AtomicGlobal || oi.cls == isa::OpClass::Fence;
  // A skip of a cleared (or, ignoring stores, hit) entry is retired differently: the warps of
  // its block are woken, so that issue's front fix-ups look at them again.
  auto wakeBlock = [&](int b) {
    for (int s : sm_.blocks[static_cast<size_t>(b)].warps) sm_.wake(s);
  };
  if (store) {
    const int b = sm_.warps[slot].block;
    SkipTable& t = d.blocks[b]->table;
    bool changed = false;
    for (int i = 0; i < t.size(); ++i)
      if (t[i].valid && t[i].isLoad && !t[i].invalid) {
        if (d.ignoreStores) {  // not cleared; its skips are checked when they retire
          changed = changed || !t[i].storeHit;
          t[i].storeHit = true;
          continue;
        }
        t[i].invalid = true;
        changed = true;
        d.bumpEpoch();
        d.invalidByStore++;
      }
    if (changed) wakeBlock(b);
  }
  if (global)
    for (size_t b = 0; b < d.blocks.size(); ++b) {
      if (!d.blocks[b]) continue;
      SkipTable& t = d.blocks[b]->table;
      bool changed = false;
      for (int i = 0; i < t.size(); ++i)
        if (t[i].valid && t[i].isGlobalLoad && !t[i].invalid) {
          t[i].invalid = true;
          changed = true;
          d.bumpEpoch();
          d.invalidByAtomic++;
        }
      if (changed) wakeBlock(static_cast<int>(b));
    }
}

// Sec. 4.4 clears a load's entry when the block stores, so that followers execute the load
// themselves; but values the leader computed from its own load stay in the table. When the
// follower's load reads something else (the program lets a warp's store race with another's
// load), its later skips would take values computed from the leader's. So the follower keeps a
// reference to the leader's version and compares it with its own value once both have written
// back: equal, it goes on skipping, as the paper's design does; different, it leaves the
// majority path and drops the skips fetched behind the load. Younger skips wait for the check.
void DarsieMechanism::checkLoad(int slot, const SkipEntry& x, const isa::Instr& in) {
  DarsieState& d = d_;
  DarsieWarp& dw = d.warps[slot];
  d.loadChecks++;
  if (dw.check.active) {  // one check at a time: leave instead
    d.loadCheckLeaves++;
    return leave(slot);
  }
  DarsieBlock& db = *d.blocks[sm_.warps[slot].block];
  dw.check = DarsieWarp::LoadCheck{true, false, false, x.pc, in.d, db.table.find(x.pc), x.phys};
  db.pool.addRef(x.phys);
}

// Whether the leader of the checked load has written its version: its entry says so, and an
// entry that left the table had (entries leave only after their leader's write-back).
bool DarsieMechanism::checkReady(int slot) const {
  const DarsieWarp::LoadCheck& c = d_.warps[slot].check;
  const SkipTable& t = d_.blocks[sm_.warps[slot].block]->table;
  if (c.entry < 0 || !t[c.entry].valid || t[c.entry].phys != c.phys || t[c.entry].pc != c.pc) return true;
  return t[c.entry].leaderWB;
}

void DarsieMechanism::finishCheck(int slot) {
  DarsieState& d = d_;
  sm::WarpSlot& w = sm_.warps[slot];
  DarsieWarp::LoadCheck& c = d.warps[slot].check;
  DarsieBlock& db = *d.blocks[w.block];
  const bool same = std::equal(c.own.begin(), c.own.begin() + w.ctx->lanes(), db.pool.row(c.phys));
  db.pool.release(c.phys);
  c.active = false;
  sm_.event();  // younger skips may go on
  sm_.wake(slot);
  if (same || w.done) return;
  d.loadCheckLeaves++;
  sm_.dropFront(slot);
  leave(slot);
}

// darsie-ignore-store idealizes time, never values (DESIGN.md 5.6): its stores clear no load
// entry, so a follower's own value may differ from its leader's (a load whose address a store
// wrote, and everything computed from it). Every skip is therefore checked when it takes
// effect: the follower's own value is computed from its own registers (shared loads read the
// block's shared memory now, in program order); equal, the skip maps the leader's version as
// usual; different, the follower keeps its own value at the skip's time, counted as stale.
// Returns whether it kept its own value. Global loads are not read again (a store-hit one was
// executed instead, retireSkips).
bool DarsieMechanism::verifiedSkip(int slot, const sm::IBufferEntry& e, const SkipEntry& x) {
  DarsieState& d = d_;
  sm::WarpSlot& w = sm_.warps[slot];
  DarsieBlock& db = *d.blocks[w.block];
  const isa::Instr& in = e.instr;
  const isa::OpInfo& oi = isa::info(in.op);
  if (x.storeHit) d.storeHitSkips++;
  if (oi.cls == isa::OpClass::LoadGlobal) return false;
  const uint8_t r = in.d;
  const int lanes = w.ctx->lanes();
  const size_t bytes = sizeof(uint32_t) * static_cast<size_t>(lanes);
  if (db.pool.mapped(static_cast<int>(w.indexInBlock), r) >= 0) {  // its own copy first: lanes the instruction does not write keep it
    std::memcpy(w.ctx->privateReg(r), w.ctx->reg(r), bytes);
    unmapReg(slot, r);
    db.pool.unmap(static_cast<int>(w.indexInBlock), r);
  }
  const uint32_t exec = w.ctx->execMask(in);
  if (oi.format == isa::Format::Load) {
    uint32_t addr[32] = {}, words[32] = {};
    w.ctx->addresses(in, exec, addr);
    for (int l = 0; l < lanes; ++l) {
      if (!(exec >> l & 1u)) continue;
      if (oi.cls == isa::OpClass::LoadShared) words[l] = sm_.shared->read(static_cast<unsigned>(w.block), addr[l]);
      else if (addr[l] / 4 < sm_.image.launch.params.size()) words[l] = sm_.image.launch.params[addr[l] / 4];
    }
    w.ctx->writeLanes(r, words, exec);
  } else {
    w.ctx->executeAlu(in, exec);
  }
  if (std::memcmp(w.ctx->reg(r), db.pool.row(x.phys), bytes) == 0) return false;
  d.staleSkips++;
  return true;
}

// Entries every majority warp has passed, whose leader wrote back and whose followers retired
// their skips, leave the table; their version is released when no warp maps it any more.
void DarsieMechanism::sweep(int b) {
  DarsieBlock& db = *d_.blocks[b];
  for (int i = 0; i < db.table.size(); ++i) {
    SkipEntry& x = db.table[i];
    if (!x.valid || !x.leaderWB || x.pendingSkips > 0) continue;
    if (!x.stale && (x.arrived & db.majority) != db.majority) continue;
    db.pool.release(x.phys);
    x = SkipEntry{};
    d_.bumpEpoch();
    d_.liveEntries--;
  }
}

// --- barriers and exit -------------------------------------------------------------------------

// bar.sync restores every eligible warp to the majority path. A rejoining warp adopts the
// majority's versions of the registers the analysis proves TB-redundant at the barrier, so that
// from then on it reads exactly what the majority reads. Positions restart at 0.
void DarsieMechanism::barrierReleased(sm::BlockSlot& b) {
  DarsieState& d = d_;
  const int bs = static_cast<int>(&b - sm_.blocks.data());
  DarsieBlock& db = *d.blocks[bs];
  // Warps may wait at different bar.sync instructions of one id: only those at the majority's
  // barrier (or, with no majority warp left, at the first eligible warp's) continue on one path,
  // and the analysis's redundant registers are those of that barrier.
  int source = -1;
  uint32_t pc = ~0u;
  for (int s : b.warps)
    if (db.majority & bitOf(sm_.warps[s].indexInBlock)) {
      source = static_cast<int>(sm_.warps[s].indexInBlock);
      pc = sm_.warps[s].barrierPc;
      break;
    }
  for (int s : b.warps)
    if (pc == ~0u && !sm_.warps[s].done && eligible(sm_.warps[s])) pc = sm_.warps[s].barrierPc;
  const uint64_t redundant = pc == ~0u ? 0 : d.marking.redundantAtBarrier[isa::Kernel::indexOf(pc)];
  for (int s : b.warps) {
    sm::WarpSlot& w = sm_.warps[s];
    DarsieWarp& dw = d.warps[s];
    w.fetchBlocked = false;
    dw.fetchPos = dw.issuePos = 0;
    dw.decidedPc = ~0u;
    const uint64_t bit = bitOf(w.indexInBlock);
    // (A warp whose older instructions still wait in operand collectors would read the adopted
    // versions at their dispatch: it stays off the path until the next barrier.)
    // (Nor does a warp still holding registers for leaders' write-backs, darsie-early-skip.)
    if (w.done || (db.majority & bit) || d.poolRegs == 0 || !eligible(w) || w.barrierPc != pc ||
        sm_.operands.inCollectors(s) > 0 || dw.earlyHeld > 0)
      continue;
    d.rejoins++;
    dw.leavePending = false;
    db.majority |= bit;
    if (source < 0) continue;
    // Only a settled version is adopted. A write of r still in flight in the source (an older
    // instruction in an operand collector has not moved its mapping onto its new version yet,
    // a load's value has not arrived, darsie-early-skip holds it) or in the adopter (its own
    // value lands later) would leave the adopter with an older value or none: it keeps its own
    // register, which holds the same value (r is TB-redundant here).
    const int src = b.warps[static_cast<size_t>(source)];
    for (int r = 0; r < sm_.image.kernel->numRegs; ++r) {
      const uint8_t reg = static_cast<uint8_t>(r);
      const int p = db.pool.mapped(source, reg);
      if (!(redundant >> r & 1u) || p < 0) continue;
      if (sm_.scoreboard.pending(src, reg) || sm_.scoreboard.pending(s, reg)) {
        d.adoptionsDeferred++;
        continue;
      }
      db.pool.map(static_cast<int>(w.indexInBlock), reg, p);
      mapReg(s, reg, p);
      d.adopted++;
    }
  }
  for (int i = 0; i < db.table.size(); ++i)
    if (db.table[i].valid) db.table[i].stale = true;
  d.bumpEpoch();
  db.decided.clear();
  db.forgotten = 0;
  sweep(bs);
}

void DarsieMechanism::warpExited(int slot) {
  DarsieState& d = d_;
  sm::WarpSlot& w = sm_.warps[slot];
  DarsieBlock& db = *d.blocks[w.block];
  db.majority &= ~bitOf(w.indexInBlock);
  d.warps[slot].releasePending = true;
  warpDrained(slot);
  sweep(w.block);
  tryReleaseBranch(w.block);
}

// An exited warp gives its versions back once its instructions have left the operand
// collectors: a store issued before exit reads its data at dispatch, through the mapping (a
// version released earlier could be taken by a new leader and overwritten first).
void DarsieMechanism::warpDrained(int slot) {
  DarsieState& d = d_;
  sm::WarpSlot& w = sm_.warps[slot];
  if (!d.warps[slot].releasePending || sm_.operands.inCollectors(slot) > 0) return;
  d.warps[slot].releasePending = false;
  DarsieBlock& db = *d.blocks[w.block];
  const int me = static_cast<int>(w.indexInBlock);
  const uint64_t mapped = db.pool.mappedMask(me);
  for (int r = 0; r < 64; ++r)  // a lead still to write keeps its version through its entry
    if ((mapped >> r & 1u) && d.warps[slot].leadWrite[static_cast<size_t>(r)] < 0)
      db.pool.unmap(me, static_cast<uint8_t>(r));
  sweep(w.block);
}

std::string DarsieMechanism::describeWarp(int slot) const {
  const DarsieState& d = d_;
  const sm::WarpSlot& w = sm_.warps[slot];
  const DarsieWarp& dw = d.warps[slot];
  std::ostringstream s;
  if (dw.branchWait) s << "waits at a DARSIE branch barrier of the majority path; ";
  if (dw.earlyHeld > 0) s << "holds " << dw.earlyHeld << " register(s) for leaders' write-backs; ";
  if (w.ibuf.skips() && !w.ibuf.empty() && w.ibuf.front().skip) s << "retires a skip; ";
  if (const auto& c = dw.check; c.active)
    s << "compares its load at PC " << c.pc << " with the leader's (dispatched " << c.dispatched
      << ", written " << c.ownDone << ", leader's ready " << checkReady(slot) << "); ";
  if (!w.done && !w.fetchInFlight && mustDecide(w, slot)) {
    const int e = d.blocks[w.block]->table.find(w.fetchPc);
    const DarsieBlock& db = *d.blocks[w.block];
    if (e >= 0 && db.table[e].instance < dw.fetchPos) {
      const SkipEntry& x = db.table[e];
      s << std::hex << "fetch waits for an older instance of its PC to leave the skip table (arrived 0x"
        << x.arrived << " of majority 0x" << db.majority << std::dec << ", " << x.pendingSkips
        << " skips to retire, LeaderWB " << x.leaderWB << "); ";
    } else if (e >= 0 && !db.table[e].leaderWB) {
      s << "fetch waits for the leader's write-back; ";
    } else if (e >= 0 && db.table[e].sync) {
      s << "fetch waits at a freelist synchronization point; ";
    }
  }
  return s.str();
}

}  // namespace simtlm::darsie
