// The hooks through which a mechanism attaches to an SM (docs/mechanisms.md). The SM's units
// call them at fixed points of the pipeline; a mechanism overrides those it needs and acts on
// the SM through its SmContext. No unit tests which mechanism runs: the units only know that
// one is attached.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "isa/opcode.h"
#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/regfile/operands.h"
#include "model/sm/global_access.h"
#include "model/sm/sm_observer.h"
#include "model/sm/sm_state.h"

namespace simtlm::mem {
class SharedMemory;
}
namespace simtlm::sm {

class OperandStage;
class Scoreboard;

// What a mechanism needs of the machine before the SM is built: registers it keeps in the
// register-file banks beside the warps' own (per resident block, at most), and whether reads of
// them conflict in the banks.
struct MechanismResources {
  int regsPerBlock = 0;
  bool regsConflictFree = false;
  std::string regsName;  // what they are and their parameter, for messages
  // Ready instructions leave the operand collectors round-robin over the warps (starting after the
  // warp that last dispatched) instead of oldest first: collectors dedicated to warps.
  bool dispatchRoundRobin = false;
};

// What a mechanism sees of its SM: the warp and block slots, the running kernel, the units it
// acts through, and the SM's event count. A mechanism that changes what a warp can do (delivers
// an instruction, opens a wait) counts an event, so that the SM's scanners that sleep until
// something changes look again, and wakes the warp whose fetch it lets go (a decision, a wait
// that ends), so that the fetch scan, which looks only at woken warps, looks at it again.
struct SmContext {
  int id;
  const config::GpuConfig& cfg;
  const KernelImage& image;
  std::vector<WarpSlot>& warps;
  std::vector<BlockSlot>& blocks;
  OperandStage& operands;
  const Scoreboard& scoreboard;
  const std::unique_ptr<mem::SharedMemory>& shared;
  uint64_t& events;   // the SM's progress events (SmCore::stateVersion)
  uint64_t& fetched;  // instructions fetched (a skip turned back into an instruction counts)
  uint64_t now = 0;   // the cycle the SM is in
  std::function<IBufferEntry(uint32_t pc)> decode;  // the decoded instruction at `pc`
  // Drops the warp's I-buffer (calling the mechanism's flushed()) and refetches from its PC.
  std::function<void(int slot)> dropFront;
  std::function<void(int slot)> wake;  // the SM looks at the warp again (SmMechanism::woken follows)
  // Moves the warp past `in`, the instruction at `pc` (WarpContext::advance with the kernel's
  // reconvergence PC), keeping the SM's copy of its PC (WarpSlot::pc); returns true when a
  // branch diverged. A mechanism moves a warp only through this.
  std::function<bool(int slot, const isa::Instr& in, uint32_t exec, uint32_t pc)> advance;
  // Makes the warp's named register pending in the scoreboard (instructions reading or writing
  // it wait, as for a write in flight) / ends that (the warp is woken). For a value another
  // warp writes later into a register the warp already maps.
  std::function<void(int slot, uint8_t reg, bool hold)> holdRegister;
  void event() { ++events; }
  // An event of the mechanism's own for an observer of the SM (a timeline), at cycle `now`;
  // `what` is a string literal naming it. Nothing happens without an observer.
  SmObserver* observer = nullptr;
  void report(MechanismEvent kind, const char* what, int slot) const {
    if (observer) observer->mechanismEvent(id, slot, kind, what, now);
  }
};

// What executing an instruction takes: the lanes its semantics compute and the cycles it keeps
// its unit instance busy. The SM fills it in (the lanes fixed at issue, warp size / unit width
// cycles, the class's latency); a mechanism may narrow it (a uniform instruction computed on one
// lane in one cycle; a reused result, no lane and one cycle) or lengthen it (an inserted copy),
// never widen the lanes.
struct ExecutePlan {
  uint32_t exec;
  uint64_t occupancy;
  uint64_t latency;  // cycles from the unit's last occupied cycle to the result (its class's)
  // The accesses of the register-file banks (for the statistics and energy): the registers read
  // and whether the destination is written there; a mechanism that keeps a value elsewhere
  // (a scalar register file) removes them.
  uint64_t rfReads;
  bool rfWrite;
};

// The hooks, grouped by the unit that calls them. Defaults do nothing.
class SmMechanism {
 public:
  virtual ~SmMechanism() = default;

  // --- launch, admission and exit ------------------------------------------------------------
  virtual void kernelStarted() {}
  // Registers the mechanism keeps per resident block for this kernel (admission counts them).
  virtual int regsPerBlock() const { return 0; }
  virtual void blockAdmitted(int /*blockSlot*/) {}
  virtual void blockRetired(int /*blockSlot*/) {}
  // The warp's last instruction issued (it exited).
  virtual void warpExited(int /*slot*/) {}
  // An instruction of an exited warp was dispatched: called at every such dispatch, so
  // instructions of the warp may still wait in the collectors (operands.inCollectors(slot)).
  // State the warp's stores still read is freed only when that count is 0, or at blockRetired.
  virtual void warpDrained(int /*slot*/) {}

  // --- front end: fetch probe and decode --------------------------------------------------------
  // Runs beside the fetch scheduler every cycle, before it (for example a skipper that
  // delivers skips into I-buffers).
  virtual void beforeFetch(uint64_t /*cycle*/) {}
  // Fetch holds the warp at its fetch PC: the mechanism decides that PC first.
  virtual bool holdsFetch(int /*slot*/) const { return false; }
  // An instruction fetch delivers into the warp's I-buffer (the mechanism may tag it).
  virtual void delivered(int /*slot*/, IBufferEntry& /*entry*/) {}
  // Fetch stops behind this instruction until issue resolves it (control instructions always).
  virtual bool fetchStopsAfter(const isa::Instr& /*in*/) const { return false; }

