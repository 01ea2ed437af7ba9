// The BOW bypass-opportunity study (BOW Sec. III, Fig. 3 and Fig. 7): an oracle over a run of
// the functional interpreter, independent of any mechanism. Per warp, over the stream of its
// executed instructions, for instruction windows IW = 2..7:
//  - read bypass: a general-register source operand whose register was read or written by one
//    of the warp's previous IW-1 instructions (the window holds the operands of the last IW
//    instructions; each access keeps the register in it for IW-1 more: the extended window);
//  - write bypass: a result that never needs the register file, because every read of it is
//    reached through such a chain of accesses and it is dead after the chain (overwritten, or
//    the warp ends). Results are classified like the compiler hints of isa/bow_hints:
//    register file only (no read in the window), BOC only (bypassed), both.
// The hints at IW 3 (isa/bow_hints) are counted per executed instruction beside the dynamic
// classification, as a cross-check. Choices the paper leaves open: docs/bow.md.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "isa/interpreter.h"

namespace simtlm::isa {

// Write destinations, in Fig. 7's order.
enum class BowDest : uint8_t { RegisterFile, Boc, Both };

struct BowWindowCounts {
  uint64_t readBypassed = 0;         // source operands found in the window
  std::array<uint64_t, 3> dest{};    // results by BowDest; dest[Boc] are the bypassed writes
  uint64_t writeBypassed() const { return dest[static_cast<int>(BowDest::Boc)]; }
};

struct BowStudyResult {
  static constexpr int kMinWindow = 2, kMaxWindow = 7, kHintWindow = 3;
  uint64_t warpInstructions = 0;
  uint64_t reads = 0;          // general-register source operands (distinct per instruction)
  uint64_t writes = 0;         // executed instructions with a general-register result
  uint64_t partialWrites = 0;  // of those, written for only some of the warp's live lanes
  std::array<BowWindowCounts, kMaxWindow - kMinWindow + 1> windows;
  std::array<uint64_t, 3> hints{};                    // IW-3 hints of the executed writes
  std::array<std::array<uint64_t, 3>, 3> hintVsDynamic{};  // [hint][dynamic class] at IW 3
  // Of the BOC-only results at IW 3: never read; read, and not overwritten before the warp ended.
  uint64_t bocUnread = 0, bocAtExit = 0;

  const BowWindowCounts& at(int iw) const { return windows.at(iw - kMinWindow); }
  uint64_t hintAgreement() const { return hintVsDynamic[0][0] + hintVsDynamic[1][1] + hintVsDynamic[2][2]; }
};

const char* bowDestName(BowDest d);

class BowStudy : public ExecObserver {
 public:
  void onLaunch(const Kernel& k, const LaunchConfig& l) override;
  void onBlockStart(uint32_t blockLinear, uint32_t numWarps) override;
  void onWarpStep(const WarpStep& s) override;
  void onBlockEnd(uint32_t blockLinear) override;

  const BowStudyResult& result() const { return r_; }

 private:
  static constexpr int kNumWindows = BowStudyResult::kMaxWindow - BowStudyResult::kMinWindow + 1;
  // Per warp: when each register was last accessed, and the state of its current value per
  // window (bit IW - kMinWindow): read inside the window, needs the register file.
  struct WarpState {
    uint64_t time = 0;
    uint32_t exited = 0;
    uint64_t accessed = 0, hasValue = 0;  // bit r
    std::array<uint64_t, kMaxRegs> last{};
    std::array<uint8_t, kMaxRegs> windowRead{}, needsRf{};
    std::array<uint32_t, kMaxRegs> defInstr{};
  };

  void touch(WarpState& w, int r);       // an access to the register's current value
  void finish(WarpState& w, int r, bool atExit = false);  // its current value ends: classify it
  void define(WarpState& w, int r, uint32_t instr, bool partial);

  BowStudyResult r_;
  std::vector<BowHint> hints_;  // IW-3 hints of the running kernel
  std::vector<WarpState> warps_;
};

}  // namespace simtlm::isa
