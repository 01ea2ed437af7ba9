// DARSIE's skipper beside the fetch scheduler (docs/darsie.md, "The skipper"; DARSIE Sec.
// 4.3.2-4.3.5): which warps must decide their fetch PC, the PC skip table's read ports and PC
// coalescer, leader election, followers' skips delivered into the I-buffer, and the waits
// (LeaderWB, older instances, freelist synchronization points) counted without probing again.
#include <algorithm>

#include "model/mechanisms/darsie/darsie_mechanism.h"

namespace simtlm::darsie {

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
// `rr`. Only the candidates (SkipperWatch::cand) are visited, in that order: every other warp has
// nothing to decide. A parked warp's probe would wait again: it counts its wait without looking
// the table up (and, waiting for an older instance or at a synchronization point, takes its read
// port). This runs every cycle for up to every warp: the state it reads is held in locals.
void DarsieMechanism::beforeFetch(uint64_t cycle) {
  DarsieState& d = d_;
  sm_.now = cycle;
  d.occupancySum += d.liveEntries;
  SkipperWatch& watch = d.watch;
  SkipperWatch::Word* const words = watch.words.data();  // (never resized within a cycle)
  sm::WarpSlot* const warps = sm_.warps.data();
  DarsieWarp* const dws = d.warps.data();
  const uint8_t* const skippable = d.marking.skippable.data();
  const size_t nInstrs = d.marking.skippable.size();
  const int ports = sm_.cfg.darsie.skip_ports, maxSkips = sm_.cfg.darsie.skip_entries;
  const int maxSkipsPerCycle = sm_.cfg.darsie.skips_per_cycle;
  uint32_t probed[64];
  int nprobed = 0, skips = 0;
  const unsigned n = static_cast<unsigned>(sm_.warps.size());
  // The PC coalescer: warps at the same PC share one read port. False: no port left.
  auto port = [&](uint32_t pc) {
    for (int i = 0; i < nprobed; ++i)
      if (probed[i] == pc) return true;
    if (nprobed == ports) {
      d.portLimited++;
      return false;
    }
    probed[nprobed++] = pc;
    d.tableLookups++;
    return true;
  };
  const unsigned start = watch.rr % n;
  for (int pass = 0; pass < 2; ++pass) {
    const unsigned lo = pass == 0 ? start : 0, hi = pass == 0 ? n : start;
    for (unsigned wd = lo / 64; wd * 64 < hi; ++wd) {
      SkipperWatch::Word& W = words[wd];
      // The slots of this word in [lo, hi) not visited yet.
      uint64_t range = ~uint64_t{0};
      if (wd * 64 < lo) range <<= lo - wd * 64;
      if (hi - wd * 64 < 64) range &= (uint64_t{1} << (hi - wd * 64)) - 1;
      // The word's masks as they stand: only a probe changes other warps' bits (it wakes warps,
      // bumps the epoch), so they are read again after one; a visit changes its own warp's bits
      // alone, and that warp is passed.
      uint64_t cand, waiting, bits, parked;
      auto read = [&] {
        cand = W.cand & range;
        waiting = cand & W.parkedWb;
        bits = cand & ~waiting;
        parked = W.parked;
      };
      read();
      for (;;) {
        // The warps waiting for LeaderWB before the next one to visit wait again: counted as a
        // run (a probe that bumps the epoch makes the later ones candidates again).
        if (waiting) {
          const uint64_t before = bits ? (bits & (~bits + 1)) - 1 : ~uint64_t{0};
          if (waiting & before) countLeaderWbWaits(wd, waiting & before);
        }
        if (!bits) break;
        const unsigned b = static_cast<unsigned>(__builtin_ctzll(bits));
        const uint64_t passed = (uint64_t{2} << b) - 1;  // (b = 63: every bit)
        range &= ~passed;
        bits &= ~passed;
        waiting &= ~passed;
        const unsigned slot = wd * 64 + b;
        const uint64_t m = uint64_t{1} << b;
        DarsieWarp& dw = dws[slot];
        sm::WarpSlot& w = warps[slot];
        if (parked & m) {
          // Nothing of the warp's own changed since its wait (its events unpark it): it still
          // must decide, and only the table can have ended the wait.
          if (dw.parkKind != DarsieWarp::Park::Port && dw.parkEpoch == watch.epoch) {
            // A follower waiting for LeaderWB sits in the entry's warps-waiting mask until the
            // leader's write-back wakes it (Sec. 4.3.2): it takes no read port meanwhile. A warp
            // waiting for an older instance, or at a synchronization point (which other warps'
            // arrivals end without a table change), would probe again.
            if (dw.parkKind == DarsieWarp::Park::LeaderWB) {
              d.leaderWbWaits++;
              sm_.report(sm::MechanismEvent::WaitCycle, kFollowerWait, static_cast<int>(slot));
              continue;
            }
            if (dw.parkKind == DarsieWarp::Park::Lap) {
              if (port(dw.parkPc)) d.lapWaits++;
              continue;
            }
            // A follower that found its skip ready when the cycle's skips were used up finds
            // the same (probe() below) once it has a port: with none left, it skips no more.
            if (dw.parkKind == DarsieWarp::Park::Skip) {
              if (!port(dw.parkPc) || skips >= maxSkipsPerCycle) continue;
            } else if (dw.parkKind == DarsieWarp::Park::SyncWB) {
              // Every majority warp reached the synchronization point: it waits for LeaderWB
              // (probe() below) unless a flushed skip took an arrival back.
              if (!port(dw.parkPc)) continue;
              if (!syncWaits(w, dw)) {
                d.leaderWbWaits++;
                sm_.report(sm::MechanismEvent::WaitCycle, kFollowerWait, static_cast<int>(slot));
                continue;
              }
            } else if (syncWaits(w, dw)) {
              if (port(dw.parkPc)) d.freelistWait++;
              continue;
            }
          }
        } else {
          // Nothing to decide until the warp is woken or changed (mustDecide, inline).
          const size_t i = isa::Kernel::indexOf(w.fetchPc);
          if (!w.active || w.done || w.fetchInFlight || w.fetchBlocked || i >= nInstrs || !skippable[i] ||
              dw.decidedPc == w.fetchPc || !(d.blocks[w.block]->majority & bitOf(w.indexInBlock)) ||
              w.ibuf.skips() >= maxSkips) {
            W.cand &= ~m;
            continue;
          }
        }
        if (!port(w.fetchPc)) {
          // It must decide, and will until it is woken or changed: next time only its port.
          if (!(parked & m)) park(static_cast<int>(slot), DarsieWarp::Park::Port, w.fetchPc);
          continue;
        }
        W.parked &= ~m;
        switch (waitsAgain(w, dw)) {  // (what probe() would do, without its lookup)
          case Wait::Sync:
            d.freelistWait++;
            park(static_cast<int>(slot), DarsieWarp::Park::Sync, w.fetchPc, dw.parkEntry);
            break;
          case Wait::LeaderWB:
            d.leaderWbWaits++;
            sm_.report(sm::MechanismEvent::WaitCycle, kFollowerWait, static_cast<int>(slot));
            park(static_cast<int>(slot), DarsieWarp::Park::LeaderWB, w.fetchPc, dw.parkEntry);
            break;
          case Wait::None:
            probe(static_cast<int>(slot), skips);
            read();
            break;
        }
      }
    }
  }
  watch.rr = (watch.rr + 1) % n;
}

// The probe waited and will wait again until the warp or the table changes.
void DarsieMechanism::park(int slot, DarsieWarp::Park kind, uint32_t pc, int entry) {
  DarsieWarp& dw = d_.warps[slot];
  dw.parkKind = kind;
  dw.parkPc = pc;
  if (entry >= 0) dw.parkEntry = entry;
  dw.parkEpoch = d_.watch.epoch;
  d_.watch.park(slot, kind == DarsieWarp::Park::LeaderWB);
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
      // (At a synchronization point it depends on other warps' arrivals too, and takes a port.)
      park(slot, x.sync ? DarsieWarp::Park::SyncWB : DarsieWarp::Park::LeaderWB, pc, e);
      return;
    }
    if (skips >= sm_.cfg.darsie.skips_per_cycle) {
      // Nothing but the table or the warp can change that outcome (arrivals of other warps
      // can, at a synchronization point: no parking there).
      if (!x.sync) park(slot, DarsieWarp::Park::Skip, pc);
      return;
    }
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


}  // namespace simtlm::darsie
