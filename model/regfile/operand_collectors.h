// Operand collector units and the bank arbiter of the banked vector register file
// (docs/regfile.md). Pure C++: the SM clocks it.
//
// Per SM cycle c the SM may, in any order, accept() instructions issued in cycle c, request
// writeback()s, and dispatch() ready instructions; then it calls tick(c) once:
//   - an instruction accepted in cycle c competes for bank reads from tick(c + 1) on;
//   - tick(c) performs first the queued writebacks (they take priority over reads for the same
//     bank ports, FIFO per bank when more writes than ports), then grants reads: collectors in
//     round-robin order, each at most collector_ports operands, each bank at most bank_ports
//     accesses in total; a request denied because its bank has no port left is a conflict;
//   - an instruction whose last operand is read in tick(t) is dispatchable from cycle t + 1
//     (one with no register source: from its accept cycle + 2, as if through the read stage).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/regfile/operands.h"
#include "model/regfile/types.h"

namespace simtlm::regfile {

class OperandCollectors {
 public:
  using Tag = uint64_t;  // the SM's handle of the instruction (opaque here)
  struct Ready {
    CollectorId id;
    Tag tag;
  };

  explicit OperandCollectors(const config::GpuConfig::RegFile& cfg,
                             BankMapping mapping = kDefaultBankMapping);

  bool canAccept() const { return busy_ < collectors_.size(); }
  // Puts an instruction issued in `cycle` into the lowest-numbered free collector.
  // Throws std::logic_error when !canAccept().
  CollectorId accept(Tag tag, const Sources& sources, uint64_t cycle);
  // A result to write to the register file; performed in the next tick().
  void writeback(PhysReg p);

  // One cycle of bank arbitration. True if any bank access was performed.
  bool tick(uint64_t cycle);
  // True when no collector is busy and no writeback is pending (ticking would do nothing).
  bool idle() const { return busy_ == 0 && writes_.empty(); }
  // Once per cycle, after the cycle's accepts (collector.full_cycles).
  void countFullCycle() {
    if (busy_ == collectors_.size()) ++c_.fullCycles;
  }
  // Whether nothing is to be read or written and every busy collector's instruction was
  // dispatchable in `cycle`; if so, visit(const Ready&) sees each, oldest accepted first.
  template <class Visit>
  bool allDispatchable(uint64_t cycle, Visit&& visit) const {
    if (!writes_.empty() || reading_ != 0) return false;
    for (size_t k = readyHead_; k < readyOrder_.size(); ++k)
      if (readyOrder_[k].readyAt > cycle) return false;
    for (size_t k = readyHead_; k < readyOrder_.size(); ++k) visit(readyOrder_[k].ready);
    return true;
  }
  // `cycles` cycles in which nothing changed and `refused` offers were refused in each (what
  // dispatchReady() and countFullCycle() would have counted).
  void countUnchanged(uint64_t cycles, uint64_t refused) {
    c_.dispatchStalls += cycles * refused;
    if (busy_ == collectors_.size()) c_.fullCycles += cycles;
  }
  // An instruction with every operand read, dispatchable in `cycle` or earlier, is still in its
  // collector: after this cycle's dispatch, its unit (or in-order dispatch) held it back.
  bool waitingForUnit(uint64_t cycle) const {
    for (size_t k = readyHead_; k < readyOrder_.size(); ++k)
      if (readyOrder_[k].readyAt <= cycle) return true;
    return false;
  }

  // Instructions with every operand read, dispatchable in `cycle`, oldest accepted first.
  // The reference stays valid across dispatch() calls (iterate it and dispatch), until the
  // next readyToDispatch().
  const std::vector<Ready>& readyToDispatch(uint64_t cycle);
  // If unitFree: frees the collector (the instruction leaves for its execution unit) and
  // returns true. Otherwise counts a dispatch stall and returns false. Throws std::logic_error
  // if the collector's instruction is not dispatchable in `cycle`.
  bool dispatch(CollectorId id, uint64_t cycle, bool unitFree);

