// The timing core of one streaming multiprocessor: thread-block admission, fetch (loose round
// robin over warps with free I-buffer slots), the per-warp I-buffer, issue schedulers (GTO or
// LRR over a static partition of the warps) with a scoreboard, execution units occupied
// warp_size / width cycles, latencies per opcode class, barriers and exit.
//
// Instructions execute through isa::WarpContext on the values the SM holds, so final memory
// equals the functional interpreter's. Issue resolves the guard and the control flow and puts
// the instruction into an operand collector (OperandStage: banked register file, bank
// conflicts, writeback port); its sources are read and its semantics executed when it
// dispatches to its execution unit, each warp's instructions in issue order (the scoreboard
// guarantees the sources are final, in-order dispatch that no younger write overtakes them);
// results become visible to dependants when their register-file write is performed.
//
// Instruction fetch goes through the SM's frontend::ICache (hits after icache_hit_latency,
// misses wait for a line fill over the memory system; the I-buffer receives the words decoded
// at launch); global memory is reached through the GlobalMemoryPort interface (ideal in
// runGrid; coalescer, L1 and TLM port in the GPU top); shared memory is the SM's
// mem::SharedMemory unit (banks, conflicts; sm_memory.cpp). A mechanism attaches through the
// hooks of sm_mechanism.h; whoever builds the SM picks it (MechanismFactory).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <spdlog/logger.h>

#include "isa/warp.h"
#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/frontend/icache.h"
#include "model/mem/shared_memory.h"
#include "model/sm/cpi_stack.h"
#include "model/sm/global_access.h"
#include "model/sm/ibuffer.h"
#include "model/sm/operand_stage.h"
#include "model/sm/pending_result.h"
#include "model/sm/pipeline_register.h"
#include "model/sm/scoreboard.h"
#include "model/sm/sm_mechanism.h"
#include "model/sm/sm_observer.h"
#include "model/sm/sm_state.h"
#include "model/sm/warp_scheduler.h"

namespace simtlm::sm {


// Where a fault happened, beyond its warp (SmCore::setFault).
struct FaultSite {
  int64_t pc = -1;  // -1: the instruction dispatching now, else the warp's PC
  int lane = -1;
  std::optional<uint32_t> address;
};

class SmCore {
 public:
  // `icache` is this SM's instruction cache (it outlives the core); the core answers its fills.
  // The channels between the SM's units: the one the LD/ST unit `memory` writes its responses to
  // (global_access.h), the two that carry results to write-back (pending_result.h), and the
  // update phase of those that are pipeline registers (committed after each step).
  struct Channels {
    sc_core::sc_fifo_in_if<GlobalResponse>* ldstAnswers;
    ResultChannel executeResults, answerResults;
    UpdateList* updates;
  };
  // `mechanism` is the mechanism the SM runs (sm_mechanism.h; empty: none). `schedulers`, when
  // set, builds the issue schedulers in place of issue.policy's.
  SmCore(int id, const config::GpuConfig& cfg, GlobalMemoryPort& memory, const Channels& channels,
         frontend::ICache& icache, stats::Registry& stats, const MechanismFactory& mechanism = {},
         const SchedulerFactory& schedulers = {});
  ~SmCore();

