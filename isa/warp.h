// The architectural state of one warp and the functional effect of an instruction on it:
// registers, predicates, the SIMT reconvergence stack and exited lanes. The functional
// interpreter and the timing model both execute through this, so they agree by construction.
// Memory instructions are split into address generation and result write-back, so that a
// timing model can route the accesses through its own memory system.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "isa/launch.h"

namespace simtlm::isa {

struct SimtEntry {
  uint32_t pc, rpc, mask;  // rpc: reconvergence PC (Cfg::kNoReconvergence: kernel exit)
};

// Copies of operands an observer sees; they must outlive the write of the destination.
struct StepCapture {
  uint32_t src[4][32];
  uint32_t result[32];
};

class alignas(64) WarpContext {
 public:
  WarpContext(const Kernel& k, const LaunchConfig& l, const std::array<uint32_t, 3>& ctaid,
              uint32_t warpInBlock);

  int lanes() const { return lanes_; }
  bool done() const { return depth_ == 0; }
  uint32_t pc() const { return top_.pc; }
  uint32_t liveMask() const { return liveMask_; }  // lanes that exist (partial last warp)
  uint32_t exitedMask() const { return exited_; }
  uint32_t activeMask() const { return top_.mask & ~exited_; }
  // Active lanes whose guard predicate holds.
  uint32_t execMask(const Instr& in) const {
    uint32_t g = preds_[in.guard];
    return activeMask() & (in.guardNeg ? ~g : g);
  }
  // The SIMT stack, bottom first (a copy; for inspection).
  std::vector<SimtEntry> stack() const;
  size_t stackDepth() const { return depth_; }

  WarpContext(const WarpContext& o);
  WarpContext& operator=(const WarpContext& o);
  WarpContext(WarpContext&&) noexcept = default;  // the rows move with the vector's buffer
  WarpContext& operator=(WarpContext&&) noexcept = default;

  // The values of named register r: the warp's own row, or a row it was mapped to.
  uint32_t* reg(uint8_t r) { return rows_[r]; }
  const uint32_t* reg(uint8_t r) const { return rows_[r]; }
  // Register renaming (DARSIE Sec. 4.3.1): reads and writes of r go to `row` (lanes() words
  // owned by the caller, alive while mapped) until unmapReg(r) points r back at the warp's
  // own storage, whose contents are whatever they were before the mapping.
  void mapReg(uint8_t r, uint32_t* row) { rows_[r] = row; }
  void unmapReg(uint8_t r) { rows_[r] = privateReg(r); }
  bool isMapped(uint8_t r) const { return rows_[r] != privateReg(r); }
  uint32_t* privateReg(uint8_t r) { return &regs_[static_cast<size_t>(r) * lanes_]; }
  const uint32_t* privateReg(uint8_t r) const { return &regs_[static_cast<size_t>(r) * lanes_]; }
  uint32_t pred(uint8_t p) const { return preds_[p]; }

  // ALU formats (Unary, Binary, Ternary, Select, Special, Compare, PredBinary, PredUnary):
  // computes the result for the `exec` lanes and writes it. With `step`, records the source
  // operands (copied into `cap`) and the result.
  void executeAlu(const Instr& in, uint32_t exec, WarpStep* step = nullptr, StepCapture* cap = nullptr);
  // Memory formats: the byte address of every `exec` lane into `addr` (lanes() words, the
  // others keep their value).
  void addresses(const Instr& in, uint32_t exec, uint32_t* addr) const;
  // Local accesses: the global addresses (isa/local_memory.h) of the per-thread byte offsets of
  // the `exec` lanes (multiples of 4 inside .local, as the caller checked) into `addr` (may be
  // `offsets`). The interpreter and the timing model both translate through this.
  void localToGlobal(uint32_t exec, const uint32_t* offsets, uint32_t* addr) const;
  // Writes per-lane `values` into rD for the `exec` lanes (load data, atomics' old words).
  // `values` holds lanes() words: all are read (a vector select), only the exec lanes written.
  void writeLanes(uint8_t d, const uint32_t* values, uint32_t exec);
  // Moves the SIMT stack past the instruction at pc(): a branch diverges (reconverging at
  // `reconvPc`) or jumps, `exit` retires the `exec` lanes, anything else falls through.
  // Returns true when a branch diverged.
  bool advance(const Instr& in, uint32_t exec, uint32_t reconvPc);

 private:
  void settle();
  void push(const SimtEntry& e) {
    if (depth_ > 0) below_.push_back(top_);
    top_ = e;
    ++depth_;
  }
  void pop() {
    if (--depth_ > 0) {
      top_ = below_.back();
      below_.pop_back();
    }
  }
  uint32_t allLanes() const { return lanes_ == 32 ? ~0u : (1u << lanes_) - 1; }  // every lane, live or not

  void resetRows();

  // What issuing an instruction reads (the guard's mask, exited lanes, the stack's top) comes
  // first, in the object's first 64 bytes: a timing model holds many warps and reaches each one's
  // context a host cache miss away.
  std::array<uint32_t, kNumPreds + 1> preds_{};  // lane bit masks; pt is all ones
  uint32_t exited_ = 0, liveMask_ = 0;
  // The SIMT stack: its top entry (what every instruction reads) here, the entries under it in
  // below_ (touched only when a branch diverges or a path reconverges).
  SimtEntry top_{};
  uint32_t depth_ = 0;  // entries, the top included; 0 once every lane exited
  std::vector<SimtEntry> below_;
  int lanes_;
  std::vector<uint32_t> regs_;                   // regs_[r * lanes + lane]
  std::vector<uint32_t*> rows_;                  // by register: where its values live
  uint32_t localBase_ = 0, gridThreads_ = 0, firstThread_ = 0;  // local space; lane 0's thread in the grid
  std::array<std::array<uint32_t, 32>, kNumSpecials> specials_{};
};

}  // namespace simtlm::isa
