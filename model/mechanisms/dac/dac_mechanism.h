// DAC-IDEAL (docs/dac.md; DARSIE Sec. 5, "Idealized Decoupled Affine Computation"): instructions
// detected at run time as uniform or affine across the thread block are executed once per block,
// by the first warp that issues each dynamic instance (the leader), and removed before fetch for
// the block's other warps (followers), with no synchronization cost. A follower's removed
// instance is a skip in its I-buffer (as DARSIE's, darsie_skipper.cpp): several are delivered
// per cycle by incrementing the fetch PC, and each takes effect at the I-buffer's front in
// program order, where the warp's destination gets the exact value of its own threads (the ISA
// semantics on its own sources) and no cycle, fetch, issue or unit is charged.
//
// A dynamic instance is (PC, how many times the warp passed that PC before). Which instances
// qualify comes from per-warp runtime tags (value_tags.h) kept in program order at issue. The
// leader is decided by an oracle at fetch: the first warp of the block whose fetch reaches an
// instance it will execute as uniform or affine (its tags carried forward through what it has
// fetched) claims it, so the block's other warps skip it without fetching it, whether or not the
// leader has fetched or issued it yet (DARSIE Sec. 5: removed before fetch, no synchronization).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/mechanisms/dac/value_tags.h"
#include "model/sm/sm_mechanism.h"

namespace simtlm::dac {

class DacMechanism final : public sm::SmMechanism {
 public:
  DacMechanism(sm::SmContext& sm, stats::Registry& stats);

  void kernelStarted() override;
  void blockAdmitted(int blockSlot) override;
  void blockRetired(int blockSlot) override;
  void warpExited(int slot) override;
  void beforeFetch(uint64_t cycle) override;
  bool holdsFetch(int slot) const override;
  void retireSkips(int slot) override;
  void delivered(int slot, sm::IBufferEntry& entry) override;
  void issuing(int slot, const sm::IBufferEntry& e, uint32_t exec) override;
  void flushed(int slot) override;
  std::string describeWarp(int slot) const override;
  // Skips wait at the I-buffer's front for the warp's own older instructions; the issue stage
  // retires them only for a mechanism that couples warps (a leader's issue lets other warps skip).
  bool couplesWarps() const override { return true; }

  // Skips a warp may hold in its I-buffer (a model bound: the ideal has none; a warp at it
  // waits to fetch a PC its leader executes).
  static constexpr int kMaxSkips = 32;
  // Instances one block remembers (leaders' records not yet passed by every warp of the block);
  // past it a qualifying leader records nothing (dac.records_full).
  static constexpr size_t kMaxRecords = 4096;
  // The I-buffer tag of a skip made of a fetched instruction (removeFetched); other skips -1.
  static constexpr int16_t kFetchedTag = 1;
  // Instructions of a straight-line run the oracle decides at once, ahead of the warp's fetch.
  static constexpr int kClaimRun = 32;

 private:
  struct Warp {
    WarpTags tags;
    std::vector<uint32_t> passed;  // by instruction index: instances issued or skipped
    // After a branch whose predicate is not uniform the block's warps may be on different paths:
    // until the warp reaches the branch's reconvergence PC it neither leads nor follows, and
    // what it writes is generic (the static analysis' join rule).
    bool offPath = false;
    uint32_t offUntil = 0;
    // The oracle decided the straight-line run up to this PC (0: nothing decided since the
    // warp's last control instruction or I-buffer flush).
    uint32_t claimedEnd = 0;
  };
  struct Record {
    Tag kind;          // Uniform or Affine
    uint32_t passed;   // warps of the block that passed this instance
    int leader;        // the warp slot that executes it
  };
  struct Block {
    std::unordered_map<uint64_t, Record> records;  // by key(): the leaders' qualifying instances
    uint32_t warps = 0;
  };
  static uint64_t key(size_t idx, uint32_t instance) { return uint64_t{idx} << 32 | instance; }

  // Every thread of the warp exists, runs and has not exited, on the block's common path.
  // At fetch: the common path counts from the reconvergence PC already fetched.
  bool eligible(int slot, bool atFetch = false) const;
  static bool rejoinsBefore(const sm::WarpSlot& w, uint32_t pc);
  // The warp's fetch PC is an instance a leader of its block executed as uniform or affine.
  // (The test most warps fail inline: the call itself cost more than it.)
  bool skippable(int slot) const {
    const size_t idx = isa::Kernel::indexOf(sm_.warps[static_cast<size_t>(slot)].fetchPc);
    return idx < removable_.size() && removable_[idx] && ledByOther(slot, idx);
  }
  bool ledByOther(int slot, size_t idx) const;  // the rest of skippable()
  // The instance of the instruction at `pc` the warp reaches next after its I-buffer's entries.
  uint32_t fetchInstance(int slot, uint32_t pc) const;
  void pass(int slot, size_t idx, uint32_t instance);  // the warp passed that instance
  uint32_t passedBy(int blockSlot, size_t idx, uint32_t instance) const;
  void unskip(int slot);
  void removeFetched(int slot, uint32_t pc, size_t idx, uint32_t instance);
  // The tags the warp's registers will hold once what its I-buffer holds has issued.
  WarpTags tagsAtFetch(int slot) const;
  // The oracle: the warp leads the qualifying instances of the run from its fetch PC that no
  // warp of its block leads yet. Called only when that run is not decided yet (claimed()).
  void claimAhead(int slot);
  bool claimed(const Warp& dw, uint32_t fetchPc) const { return dw.claimedEnd != 0 && fetchPc < dw.claimedEnd; }
  // Records that the warp leads the instance (it executes it; the other warps skip it).
  bool lead(int slot, uint32_t pc, size_t idx, uint32_t instance, Tag kind);

  sm::SmContext& sm_;
  std::vector<uint8_t> removable_;           // by instruction index: removableOp, for the launch
  std::vector<Warp> warps_;                  // by slot
  std::vector<std::optional<Block>> blocks_;  // by block slot
  uint64_t leadUniform_ = 0, leadAffine_ = 0, removedUniform_ = 0, removedAffine_ = 0;
  uint64_t followerExecs_ = 0, unskipped_ = 0, recordsFull_ = 0, offPathEntries_ = 0;
  uint64_t leaders_ = 0, removed_ = 0, fetchedSkips_ = 0, decidedAtFetch_ = 0, decidedAtIssue_ = 0;
  uint64_t leaderMismatches_ = 0;
};

}  // namespace simtlm::dac