  // `cycle`: the engine's cycle the grid starts in (log messages count from it).
  void startKernel(const KernelImage& image, uint64_t cycle = 0);
  // Whether one more block fits (block slots, warp contexts, registers, shared memory).
  bool canAdmit() const;
  int residentBlocks() const { return residentBlocks_; }
  const CpiCounters& cpi() const { return cpi_; }
  // `cycle`: the engine's cycle the block arrives in (for an observer).
  void admit(uint32_t blockLinear, const std::array<uint32_t, 3>& ctaid, uint64_t cycle = 0);
  // One core cycle. Returns whether anything happened.
  bool tick(uint64_t cycle);
  // The same cycle in its unit steps, in pipeline-reverse order (docs/timing-model.md): tick()
  // runs them in one go; the systemc scheduling runs each from its unit's own process, one delta
  // cycle apart. beginCycle() takes the LD/ST unit's responses and says whether the steps run
  // (not when faulted, empty or at rest); a step of a cycle that does not run does nothing;
  // endCycle() says whether anything happened.
  enum class Step : uint8_t { Answers, Writeback, Execute, Operands, Issue, Fetch };
  static constexpr int kSteps = 6;
  bool beginCycle(uint64_t cycle);
  void step(Step s);
  bool endCycle();
  bool idle() const { return residentBlocks_ == 0; }  // no resident blocks
  // Whether the SM's I-cache, LD/ST unit and answers left it at rest (maybeSleep) in `cycle`:
  // asleep, and nothing answered, filled, admitted or woke it. Such a cycle needs no tick; what
  // it would count (the cycle, each scheduler's stall) is counted in bulk by settle(), which
  // the next beginCycle() calls. Not with an observer (it sees every cycle's stalls).
  bool restsIn(uint64_t cycle) {
    if (cycle >= sleepUntil_ || observer_ || idle() || !fault_.empty() || answers_.num_available() > 0 ||
        sleepKey() != sleepKey_)
      return false;
    if (restFrom_ == kNoRest) restFrom_ = cycle;
    return true;
  }
  // Counts the cycles restsIn() let pass, up to (not including) `cycle`: before anyone reads
  // the SM's counters (GridEngine::settle).
  void settle(uint64_t cycle) {
    if (restFrom_ != kNoRest) countRest(cycle);
  }

  std::function<void(uint32_t blockLinear)> onBlockDone;
  // An observer of the pipeline (sm_observer.h; null: none), also the mechanism's (SmContext).
  void setObserver(SmObserver* observer) {
    observer_ = observer;
    ctx_.observer = observer;
  }
  const std::string& fault() const { return fault_; }
  // Every resident warp with its PC and what it waits for (for stuck-run reports).
  std::string describeWarps() const;

 private:
  using Warp = WarpSlot;
  using Block = BlockSlot;
  using InFlight = PendingResult;

