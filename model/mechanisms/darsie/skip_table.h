// DARSIE's PC skip table of one thread block (Sec. 4.3.2): one entry per TB-redundant PC being
// skipped. Besides the paper's fields (PC, warps-waiting mask, IsLoad, LeaderWB) an entry keeps
// what a model needs to stay exact: the dynamic instance it stands for (the leader's position on
// the majority path; every majority warp reaches an instance at the same position), the warps
// that have passed that instance, the version its leader writes, and the followers whose skip
// has not retired yet. Masks are by warp index in the block (at most 64 warps).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simtlm::darsie {

// The structure of a skipped value across the warp's lanes (DARSIE's taxonomy, Sec. 2).
enum class ValueKind : uint8_t { Unknown, Uniform, Affine, Unstructured };
ValueKind classify(const uint32_t* lanes, int n);

struct SkipEntry {
  bool valid = false;
  uint32_t pc = 0;
  uint64_t instance = 0;   // majority-path position of the dynamic instance
  uint64_t arrived = 0;    // warps past this instance (leader, followers, executed it)
  uint64_t waiting = 0;    // sync point: followers waiting for every majority warp
  bool isLoad = false, isGlobalLoad = false;
  bool leaderWB = false;   // the leader's result is in the register file
  bool sync = false;       // the leader took the last free register: a synchronization point
  bool invalid = false;    // a load entry cleared by a store or atomic: arrivals execute it
  bool storeHit = false;   // darsie-ignore-store: a store would have cleared it (not cleared)
  bool stale = false;      // left over from before a barrier: matches no arrival
  int leader = -1;         // warp index in block
  int phys = -1;           // rename-pool register holding the value (RenamePool)
  int pendingSkips = 0;    // followers that skipped it and have not retired the skip yet
  uint64_t earlyHolders = 0;  // darsie-early-skip: warps holding its register for LeaderWB
  ValueKind kind = ValueKind::Unknown;
  uint64_t created = 0;    // creation order (eviction picks the oldest)
};

class SkipTable {
 public:
  explicit SkipTable(int entries) : e_(static_cast<size_t>(entries)) {}
  // The live (non-stale) entry for pc, or -1.
  int find(uint32_t pc) const;
  // A free slot, or -1.
  int freeSlot() const;
  // The oldest entry no one depends on any more (leader written back, no skip in flight):
  // its slot, or -1. Evicting it is safe: a warp that has not passed it yet finds no entry
  // and leads or executes the instance itself.
  int evictable() const;
  SkipEntry& operator[](int i) { return e_[static_cast<size_t>(i)]; }
  const SkipEntry& operator[](int i) const { return e_[static_cast<size_t>(i)]; }
  int size() const { return static_cast<int>(e_.size()); }
  int occupancy() const;
  void clear() { for (auto& x : e_) x = SkipEntry{}; }

 private:
  std::vector<SkipEntry> e_;
};

}  // namespace simtlm::darsie