  // --- issue --------------------------------------------------------------------------------------
  // The warp may not issue (a synchronization of the mechanism): counted as a sync stall.
  virtual bool holdsIssue(int /*slot*/) const { return false; }
  // A skip is at the front of the warp's I-buffer: retire what can be retired.
  virtual void retireSkips(int /*slot*/) {}
  // The instruction issues now on `exec` lanes (the active lanes whose guard holds), before the
  // SIMT stack moves past it: the warp's context still shows the state it issues in (its active
  // mask, its stack depth).
  virtual void issuing(int /*slot*/, const IBufferEntry& /*entry*/, uint32_t /*exec*/) {}
  // The instruction issued; the SIMT stack already moved past it (`diverged`: its branch split
  // the warp).
  virtual void issued(int /*slot*/, const IBufferEntry& /*entry*/, bool /*diverged*/) {}
  // The warp's I-buffer is flushed (a redirect or a stale front): what it held is dropped.
  virtual void flushed(int /*slot*/) {}

  // --- operand stage: operand bypass -------------------------------------------------------------
  // The instruction at `pc` enters an operand collector (each warp's in issue order), on `exec` lanes:
  // `sources` are the physical registers its collector will read from the banks. The mechanism
  // may remove those it supplies from storage of its own (a bypass buffer), and may queue bank
  // writes of values it held (OperandStage::writeBack).
  virtual void collecting(int /*slot*/, const isa::Instr& /*in*/, uint32_t /*pc*/, uint32_t /*exec*/, regfile::Sources& /*sources*/) {}
  // The vector-register result of `in` is ready: true when the mechanism keeps it in storage of
  // its own and the banks are not written (the scoreboard releases it now, and written() follows).
  virtual bool holdsResult(int /*slot*/, const isa::Instr& /*in*/) { return false; }
  // The operand stage maps the warp's named register `r` onto another physical register, or back
  // (a rename, OperandStage::rename): a copy the mechanism keeps of r is no longer r's value.
  virtual void remapped(int /*slot*/, uint8_t /*r*/) {}

  // --- execute and write-back -------------------------------------------------------------------
  // The instruction leaves its operand collector and executes now (memory included).
  virtual void beforeExecute(int /*slot*/, const isa::Instr& /*in*/, uint32_t /*pc*/) {}
  // Then, before its unit is taken: what executing it takes (see ExecutePlan).
  virtual void planExecute(int /*slot*/, const isa::Instr& /*in*/, uint32_t /*pc*/, ExecutePlan& /*plan*/) {}
  // A global load or store (not an atomic) about to be sent to the LD/ST unit on `exec` lanes:
  // the mechanism may describe its addresses compactly (base + stride x lane, global_access.h),
  // so that the unit generates its transactions from base and stride. Called after
  // planExecute, before afterExecute. `out` is invalid unless it answers true.
  virtual bool compactAddress(int /*slot*/, const isa::Instr& /*in*/, uint32_t /*exec*/, CompactAddress& /*out*/) {
    return false;
  }
  // Its semantics ran: the sources were read, an ALU result written, a memory access sent (its
  // answer is written later).
  virtual void afterExecute(int /*slot*/, const isa::Instr& /*in*/) {}
  // Its register write was performed (in the banks, or in a mechanism's storage: holdsResult).
  virtual void written(int /*slot*/, const isa::Instr& /*in*/) {}

  // --- barriers -------------------------------------------------------------------------------
  virtual void barrierReleased(BlockSlot& /*block*/) {}

  // --- events of the SM -------------------------------------------------------------------------
  // The SM woke the warp (`slot`; -1: every warp): an event of its own changed what it can do
  // (an issue, a fetch delivered, a flush, a dispatch, a register write) or one of the whole SM
  // (an admission, a retirement, a barrier release). A mechanism that keeps what it found of a
  // warp until something changes forgets it here.
  virtual void woken(int /*slot*/) {}

  // --- reports and scheduling ---------------------------------------------------------------
  // What the warp waits for in the mechanism (stuck-run reports); empty for nothing.
  virtual std::string describeWarp(int /*slot*/) const { return {}; }
  // Whether an event of one warp can change the readiness of warps in other schedulers'
  // partitions: the SM then looks at every warp again after any event, and fixes stale
  // I-buffer fronts of every warp before scheduling.
  virtual bool couplesWarps() const { return false; }
  // Whether the mechanism wakes (SmContext::wake) every warp whose issue checks it changes
  // outside the warp's own events: the warp's I-buffer or PC, a register it holds pending, the
  // start of a holdsIssue hold. The issue stage then keeps a warp's stall between its wake-ups,
  // as it does without a mechanism, and asks again every time only about a hold (its end may
  // come with time alone). Otherwise it asks the whole issue check at every look at a warp.
  virtual bool wakesOnIssueChanges() const { return false; }
};

// The mechanism an SM runs, as the layer that builds the SMs hands it in (model/gpu, or a
// test's runGrid, from the configuration: model/mechanisms/registry.h, mechanisms::factoryFor).
// The SM never looks a mechanism up: it reserves `resources` when it is built and calls `attach`
// once (its statistics registered under the SM's prefix). No `attach`: no mechanism (baseline).
struct MechanismFactory {
  MechanismResources resources;
  std::function<std::unique_ptr<SmMechanism>(SmContext& sm, stats::Registry& stats)> attach;
};

}  // namespace simtlm::sm