  void writeback(uint64_t cycle);
  void issue(uint64_t cycle);
  void fetch(uint64_t cycle);
  bool tryFetch(int slot, uint64_t cycle);
  // Why a warp cannot issue this cycle (None: it can); docs/statistics.md. A mechanism's hold
  // (Sync) marks the warp woken (look_): the next look asks again. Called by restall() alone.
  enum class Stall : uint8_t { None, NotLive, Barrier, EmptyIBuffer, Dependence, Memory, Structural, Sync };
  Stall issueStall(int slot);
  // issueStall(), looked at again only when it can have changed: the warp was woken, or its
  // stall ends without an event of its own (a free collector or memory port; a ready warp another
  // scheduler's issue may have made structurally stalled; a mechanism's synchronization). A
  // mechanism wakes the warps whose stall it changes (SmContext::wake); one that does not say
  // it wakes them for every change (SmMechanism::wakesOnIssueChanges) is asked at every look.
  // Warp i of scheduler s (slot i * schedulers + s).
  Stall stallOf(int s, int i) {
    const int slot = i * static_cast<int>(partVersion_.size()) + s;
    uint64_t& word = candidates_[static_cast<size_t>(s * candidateWords_ + i / 64)];
    Stall& cached = stallCache_[static_cast<size_t>(slot)];
    if (!(word >> (i % 64) & 1u)) return cached;
    const uint8_t look = look_[static_cast<size_t>(slot)];
    const Stall st = (look & kWoken) || restallAlways_ ? restall(slot) : (cached = portStall(look, cached));
    setBit(word, i % 64, recheck_ >> static_cast<int>(st) & 1u);  // (restall may have woken it: its answer decides)
    return st;
  }
  Stall restall(int slot);
  // The stall of a warp that was not woken since restall(), without a mechanism or with one that
  // wakes the warps it changes (a hold, Sync, is asked again: issueStall marks it woken): only the
  // memory port and the operand collectors can have changed, and only a warp that got past
  // every other check (None, Structural, or Memory) depends on them.
  Stall portStall(uint8_t look, Stall cached) const {
    if (cached != Stall::None && cached != Stall::Structural && cached != Stall::Memory) return cached;
    if (look & kFrontGlobal) {
      if (!mem_.canAccept()) return Stall::Memory;
    } else if (cached == Stall::Memory) {
      return cached;  // a barrier or fence waiting for the warp's memory instructions
    }
    return ops_.canAccept() ? Stall::None : Stall::Structural;
  }
  int oldestLive(int scheduler);  // the live warp of the partition admitted first, or -1
  bool onlyPortWaits(int scheduler) const;
  void dropStaleFront(int slot);
  bool advance(int slot, const isa::Instr& in, uint32_t exec, uint32_t pc);  // SmContext::advance
  void holdRegister(int slot, uint8_t reg, bool hold);                       // SmContext::holdRegister
  void issueFrom(int scheduler, int i, uint64_t cycle);  // the picked warp's instructions
  void execute(int slot, uint64_t cycle);  // issue: into an operand collector
  // Register-file stage (docs/timing-model.md): dispatch of collected instructions to their
  // units, where their semantics execute; bank reads and writebacks; results to write back.
  void dispatch(uint64_t cycle);
  bool memoryAccepts(const isa::Instr& in) const;
  void executeDispatched(const CollectedInstr& c, uint64_t cycle);
  void operandTick(uint64_t cycle);
  void resultReady(int slot, const isa::Instr& in, std::optional<regfile::PhysReg> dest);
  // Memory instructions and the SM's shared-memory unit (sm_memory.cpp).
  struct SharedOp {  // a shared access in the unit, answered in this order
    uint64_t tag;
    int slot;
    isa::Instr instr;
    uint32_t exec;
    bool writesReg;
  };
  void initMemory(stats::Registry& stats);
  void restartMemory();
  bool sharedFits(uint32_t bytes) const;
  void allocateShared(int blockSlot, uint32_t bytes);
  void releaseShared(int blockSlot);
  bool sharedAccepts() const;  // the banks can take an access this cycle
  bool tickMemory(uint64_t cycle);
  void sharedDone(const mem::SharedResponse& r);
  void executeMemory(int slot, const isa::Instr& in, uint32_t exec, uint64_t cycle);
  // A result to write back at `when`, sent to write-back through `to`.
  void complete(int slot, const isa::Instr& in, uint64_t when, const ResultChannel& to);
  void releaseBarrier(Block& b);
  void deadlock(const Block& b);
  void retireBlock(Block& b);
  // The SM's first fault, worded as the interpreter's: `what (block (x,y,z), warp W, lane L, PC
  // P, address A, file:line) on SM n`. The PC is `at.pc`, or the instruction dispatching now, or
  // the warp's; lane and address only when given.
  void setFault(int slot, const std::string& what, const FaultSite& at = {});
  bool ranOffTheEnd(const Warp& w, int slot) const;  // fetch: the next instruction is past the last

  // The attached mechanism (sm_mechanism.h; null for baseline) and what it sees of the SM.
  std::unique_ptr<SmMechanism> mech_;
  bool coupled_ = false;  // mech_->couplesWarps()
  bool restallAlways_ = false;  // a mechanism that does not wake the warps it changes (stallOf)
  int mechanismRegs() const { return mech_ ? mech_->regsPerBlock() : 0; }  // per block, this kernel