  // The same walk without building a list, for the SM's every cycle: visit(const Ready&) is
  // called for each instruction dispatchable in `cycle`, oldest accepted first, and returns
  // Offer::Take (its collector is freed, then take(const Ready&) is called: the instruction
  // leaves for its unit), Offer::Refuse (a dispatch stall) or Offer::Skip (left as it is, not
  // counted). visit and take must not call this object: the walk owns its list of ready
  // collectors. Returns the number taken.
  enum class Offer : uint8_t { Skip, Refuse, Take };
  template <class Visit, class Take>
  int dispatchReady(uint64_t cycle, Visit&& visit, Take&& take);
  // The same walk in the order of rank(tag) (ascending; oldest first among equal ranks), for a
  // dispatch policy other than oldest first (round-robin over warps).
  template <class Rank, class Visit, class Take>
  int dispatchReadyRanked(uint64_t cycle, Rank&& rank, Visit&& visit, Take&& take);

  // Physical registers from `first` on are a mechanism's rename registers: their reads, writes
  // and conflicts are also counted as renamed_*.
  // With `free`, their accesses take no bank port and never conflict (an idealization).
  void setRenamedFrom(PhysReg first, bool free = false) {
    renamedFrom_ = index(first);
    renamedFree_ = free;
  }

  // Registers written by the last tick() (for a scoreboard that releases on the write).
  const std::vector<PhysReg>& written() const { return written_; }
  size_t busyCollectors() const { return busy_; }
  // Operands the collector still has to read (0 for a free or ready collector).
  int pendingOperands(CollectorId id) const { return collectors_.at(index(id)).npending; }
  size_t pendingWritebacks() const { return writes_.size(); }
  BankId bank(PhysReg p) const { return bankOf(p, banks_, mapping_); }

  // Counters, under g's prefix (e.g. "sm0.regfile"): reads, writes, conflicts,
  // write_conflicts, bank<N>.{reads,writes,conflicts}, collector.{accepted, dispatched,
  // read_cycles, residency, avg_residency, dispatch_stalls, full_cycles}.
  void registerStats(stats::Group g);

  struct BankCounters {
    stats::Counter reads, writes, conflicts;
  };
  struct Counters {
    stats::Counter reads, writes, conflicts, writeConflicts;
    stats::Counter accepted, dispatched, readCycles, residency, dispatchStalls, fullCycles;
    stats::Counter renamedReads, renamedWrites, renamedConflicts;
  };
  const Counters& counters() const { return c_; }
  const BankCounters& bankCounters(BankId b) const { return bankStats_.at(index(b)); }

 private:
  struct Collector {
    bool busy = false;
    Tag tag = 0;
    uint64_t seq = 0, acceptCycle = 0, readyAt = 0;
    std::array<PhysReg, kMaxSources> pending{};
    uint8_t npending = 0;
  };
  // One bit per collector. The per-cycle walks (the lowest free collector, the collectors
  // still reading in round-robin order) visit set bits only, not every collector.
  class CollectorSet {
   public:
    explicit CollectorSet(size_t n) : words_((n + 63) / 64, 0) {}
    void set(uint32_t i) { words_[i / 64] |= uint64_t{1} << (i % 64); }
    void clear(uint32_t i) { words_[i / 64] &= ~(uint64_t{1} << (i % 64)); }
    int lowest() const;  // -1 when empty
    // visit(i) for each member i, in the order from, from + 1, ..., wrapping round to from - 1,
    // as the set was on entry (visit may remove members).
    template <class Visit>
    void forEachFrom(uint32_t from, Visit&& visit) const;

   private:
    template <class Visit>
    void visitWord(size_t w, uint64_t bits, Visit& visit) const {
      for (; bits != 0; bits &= bits - 1)
        visit(static_cast<uint32_t>(w * 64 + static_cast<size_t>(__builtin_ctzll(bits))));
    }
    std::vector<uint64_t> words_;
  };

  // bank(p) as an index, without the divisions when the bank count is a power of two (the
  // arbiter asks for every operand and writeback).
  uint32_t bankIndex(PhysReg p) const {
    if (bankShift_ < 0) return index(bank(p));
    const uint32_t r = index(p), m = banks_ - 1;
    return mapping_ == BankMapping::Interleaved ? r & m : (r + (r >> bankShift_)) & m;
  }
  bool grantReads(uint64_t cycle);    // true if any read was granted
  bool readOperands(Collector& col);  // this cycle's reads of one collector; true if any granted
  void becomeReady(uint32_t i, uint64_t readyAt);
  // The collector's instruction leaves for its unit (the caller removes it from readyOrder_).
  void release(uint32_t i, uint64_t cycle);

