// DARSIE's state in one SM (docs/darsie.md; DARSIE Sec. 4.3-4.5): per resident block the PC
// skip table, the rename pool and the majority-path mask; per warp slot its position on the
// majority path, its pending decision at the fetch PC and its branch-barrier wait. The hooks
// that use it are in darsie_skipper.cpp (front end), darsie_issue.cpp (issue side) and
// darsie_registers.cpp (renaming, versions, load rules, barriers).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "model/mechanisms/darsie/darsie_skipper.h"
#include "model/mechanisms/darsie/launch_marking.h"
#include "model/mechanisms/darsie/rename_pool.h"
#include "model/mechanisms/darsie/skip_table.h"

namespace simtlm::darsie {

// A warp's bit in a block's masks (majority path, arrived, waiting).
inline uint64_t bitOf(int indexInBlock) { return uint64_t{1} << indexInBlock; }

// Which DARSIE: the paper's (all false) or one of its labelled variants (docs/darsie.md).
struct DarsieVariant {
  bool ignoreStores = false;  // darsie-ignore-store: stores clear no load entry (Fig. 8)
  bool noCfSync = false;      // darsie-no-cf-sync: no branch barriers or freelist syncs (Fig. 12)
  bool earlySkip = false;     // darsie-early-skip: followers skip before LeaderWB
};

struct DarsieWarp {
  uint64_t fetchPos = 0, issuePos = 0;  // instructions passed since the last barrier
  uint32_t decidedPc = ~0u;             // fetch may fetch this TB-redundant PC (lead or own)
  int decidedEntry = -1;                // the entry it leads there, or -1 (executes it itself)
  std::deque<std::pair<uint32_t, int>> leads;  // issued lead instructions: PC, entry
  std::vector<int16_t> leadWrite;       // by named register: entry whose LeaderWB its write sets
  int pendingLeads = 0;                 // lead results not yet written back
  bool branchWait = false;              // at a branch barrier of its block
  uint32_t branchTarget = 0;
  bool branchDiverged = false;
  uint64_t waitSince = 0;
  bool leavePending = false;            // leaves the majority path once its leads wrote back
  // darsie-early-skip: registers held in the scoreboard for a leader's write-back: their count,
  // and by named register the entry held for (-1: none) and since when.
  int earlyHeld = 0;
  std::vector<int16_t> heldFor;
  std::vector<uint64_t> heldSince;
  uint64_t busyUntil = 0;               // copying renamed registers out
  bool releasePending = false;          // exited: versions to give back once drained
  // The skipper's last probe of this warp waited (SkipperWatch::parked): at this PC, for this
  // reason, with the table as it was at this epoch.
  // (Skip: its skip was ready, but the cycle's skips_per_cycle were used up. Port: it must
  // decide, but found no read port; whatever the epoch. SyncWB: LeaderWB at a synchronization
  // point every majority warp reached.)
  enum class Park : uint8_t { LeaderWB, Lap, Sync, Skip, Port, SyncWB } parkKind = Park::LeaderWB;
  uint32_t parkPc = 0;
  uint64_t parkEpoch = 0;
  int parkEntry = -1;  // the entry a LeaderWB wait was for (a guess once the wait is over)
  // A TB-redundant load the warp executes itself because a store or atomic cleared its entry
  // (Sec. 4.4): the leader's version (held by a reference of its own) is compared with the
  // warp's value once both have written back (docs/darsie.md, "Loads"). Younger skips wait for
  // the comparison once the load dispatched.
  struct LoadCheck {
    bool active = false, dispatched = false, ownDone = false;
    uint32_t pc = 0;
    uint8_t reg = 0;
    int entry = -1, phys = -1;
    std::array<uint32_t, 32> own{};  // the warp's value, when it wrote back
  } check;
};

struct DarsieBlock {
  SkipTable table;
  RenamePool pool;
  uint64_t majority = 0;  // warps on the majority path (by index in block)
  uint64_t counter = 0;   // entry creation order
  // darsie-no-cf-sync: the branch outcome the first majority warp took, by position (at most
  // darsie.branch_history); positions below `forgotten` were dropped from it.
  std::deque<std::pair<uint64_t, uint32_t>> decided;
  uint64_t forgotten = 0;
  DarsieBlock(int entries, int regs, int lanes, int warps, int named)
      : table(entries), pool(regs, lanes, warps, named) {}
};

struct DarsieState {
  LaunchMarking marking;
  int poolRegs = 0;  // rename registers per block for this kernel
  bool noCfSync = false, ignoreStores = false, earlySkip = false;
  std::vector<DarsieWarp> warps;                 // by slot
  std::vector<std::optional<DarsieBlock>> blocks;  // by block slot
  SkipperWatch watch;                            // which warps the skipper looks at
  void bumpEpoch() { watch.bumpEpoch(); }        // a skip table changed: waits may end
  uint64_t liveEntries = 0;                      // skip-table entries in use, all blocks
  // statistics
  uint64_t skipped = 0, skippedUniform = 0, skippedAffine = 0, skippedUnstructured = 0;
  uint64_t elections = 0, leaderWbWaits = 0, lapWaits = 0, privateExec = 0;
  uint64_t branchBarriers = 0, branchStall = 0, leaves = 0, copied = 0;
  uint64_t freelistSyncs = 0, freelistWait = 0, freelistEmpty = 0;
  uint64_t occupancySum = 0, occupancyMax = 0, evictions = 0, fullEvents = 0;
  uint64_t invalidByStore = 0, invalidByAtomic = 0, unskipped = 0, rejoins = 0, adopted = 0, adoptionsDeferred = 0;
  uint64_t portLimited = 0;
  // Idealized variants, where the idealization would have changed a value (docs/darsie.md):
  // no-cf-sync warps that found their branch's outcome forgotten; ignore-store skips whose
  // entry a store had hit, and of those the ones whose leader's value was stale.
  uint64_t historyMisses = 0, storeHitSkips = 0, staleSkips = 0;
  uint64_t loadChecks = 0, loadCheckLeaves = 0;  // see DarsieWarp::LoadCheck
  uint64_t earlyHolds = 0, earlyHoldCycles = 0;  // darsie-early-skip (DarsieWarp::earlyHeld)
  // For the energy layer: skip-table read-port accesses, rename-table reads (one per register
  // operand of an issued instruction), versions taken from / returned to the freelist by blocks
  // already retired (live blocks' pools are added when read).
  uint64_t tableLookups = 0, renameLookups = 0, retiredTaken = 0, retiredReleased = 0;
};

}  // namespace simtlm::darsie
