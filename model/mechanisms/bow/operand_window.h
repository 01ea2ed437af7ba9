// One warp's bypassing operand collector (BOW Sec. IV; docs/bow.md) or register-file cache
// (Gebhart et al. 2011), as the operand stage sees it: which of the warp's registers it holds,
// decided when each instruction enters the operand stage, in the warp's issue order. What it
// decides for an instruction (a Decision) is carried out on the values when that instruction
// executes (bow_mechanism.cpp), in the same order, so the two sides never disagree.
#pragma once

#include <cstdint>
#include <vector>

#include "isa/instruction.h"

namespace simtlm::bow {

struct WindowPolicy {
  int window = 3;          // IW: held while accessed by one of the last IW - 1 instructions; 0: no window
  int capacity = 12;       // registers held at most; past it the oldest entry (FIFO) leaves
  bool fillOnRead = true;  // a source read from the banks is kept (BOW); false: allocate on write (RFC)
  bool writeBack = false;  // results kept only here, written back when they leave; false: write-through
  bool hints = false;      // write-back: follow the compiler's hints (BOW-WR, Sec. IV-B)
  bool loadsKept = true;   // memory results enter (BOW); false: they go to the banks only (RFC)
};

// What the instruction's execution does with the buffer, in order: evict (write back those in
// evictWb first), fill, execute (bypassed sources read here; the kept destination written
// here), then drop the destination's entry (destDrop) or write the result through (!destDirty).
struct Decision {
  uint64_t evict = 0, evictWb = 0;  // entries that leave before it executes; those written back
  uint64_t bypass = 0;  // sources read from the buffer
  uint64_t fill = 0;    // sources read from the banks and kept
  int dest = -1;        // destination kept in the buffer (-1: none)
  bool destDirty = false;  // the result stays only in the buffer (write-back)
  bool destLoad = false;   // a memory result: it arrives later, and fills the entry then
  int destDrop = -1;       // destination whose entry leaves after it executes (result to the banks)
  bool flushAll = false;   // the warp exits: every entry leaves, the dirty ones written back
};

struct WindowCounters {
  uint64_t bypassed = 0;        // source reads served by the buffer
  uint64_t bankReads = 0;       // source reads from the banks
  uint64_t fills = 0;           // sources kept after their bank read
  uint64_t keptResults = 0;     // results written into the buffer
  uint64_t bankResults = 0;     // results written to the banks (write-through or RF only)
  uint64_t heldResults = 0;     // results written only into the buffer
  uint64_t writebacks = 0;      // dirty values written back as they left the window
  uint64_t earlyWritebacks = 0; // dirty values written back before their time (FIFO eviction, warp exit)
  uint64_t consolidated = 0;    // dirty values overwritten in the buffer (their write bypassed)
  uint64_t transientDropped = 0;  // transient (BOC-only) values that left unwritten
  uint64_t evictions = 0;       // entries pushed out by a full buffer (FIFO)
  uint64_t remapDrops = 0;      // entries dropped because the register was renamed
  uint64_t occupancySum = 0, occupancySamples = 0, occupancyMax = 0;  // per instruction admitted
};

class OperandWindow {
 public:
  // The instruction enters the operand stage. `partial`: it writes fewer lanes than the warp has
  // (a guard, divergence), so the old value's other lanes must survive.
  Decision admit(const isa::Instr& in, bool partial, isa::BowHint hint, const WindowPolicy& p,
                 WindowCounters& c);
  // The warp exits after its last admitted instruction: every dirty entry is written back.
  // Returns the registers written back.
  uint64_t flush(WindowCounters& c);
  // The register now means another value (a rename): its entry leaves unwritten.
  void drop(uint8_t r, WindowCounters& c);
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    uint8_t reg;
    bool dirty, transient;
    uint64_t lastUse, inserted;
  };
  Entry* find(uint8_t r);
  void erase(uint8_t r);
  // Makes room for one more entry (evicting the oldest not in `pinned`); false when it cannot.
  bool makeRoom(const WindowPolicy& p, uint64_t pinned, Decision& d, WindowCounters& c);

  std::vector<Entry> entries_;
  uint64_t seq_ = 0, inserted_ = 0;
};

}  // namespace simtlm::bow