  bool renamed(PhysReg p) const { return index(p) >= renamedFrom_; }
  uint32_t banks_, bankPorts_, collectorPorts_;
  uint32_t renamedFrom_ = ~0u;
  bool renamedFree_ = false;
  BankMapping mapping_;
  int bankShift_;  // log2(banks_), or -1 when banks_ is not a power of two
  std::vector<Collector> collectors_;
  size_t busy_ = 0, reading_ = 0;   // busy collectors; those with operands still to read
  CollectorSet free_, readingSet_;  // free collectors; those with operands still to read
  uint32_t rr_ = 0;                 // round-robin priority: the collector looked at first
  uint64_t seq_ = 0;
  std::vector<uint32_t> portsLeft_;  // by bank, during tick()
  std::vector<PhysReg> writes_, written_;
  // Ready collectors by accept order, with what the dispatch walk reads of them, so that it
  // does not touch the collectors it passes over.
  struct Queued {
    Ready ready;
    uint64_t seq, readyAt;
  };
  // The queue is readyOrder_[readyHead_..]: a walk's takes leave their gap at the front (the
  // entries kept before a taken one move up over it: takes are mostly of the oldest entries).
  std::vector<Queued> readyOrder_;
  size_t readyHead_ = 0;
  std::vector<Ready> readyOut_;
  std::vector<std::pair<uint64_t, size_t>> ranked_;  // dispatchReadyRanked: (rank, readyOrder_ index)
  std::vector<size_t> takenAt_;
  Counters c_;
  std::vector<BankCounters> bankStats_;
};

template <class Visit>
void OperandCollectors::CollectorSet::forEachFrom(uint32_t from, Visit&& visit) const {
  const size_t first = from / 64, n = words_.size();
  const uint64_t below = (uint64_t{1} << (from % 64)) - 1;  // bits of `first` before `from`
  visitWord(first, words_[first] & ~below, visit);
  for (size_t w = first + 1; w < n; ++w) visitWord(w, words_[w], visit);
  for (size_t w = 0; w < first; ++w) visitWord(w, words_[w], visit);
  visitWord(first, words_[first] & below, visit);
}

template <class Visit, class Take>
int OperandCollectors::dispatchReady(uint64_t cycle, Visit&& visit, Take&& take) {
  int taken = 0;
  // In order; a taken entry is covered by the entries kept before it, moved up one (an erase
  // moved the whole tail: takes are mostly near the front). visit and take do not touch
  // readyOrder_, so the walk may hold its pointers across them.
  Queued* const base = readyOrder_.data();
  Queued* const end = base + readyOrder_.size();
  Queued* first = base + readyHead_;  // the first entry kept
  for (Queued* q = first; q != end; ++q) {
    if (q->readyAt > cycle) continue;
    const Offer o = visit(q->ready);
    if (o == Offer::Take) {
      const Ready r = q->ready;
      std::copy_backward(first, q, q + 1);
      ++first;
      release(index(r.id), cycle);
      ++taken;
      take(r);
    } else if (o == Offer::Refuse) {
      ++c_.dispatchStalls;
    }
  }
  readyHead_ = static_cast<size_t>(first - base);
  return taken;
}

template <class Rank, class Visit, class Take>
int OperandCollectors::dispatchReadyRanked(uint64_t cycle, Rank&& rank, Visit&& visit, Take&& take) {
  ranked_.clear();
  for (size_t k = readyHead_; k < readyOrder_.size(); ++k)
    if (readyOrder_[k].readyAt <= cycle) ranked_.push_back({rank(readyOrder_[k].ready.tag), k});
  std::sort(ranked_.begin(), ranked_.end());  // (rank, age order): no two alike, so no stable sort needed
  takenAt_.clear();
  for (const auto& [r, k] : ranked_) {
    const Ready ready = readyOrder_[k].ready;
    const Offer o = visit(ready);
    if (o == Offer::Take) {
      release(index(ready.id), cycle);  // (readyOrder_ is left as it is until the walk ends)
      takenAt_.push_back(k);
      take(ready);
    } else if (o == Offer::Refuse) {
      ++c_.dispatchStalls;
    }
  }
  std::sort(takenAt_.begin(), takenAt_.end());
  for (auto k = takenAt_.rbegin(); k != takenAt_.rend(); ++k)
    readyOrder_.erase(readyOrder_.begin() + static_cast<std::ptrdiff_t>(*k));
  return static_cast<int>(takenAt_.size());
}

}  // namespace simtlm::regfile
