// DARSIE as a mechanism of the SM (docs/darsie.md; DARSIE Sec. 4.3-4.5), attached through the
// SM's hooks (model/sm/sm_mechanism.h). Launch, admission, statistics: darsie_mechanism.cpp.
// The skipper (darsie_skipper.cpp) beside the fetch scheduler with the PC skip table and its PC
// coalescer, leader election, followers' waits and skips. Issue side (darsie_issue.cpp): skips
// retired in program order, majority-path branch barriers, leaving the majority path. Register
// side (darsie_registers.cpp): renaming onto the block's rename pool (values and banks), the
// leader's version written at dispatch, LeaderWB, the load rules of Sec. 4.4, bar.sync's rejoin.
// The variants darsie-ignore-store, darsie-no-cf-sync and darsie-early-skip are flags of the
// same mechanism (DarsieVariant).
#pragma once

#include <cstdint>
#include <string>

#include "model/mechanisms/darsie/darsie_state.h"
#include "model/sm/sm_mechanism.h"

namespace simtlm::darsie {

// What an observer of the SM (a warp timeline, docs/timeline.md) is told, besides the instants
// "leader" (an election), "skip" (a follower's skip retired) and "majority leave": a follower's
// probe waiting for its leader's write-back (darsie.leaderwb_waits, per cycle) and a warp
// waiting at a branch barrier of the majority path (darsie.branch_stall_cycles).
inline constexpr const char* kFollowerWait = "follower wait";
inline constexpr const char* kMajorityWait = "majority-path wait";

class DarsieMechanism final : public sm::SmMechanism {
 public:
  // What the SM reserves for DARSIE before it is built: each block's rename pool in the banks.
  static sm::MechanismResources resources(const config::GpuConfig& cfg);
  DarsieMechanism(sm::SmContext& sm, stats::Registry& stats, DarsieVariant variant);

  void kernelStarted() override;
  int regsPerBlock() const override;
  void blockAdmitted(int blockSlot) override;
  void blockRetired(int blockSlot) override;
  void warpExited(int slot) override;
  void warpDrained(int slot) override;
  void beforeFetch(uint64_t cycle) override;
  bool holdsFetch(int slot) const override;
  void delivered(int slot, sm::IBufferEntry& e) override;
  // bar.sync too: the majority path is redrawn there.
  bool fetchStopsAfter(const isa::Instr& in) const override { return in.op == isa::Op::BAR_SYNC; }
  bool holdsIssue(int slot) const override;
  void retireSkips(int slot) override;
  void issued(int slot, const sm::IBufferEntry& e, bool diverged) override;
  void flushed(int slot) override;
  void beforeExecute(int slot, const isa::Instr& in, uint32_t pc) override;
  void written(int slot, const isa::Instr& in) override;
  void barrierReleased(sm::BlockSlot& b) override;
  void woken(int slot) override;
  std::string describeWarp(int slot) const override;
  // Skips, branch barriers and the rename pool couple the warps of a block across schedulers.
  bool couplesWarps() const override { return true; }
  // Every change of a warp's issue checks wakes it: skips delivered, retired or turned back, a
  // branch barrier's release, leaving the majority path (its copy hold), early-skip holds.
  bool wakesOnIssueChanges() const override { return true; }

 private:
  void registerStats(stats::Registry& r);
  bool eligible(const sm::WarpSlot& w) const;
  bool mustDecide(const sm::WarpSlot& w, int slot) const;  // fetch must not fetch its PC yet
  void probe(int slot, int& skips);
  void park(int slot, DarsieWarp::Park kind, uint32_t pc, int entry = -1);
  // What probe() would find the warp waiting for again, on the entry of its last wait
  // (DarsieWarp::parkEntry): that entry is the live one for its fetch PC (one per PC), at its
  // position, not passed by it, not cleared, and either a synchronization point the warp waits
  // at that not every majority warp reached, or not written back. The skipper then counts the
  // wait without the table lookup (Wait::None: probe).
  enum class Wait : uint8_t { None, Sync, LeaderWB };
  Wait waitsAgain(const sm::WarpSlot& w, const DarsieWarp& dw) const {
    if (dw.parkEntry < 0 || d_.earlySkip) return Wait::None;
    const DarsieBlock& db = *d_.blocks[w.block];
    const SkipEntry& x = db.table[dw.parkEntry];
    const uint64_t bit = bitOf(w.indexInBlock);
    if (!x.valid || x.stale || x.pc != w.fetchPc || x.instance != dw.fetchPos || (x.arrived & bit) || x.invalid)
      return Wait::None;
    if (x.sync) return (x.waiting & bit) && ((x.arrived | x.waiting) & db.majority) != db.majority ? Wait::Sync : Wait::None;
    return x.leaderWB ? Wait::None : Wait::LeaderWB;
  }
  // A warp parked at a synchronization point (Wait::Sync) at the current epoch waits there
  // still unless every majority warp has arrived since (arrivals leave the epoch alone).
  bool syncWaits(const sm::WarpSlot& w, const DarsieWarp& dw) const {
    const DarsieBlock& db = *d_.blocks[w.block];
    const SkipEntry& x = db.table[dw.parkEntry];
    return ((x.arrived | x.waiting) & db.majority) != db.majority;
  }
  // The waits of the warps in `waiting` (word wd of SkipperWatch::parkedWb) this cycle.
  void countLeaderWbWaits(size_t wd, uint64_t waiting);
  // The warp's state changed in a way the skipper must look at again (a wait may have ended).
  void touch(int slot) { d_.watch.touch(slot); }
  void followPath(int slot, const sm::IBufferEntry& e, bool diverged);
  void tryReleaseBranch(int blockSlot);
  void leave(int slot);
  void mapReg(int slot, uint8_t r, int phys);
  void unmapReg(int slot, uint8_t r);
  void writeVersion(int slot, const isa::Instr& in, uint32_t pc);
  void clearLoadEntries(int slot, const isa::OpInfo& oi);
  void checkLoad(int slot, const SkipEntry& x, const isa::Instr& in);
  bool checkReady(int slot) const;
  void finishCheck(int slot);
  bool verifiedSkip(int slot, const sm::IBufferEntry& e, const SkipEntry& x);
  void sweep(int blockSlot);
  // darsie-early-skip: the warp's named register r maps entry e's version before its leader
  // wrote it back: r stays pending in the warp's scoreboard until then (holdEarly); the
  // leader's write-back ends every such wait on its entry (releaseEarly).
  void holdEarly(int slot, uint8_t r, SkipEntry& x);
  void releaseEarly(int blockSlot, uint64_t holders, uint8_t r);
  bool mayLeaveNow(const DarsieWarp& dw) const { return dw.pendingLeads == 0 && dw.earlyHeld == 0; }

  sm::SmContext& sm_;
  DarsieState d_;
};

}  // namespace simtlm::darsie