  const int id_;
  const config::GpuConfig& cfg_;
  GlobalMemoryPort& mem_;
  sc_core::sc_fifo_in_if<GlobalResponse>& answers_;
  ResultChannel executeResults_, answerResults_;
  UpdateList& updates_;
  void commit() {
    if (!updates_.empty()) updates_.commit();
  }
  // Global accesses sent to the LD/ST unit and not answered yet, by request id.
  struct PendingGlobal {
    int slot;
    isa::Instr instr;
    uint32_t exec;
    bool writesReg;
    int64_t pc;  // (an error answers later, when another instruction may be dispatching)
  };
  std::unordered_map<uint64_t, PendingGlobal> pendingGlobal_;
  uint64_t nextGlobalId_ = 0;
  void takeAnswers(uint64_t cycle);  // the LD/ST unit's responses, in the order it wrote them
  void globalAnswered(const GlobalResponse& r, uint64_t cycle);
  frontend::ICache& icache_;
  KernelImage image_;
  // Per instruction of the kernel, what the stages ask of it, decoded once at startKernel (not
  // at every fetch, issue, accept, dispatch and register write).
  struct DecodedInstr {
    isa::RegSet touched, written;  // registers read or written / written (the I-buffer entry's)
    uint64_t sources = 0;          // vector registers read from the banks (regfile::sourceGprs)
    uint64_t occupancy = 1;        // cycles its unit is taken (warp size / the unit's width)
    uint64_t latency = 1;          // exec.latency of its class (at least 1)
    isa::Unit unit{};
    isa::Format format{};
    isa::OpClass cls{};
    bool writesGpr = false;  // a vector register (regfile::destGpr)
    bool memory = false;     // a load, store or atomic (regfile::accessesMemory)
    bool global = false;     // a global access (isGlobal)
    CpiCategory waitsAs{};   // what a dependant waiting for its result waits for (dependenceCategory)
  };
  std::vector<DecodedInstr> decoded_;
  const DecodedInstr& decodedAt(uint32_t pc) const { return decoded_[isa::Kernel::indexOf(pc)]; }
  IBufferEntry decode(uint32_t pc) const;  // an I-buffer entry of the instruction at `pc`
  std::vector<Warp> warps_;          // warp contexts (num_warps slots)
  std::vector<Block> blocks_;        // block slots
  std::vector<std::unique_ptr<WarpScheduler>> schedulers_;
  Scoreboard scoreboard_;
  // Write-back's results not yet due, and per block slot the results of its warps anywhere
  // between execute or answers and their register write. Under tick() (the sequential
  // scheduling) complete() puts them straight into results_, for the cycle write-back would take
  // them from its channel (execute's: the next cycle; the answers unit's: this one), in the
  // order it would; under step() they travel the two result channels and write-back takes them.
  ResultWheel results_;
  bool directTick_ = false;  // in tick(): results bypass the channels
  std::vector<int> blockResults_;
  uint64_t resultEvents_ = 0;               // results sent and written back (progress)
  uint64_t sentSinceTaken_ = ~uint64_t{0};  // earliest due of results in the channels (maybeSleep)
  void takeResults(uint64_t cycle);
  std::vector<int> retireCheck_;     // writeback(): blocks whose last results may have drained
  OperandStage ops_;                 // register map, operand collectors, bank arbitration
  std::vector<uint64_t> warpAge_;    // by slot: admission order (stall attribution)
  uint64_t opEvents_ = 0;            // dispatches and register writes (progress)
  int64_t dispatchPc_ = -1;          // PC of the instruction executing at dispatch (faults)
  std::array<std::vector<uint64_t>, 4> unitFreeAt_;  // per isa::Unit, per unit instance
  int residentBlocks_ = 0, usedWarps_ = 0, usedRegs_ = 0;
  int blocksFinished_ = 0;  // resident blocks whose warps have all exited (retire when drained)
  std::unique_ptr<mem::SharedMemory> shared_;  // banked shared memory: every resident block's region
  mem::Fifo<SharedOp> sharedOps_;              // accesses the unit has not answered yet
  mem::SharedRequest sharedRq_;                // the request being made (executeMemory)
  uint64_t nextSharedTag_ = 0, sharedNow_ = 0;
  uint64_t ageCounter_ = 0;
  std::string fault_;
  std::vector<std::pair<int, uint32_t>> fetchList_;
  bool fetchAsleep_ = false;  // the last round-robin scan found no warp to fetch for
  uint64_t fetchVersion_ = 0;  // fetches in flight: warp slot, fetch id
  // Per scheduler: asleep after a scan found no ready warp, until stateVersion() changes.
  struct SchedulerMemo {
    bool asleep = false;
    uint64_t version = 0;
    Stall stall = Stall::NotLive;
    int warp = -1;  // the warp `stall` is of (for an observer)
    bool structural = false;  // a warp of the partition waited for a free operand collector
    bool port = false;        // one waited for the memory port (GlobalMemoryPort::acceptVersion)
    CpiCategory cpi = CpiCategory::Idle;  // what the stall counts as in the CPI stack
  };
  std::vector<SchedulerMemo> memo_;
  // Changes whenever a warp's readiness can change: an issue, a fetch delivered, an I-buffer
  // flush, a dispatch, a register write or scoreboard release, a memory completion, a barrier
  // release, a block admitted or retired.
  uint64_t stateVersion() const { return warpInstrs_ + fetched_ + flushes_ + opEvents_; }
  // The same for the warps of one scheduler's partition, so that one scheduler's sleep is not
  // broken by what happens to the others' warps: events of a warp wake its own scheduler
  // (wake(slot)), events of the whole SM every scheduler (wakeAll()), a freed operand collector
  // the schedulers that had a warp waiting for one. With a mechanism whose events couple the
  // warps of a block across partitions, every scheduler follows stateVersion().
  std::vector<uint64_t> partVersion_;
  uint64_t globalVersion_ = 0, collectorFrees_ = 0;
  uint64_t partVersionSum_ = 0;  // the sum of partVersion_ (sleepKey(): one read, not a walk)
  // Each warp's last issueStall(), and per scheduler a bit per warp of its partition (local
  // index slot / schedulers) for the warps to look at again: woken since their last look, or
  // stalled for a reason that can end without an event of the warp's own (recheck_). The others
  // keep their cached stall, and the issue walk passes them over without looking.
  std::vector<Stall> stallCache_;
  // By slot, what the issue stage knows of the warp since it last looked at it whole (restall):
  // woken by an event of its own; the front it found then needs the memory port (a global
  // access). Kept here, not in WarpSlot, so that passing over a warp reads no line of its slot.
  static constexpr uint8_t kWoken = 1, kFrontGlobal = 2;
  std::vector<uint8_t> look_;
  std::vector<uint64_t> candidates_;  // schedulers x candidateWords_
  std::vector<uint64_t> byPosition_;  // the walk's candidates by place in the priority order
  int candidateWords_ = 1;
  uint32_t recheck_ = 0;  // bit per Stall: looked at again every time
  std::vector<int> oldestLive_;  // per scheduler: its oldest live warp's slot, -1 to look again
  static void setBit(uint64_t& word, int bit, bool on) {
    word = (word & ~(uint64_t{1} << bit)) | uint64_t{on} << bit;  // (no branch: `on` is data)
  }
  // With a mechanism that couples warps, per scheduler a bit per warp of its partition (as
  // candidates_) for the front fix-ups before its walk (issue()): woken since its front was last
  // found neither a skip to retire nor stale.
  std::vector<uint64_t> fixups_;
  void markCandidate(int slot) {
    look_[static_cast<size_t>(slot)] |= kWoken;
    const size_t S = partVersion_.size(), i = static_cast<size_t>(slot) / S;
    const size_t at = (static_cast<size_t>(slot) % S) * static_cast<size_t>(candidateWords_) + i / 64;
    candidates_[at] |= uint64_t{1} << (i % 64);
    if (coupled_) fixups_[at] |= uint64_t{1} << (i % 64);
  }
  // Per warp slot, a bit for the fetch scan: woken since it was last found unable to fetch
  // (by the SM, or by a mechanism through SmContext::wake).
  std::vector<uint64_t> fetchCandidates_;
  void wake(int slot) {
    wakeForIssue(slot);
    wakeForFetch(slot);
    if (mech_) mech_->woken(slot);
  }
  // An event that only one of the two stages' checks reads wakes the warp for that stage alone
  // (a scoreboard release: issue; a dispatch: fetch). With a mechanism, which may read anything,
  // the caller wakes it whole (wake()).
  void wakeForIssue(int slot) {
    partVersion_[static_cast<size_t>(slot) % partVersion_.size()]++;
    partVersionSum_++;
    markCandidate(slot);
  }
  void wakeForFetch(int slot) { setBit(fetchCandidates_[static_cast<size_t>(slot) / 64], slot % 64, true); }
  // A scoreboard release: no fetch check reads the scoreboard.
  void wakeAfterRelease(int slot) { mech_ ? wake(slot) : wakeForIssue(slot); }
  // Anything may have changed (an admission, a retirement, a barrier release): every warp is
  // looked at again, and the oldest live warps are found again (a retired slot may come back
  // as a young warp).
  void wakeAll() {
    globalVersion_++;
    for (int slot = 0; slot < static_cast<int>(warps_.size()); ++slot) markCandidate(slot);
    std::fill(fetchCandidates_.begin(), fetchCandidates_.end(), ~uint64_t{0});
    std::fill(oldestLive_.begin(), oldestLive_.end(), -1);
    if (mech_) mech_->woken(-1);
  }
  uint64_t issueVersion(int scheduler, bool structural) const {
    if (coupled_) return stateVersion();
    return partVersion_[static_cast<size_t>(scheduler)] + globalVersion_ + (structural ? collectorFrees_ : 0);
  }
  // What a scheduler's sleep depends on: its warps' events, and the port's if one waits for it.
  uint64_t memoVersion(int scheduler, bool structural, bool port) const {
    return issueVersion(scheduler, structural) + (port ? *portVersion_ : 0);
  }
  // The LD/ST unit's count of what frees its port (GlobalMemoryPort::acceptVersion), if it
  // keeps one and no mechanism needs every look (restallAlways_).
  const uint64_t* portVersion_ = nullptr;
  bool portTracked_ = false;
  void countStall(Stall first, CpiCategory cpi, uint64_t n = 1);  // n scheduler cycles
  // The CPI category of a scheduler cycle in which nothing issued and `slot` (the oldest live
  // warp, or -1) had stall `st` (docs/timing-model.md, "CPI stacks").
  CpiCategory cpiOf(Stall st, int slot) const;
  // Per warp slot, per register (r0..r63, then p0..p7): what a pending write of it waits for.
  std::vector<CpiCategory> waitsOn_;
  static constexpr int kWaitRegs = 72;
  void noteWrites(int slot, const isa::RegSet& written, CpiCategory c);
  // An observer sees the stall of `slot` (-1 or NotLive: nothing to see). Out of line: the hot
  // path keeps only the null test.
  [[gnu::noinline]] void observeStall(int slot, Stall st, uint64_t cycle) const;
  SmObserver* observer_ = nullptr;
  uint64_t cycleNow_ = 0;  // the cycle beginCycle() last began (observed events outside issue)
  // A whole SM at rest: nothing in the operand stage (or only instructions that wait for the
  // memory port) or the shared-memory unit, every scheduler and the fetch scan asleep. Until
  // `sleepUntil_` (the next result or fetch delivery due) or any event (sleepKey() changes: a
  // wake, a memory answer, a fill, an admission), a tick only counts what it would count: the
  // cycle and each scheduler's stall. Never with a mechanism.
  // At rest with instructions in collectors that wait for the memory port, or schedulers whose
  // warps do (sleepOnPort_): the port's acceptVersion() wakes it too; restDispatchStalls_ (-1:
  // none) are the collectors' refused offers per cycle of rest.
  uint64_t sleepUntil_ = 0, sleepKey_ = 0, fills_ = 0;
  bool sleepOnPort_ = false;
  int restDispatchStalls_ = -1;
  uint64_t sleepKey() const {
    const uint64_t k = stateVersion() + globalVersion_ + collectorFrees_ + fills_ + partVersionSum_;
    return sleepOnPort_ ? k + *portVersion_ : k;
  }
  void maybeSleep(uint64_t cycle);
  // The first cycle of the rest restsIn() let pass and settle() has not counted yet.
  static constexpr uint64_t kNoRest = ~uint64_t{0};
  uint64_t restFrom_ = kNoRest;
  void countRest(uint64_t cycle);
  // The cycle the steps run in (beginCycle .. endCycle), and what endCycle() compares with.
  bool stepping_ = false, memoryAnswered_ = false;
  uint64_t stepCycle_ = 0, progressBefore_ = 0, resultEventsBefore_ = 0;
  int lastFetched_ = -1;
  uint32_t nextFetchId_ = 0;  // tags I-cache misses, so a late fill never feeds a reused slot

