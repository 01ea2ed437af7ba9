// DARSIE's life in one SM (docs/darsie.md): construction, launch (marking, rename registers per
// block), block admission and retirement, the SM's wake-ups, and the statistics. The skipper is
// in darsie_skipper.cpp, the issue side in darsie_issue.cpp, the register side in
// darsie_registers.cpp.
#include <algorithm>

#include "model/mechanisms/darsie/darsie_mechanism.h"

namespace simtlm::darsie {

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
  d.watch.reset(sm_.warps.size());
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
  d_.watch.touchAll();
}


// Full warps without divergence or exited lanes may lead and follow (Sec. 4.5, rule 2).
bool DarsieMechanism::eligible(const sm::WarpSlot& w) const {
  const uint32_t W = sm_.image.launch.warpSize;
  const uint32_t full = W >= 32 ? ~0u : (1u << W) - 1;
  return w.ctx->liveMask() == full && w.ctx->exitedMask() == 0 && w.ctx->stackDepth() == 1;
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