  // statistics
  uint64_t cycles_ = 0, activeCycles_ = 0, warpInstrs_ = 0, threadInstrs_ = 0, fetched_ = 0;
  uint64_t dualIssued_ = 0;
  uint64_t flushes_ = 0, stallNoReady_ = 0, barriers_ = 0, globalAccesses_ = 0, blocksRun_ = 0;
  uint64_t stallIdle_ = 0, stallEmpty_ = 0, stallDependence_ = 0, stallBarrier_ = 0,
           stallMemory_ = 0, stallStructural_ = 0, stallSync_ = 0;
  uint64_t frontendIdle_ = 0;  // scheduler cycles without a front-end clock edge
  CpiCounters cpi_{};          // scheduler cycles by CPI category (cpi_stack.h)
  // Fetch and issue act in one core cycle of every frontend.clock_divider (a slower front end).
  bool frontendCycle(uint64_t cycle) const {
    const auto n = static_cast<uint64_t>(cfg_.frontend.clock_divider);
    return n == 1 || cycle % n == 0;
  }
  void issueOrIdle(uint64_t cycle) {
    if (frontendCycle(cycle)) {
      issue(cycle);
    } else {
      frontendIdle_ += static_cast<uint64_t>(cfg_.issue.schedulers);
      cpi_[static_cast<int>(CpiCategory::Fetch)] += static_cast<uint64_t>(cfg_.issue.schedulers);
    }
    ops_.countFullCycle();  // after issue, the cycle's last change to the collectors
  }
  // Executed (dispatched) warp instructions and their active lanes by opcode class, and
  // register-file accesses per active lane group (regfile.lane_group): what the energy layer
  // charges per lane.
  std::array<uint64_t, isa::kNumOpClasses> execWarps_{}, execLanes_{};
  uint64_t readLaneGroups_ = 0, writeLaneGroups_ = 0;
  int laneGroupsOf(uint32_t exec) const;

  // Trace loggers of the units, "gpu.sm<N>.<unit>" (docs/cli.md): what each unit did, in the
  // kernel's cycles. A disabled logger costs one compare per event.
  spdlog::logger &issueLog_, &fetchLog_, &executeLog_, &writebackLog_, &answersLog_;
  uint64_t kernelStart_ = 0;
  [[gnu::noinline]] void traceIssue(int slot, const IBufferEntry& e, uint32_t exec, uint64_t cycle) const;
  [[gnu::noinline]] void traceFetch(int slot, uint32_t pc, bool hit, uint64_t cycle) const;
  [[gnu::noinline]] void traceExecute(int slot, const CollectedInstr& c, uint64_t cycle, uint64_t done) const;
  [[gnu::noinline]] void traceAnswer(int slot, const char* what, const isa::Instr& in, int64_t pc, uint64_t cycle) const;

  SmContext ctx_;  // the mechanism's view of the members above
};

}  // namespace simtlm::sm
