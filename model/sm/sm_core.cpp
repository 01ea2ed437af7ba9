#include "model/sm/sm_core.h"
#include "model/sm/sm_core_state.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "isa/disassembler.h"
#include "isa/semantics.h"
#include "model/common/log.h"
#include "model/regfile/operands.h"

namespace simtlm::sm {

namespace {

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

spdlog::logger& unitLog(int sm, const char* unit) { return log::get("gpu.sm" + std::to_string(sm) + "." + unit); }

}  // namespace

SmCore::SmCore(int id, const config::GpuConfig& cfg, GlobalMemoryPort& memory, const Channels& channels,
               frontend::ICache& icache, stats::Registry& stats, const MechanismFactory& mechanism,
               const SchedulerFactory& schedulers)
    : id_(id), cfg_(cfg), mem_(memory), answers_(*channels.ldstAnswers), executeResults_(channels.executeResults),
      answerResults_(channels.answerResults), updates_(*channels.updates), icache_(icache), warps_(static_cast<size_t>(cfg.sm.num_warps)),
      blocks_(static_cast<size_t>(cfg.sm.max_blocks)), scoreboard_(cfg.sm.num_warps),
      ops_(cfg, mechanism.resources), warpAge_(static_cast<size_t>(cfg.sm.num_warps), 0),
      issueLog_(unitLog(id, "issue")), fetchLog_(unitLog(id, "fetch")), executeLog_(unitLog(id, "execute")),
      writebackLog_(unitLog(id, "writeback")), answersLog_(unitLog(id, "answers")),
      ctx_{id, cfg, image_, warps_, blocks_, ops_, scoreboard_, shared_, opEvents_, fetched_, 0,
           [this](uint32_t pc) { return decode(pc); }, [this](int slot) { dropStaleFront(slot); },
           [this](int slot) { wake(slot); },
           [this](int slot, const isa::Instr& in, uint32_t exec, uint32_t pc) { return advance(slot, in, exec, pc); },
           [this](int slot, uint8_t reg, bool hold) { holdRegister(slot, reg, hold); }} {
  const int perScheduler = cfg.sm.num_warps / cfg.issue.schedulers;
  for (int s = 0; s < cfg.issue.schedulers; ++s)
    schedulers_.push_back(schedulers ? schedulers(id, s, perScheduler) : makeScheduler(cfg.issue.policy, perScheduler));
  for (const auto& s : schedulers_)
    if (!s) throw std::invalid_argument("SmCore: the scheduler factory built no scheduler");
  memo_.assign(static_cast<size_t>(cfg.issue.schedulers), SchedulerMemo{});
  partVersion_.assign(static_cast<size_t>(cfg.issue.schedulers), 0);
  stallCache_.assign(warps_.size(), Stall::NotLive);
  waitsOn_.assign(warps_.size() * kWaitRegs, CpiCategory::DepAlu);
  look_.assign(warps_.size(), 0);
  candidateWords_ = (perScheduler + 63) / 64;
  candidates_.assign(static_cast<size_t>(cfg.issue.schedulers * candidateWords_), 0);
  fixups_.assign(candidates_.size(), 0);
  byPosition_.assign(static_cast<size_t>(candidateWords_), 0);
  oldestLive_.assign(static_cast<size_t>(cfg.issue.schedulers), -1);
  fetchCandidates_.assign((warps_.size() + 63) / 64, 0);
  blockResults_.assign(blocks_.size(), 0);
  wakeAll();
  for (auto& w : warps_) w.ibuf = IBuffer(cfg.frontend.ibuffer_entries);
  unitFreeAt_[static_cast<int>(isa::Unit::Sp)].assign(cfg.exec.sp_units, 0);
  unitFreeAt_[static_cast<int>(isa::Unit::Sfu)].assign(cfg.exec.sfu_units, 0);
  unitFreeAt_[static_cast<int>(isa::Unit::LdSt)].assign(1, 0);
  unitFreeAt_[static_cast<int>(isa::Unit::Ctrl)].assign(1, 0);
  const std::string p = "sm" + std::to_string(id) + ".";
  stats.add(p + "cycles", cycles_, "cycles", "cycles this SM was clocked while the kernel ran");
  stats.add(p + "active_cycles", activeCycles_, "cycles", "cycles with at least one resident block");
  stats.add(p + "issue.warp_instructions", warpInstrs_, "instructions", "warp instructions issued");
  stats.add(p + "issue.dual_issued", dualIssued_, "instructions",
            "warp instructions issued as the second (or later) of their warp in a scheduler's cycle");
  stats.add(p + "issue.thread_instructions", threadInstrs_, "instructions", "active threads of issued warp instructions");
  stats.add(p + "frontend.fetched", fetched_, "instructions", "instructions fetched into I-buffers");
  stats.add(p + "frontend.flushes", flushes_, "events", "I-buffer flushes after a change of control flow");
  stats.add(p + "issue.frontend_idle", frontendIdle_, "cycles",
            "scheduler cycles in which the front end's clock does not tick (frontend.clock_divider > 1); "
            "not stalls");
  stats.add(p + "issue.stall_no_ready", stallNoReady_, "cycles", "scheduler cycles with no warp able to issue");
  stats.add(p + "barriers", barriers_, "events", "completed bar.sync episodes");
  stats.add(p + "ldst.global_accesses", globalAccesses_, "instructions", "global memory warp instructions sent");
  stats.add(p + "blocks", blocksRun_, "blocks", "thread blocks completed");
  // Why nothing issued: per scheduler cycle, the reason of the oldest live warp of its
  // partition (docs/statistics.md); they sum to issue.stall_no_ready.
  stats.add(p + "issue.stall.idle", stallIdle_, "cycles",
            "scheduler cycles with no live warp in the scheduler's partition");
  stats.add(p + "issue.stall." + stallName(StallReason::EmptyIBuffer), stallEmpty_, "cycles",
            "nothing issued: the oldest warp's I-buffer was empty (fetch, I-cache, redirect)");
  stats.add(p + "issue.stall." + stallName(StallReason::Dependence), stallDependence_, "cycles",
            "nothing issued: the oldest warp waited for a register or predicate (scoreboard)");
  stats.add(p + "issue.stall." + stallName(StallReason::Barrier), stallBarrier_, "cycles",
            "nothing issued: the oldest warp waited at bar.sync");
  stats.add(p + "issue.stall." + stallName(StallReason::Memory), stallMemory_, "cycles",
            "nothing issued: the oldest warp's global access found the memory port full, or its "
            "bar.sync/membar waited for its memory instructions");
  stats.add(p + "issue.stall." + stallName(StallReason::Structural), stallStructural_, "cycles",
            "nothing issued: the oldest warp found no free operand collector");
  stats.add(p + "issue.stall." + stallName(StallReason::Sync), stallSync_, "cycles",
            "nothing issued: the oldest warp waited in a synchronization of the mechanism (a "
            "branch barrier, copying renamed registers out)");
  // The CPI stack: every scheduler cycle in one category; they sum to cycles x issue.schedulers.
  for (int c = 0; c < kCpiCategories; ++c) {
    const CpiCategoryInfo& info = cpiInfo(static_cast<CpiCategory>(c));
    stats.add(p + "cpi." + info.name, cpi_[static_cast<size_t>(c)], "cycles", info.description);
  }
  for (int c = 0; c < isa::kNumOpClasses; ++c) {
    const std::string cls = p + "exec." + std::string(isa::className(static_cast<isa::OpClass>(c)));
    stats.add(cls + ".warp_instructions", execWarps_[c], "instructions",
              "warp instructions of this class dispatched to an execution unit");
    stats.add(cls + ".lanes", execLanes_[c], "thread instructions",
              "lanes that computed the dispatched warp instructions of this class (active lanes; one for a "
              "uniform instruction a mechanism computes on one lane)");
  }
  stats.add(p + "regfile.read_lane_groups", readLaneGroups_, "accesses",
            "vector register reads of dispatched instructions, per lane group with an active lane");
  stats.add(p + "regfile.write_lane_groups", writeLaneGroups_, "accesses",
            "vector register writes of dispatched instructions, per lane group with an active lane");
  ops_.registerStats(stats, "sm" + std::to_string(id));
  if (mechanism.attach) mech_ = mechanism.attach(ctx_, stats);
  ops_.setMechanism(mech_.get());
  coupled_ = mech_ && mech_->couplesWarps();
  restallAlways_ = mech_ && !mech_->wakesOnIssueChanges();
  portVersion_ = mem_.acceptVersion();
  portTracked_ = !restallAlways_ && portVersion_;
  recheck_ = 1u << static_cast<int>(Stall::None) | 1u << static_cast<int>(Stall::Structural) |
             1u << static_cast<int>(Stall::Memory) | 1u << static_cast<int>(Stall::Sync);
  initMemory(stats);  // the shared-memory unit (sm_memory.cpp)
  // An I-cache fill answers the fetches that missed on its line: their instructions arrive
  // icache_hit_latency cycles (at least one) after the line is installed.
  icache_.setRespond([this](uint64_t tag, uint64_t address, bool ok, uint64_t cycle) {
    const int slot = static_cast<int>(tag & 0xffffffffu);
    Warp& w = warps_[static_cast<size_t>(slot)];
    if (!w.active || !w.fetchInFlight || w.fetchId != static_cast<uint32_t>(tag >> 32)) return;
    if (!ok) {
      char a[32];
      std::snprintf(a, sizeof a, "0x%llx", static_cast<unsigned long long>(address));
      return setFault(slot, std::string("instruction fetch failed at address ") + a +
                                ", an error response to the I-cache line fill");
    }
    w.fetchReadyAt = cycle + static_cast<uint64_t>(std::max(1, cfg_.frontend.icache_hit_latency));
    fills_++;  // (an SM at rest wakes)
  });
}

SmCore::~SmCore() = default;

void SmCore::startKernel(const KernelImage& image, uint64_t cycle) {
  image_ = image;
  kernelStart_ = cycle;
  decoded_.clear();
  const int W = static_cast<int>(image.launch.warpSize);
  for (const isa::Instr& in : image.kernel->instrs) {
    const isa::OpInfo& oi = isa::info(in.op);
    const int width = oi.unit == isa::Unit::Sp    ? cfg_.exec.simd_width
                      : oi.unit == isa::Unit::Sfu ? cfg_.exec.sfu_width
                      : oi.unit == isa::Unit::LdSt ? cfg_.exec.ldst_width : 32;
    DecodedInstr d;
    d.touched = isa::usesOf(in) | isa::writesOf(in);
    d.written = isa::writesOf(in);
    d.sources = regfile::sourceGprs(in);
    d.occupancy = static_cast<uint64_t>((W + width - 1) / width);
    d.latency = static_cast<uint64_t>(std::max(1, cfg_.exec.latencyOf(oi.cls)));
    d.unit = oi.unit;
    d.format = oi.format;
    d.cls = oi.cls;
    d.writesGpr = regfile::destGpr(in).has_value();
    d.memory = regfile::accessesMemory(in.op);
    d.global = isGlobal(oi);
    d.waitsAs = dependenceCategory(in.op);
    decoded_.push_back(d);
  }
  restartMemory();
  if (mech_) mech_->kernelStarted();
  if (observer_) observer_->kernelStarted(id_, cycle);
}

IBufferEntry SmCore::decode(uint32_t pc) const {
  const size_t idx = isa::Kernel::indexOf(pc);
  const DecodedInstr& d = decoded_[idx];
  IBufferEntry e{pc, image_.kernel->instrs[idx]};
  e.touched = d.touched;
  e.written = d.written;
  return e;
}

bool SmCore::canAdmit() const {
  const isa::Kernel& k = *image_.kernel;
  const uint32_t W = image_.launch.warpSize;
  const int warps = static_cast<int>((image_.launch.block.count() + W - 1) / W);
  const int regs = warps * static_cast<int>(W) * k.numRegs + mechanismRegs();
  return residentBlocks_ < cfg_.sm.max_blocks && usedWarps_ + warps <= cfg_.sm.num_warps &&
         usedRegs_ + regs <= cfg_.sm.num_registers && sharedFits(k.sharedBytes) &&
         ops_.canAllocate(warps, k.numRegs);  // contiguous register ranges (RegisterMap)
}

void SmCore::admit(uint32_t blockLinear, const std::array<uint32_t, 3>& ctaid, uint64_t cycle) {
  const isa::Kernel& k = *image_.kernel;
  const uint32_t W = image_.launch.warpSize;
  const int numWarps = static_cast<int>((image_.launch.block.count() + W - 1) / W);
  int b = 0;
  while (blocks_[b].used) ++b;
  Block& blk = blocks_[b];
  blk = Block{};
  blk.used = true;
  blk.linear = blockLinear;
  allocateShared(b, k.sharedBytes);
  int slot = 0;
  for (int i = 0; i < numWarps; ++i) {
    while (warps_[slot].active) ++slot;
    Warp& w = warps_[slot];
    w = Warp{};
    look_[static_cast<size_t>(slot)] = 0;
    w.ibuf = IBuffer(cfg_.frontend.ibuffer_entries);
    w.active = true;
    w.block = b;
    w.indexInBlock = static_cast<uint32_t>(i);
    w.ctx = std::make_unique<isa::WarpContext>(k, image_.launch, ctaid, static_cast<uint32_t>(i));
    w.pc = w.ctx->pc();
    scoreboard_.clear(slot);
    warpAge_[slot] = ageCounter_;
    schedulers_[slot % cfg_.issue.schedulers]->setAge(slot / cfg_.issue.schedulers, ageCounter_++);
    blk.warps.push_back(slot);
    if (observer_) observer_->warpAdmitted(id_, slot, cycle);
  }
  ops_.allocate(std::vector<uint32_t>(blk.warps.begin(), blk.warps.end()), k.numRegs);
  if (mech_) mech_->blockAdmitted(b);
  opEvents_++;
  wakeAll();
  residentBlocks_++;
  usedWarps_ += numWarps;
  usedRegs_ += numWarps * static_cast<int>(W) * k.numRegs + mechanismRegs();
}

bool SmCore::tick(uint64_t cycle) {  // (the steps of step(), called directly)
  directTick_ = true;
  if (!beginCycle(cycle)) return false;
  // (Results go to write-back's wheel directly, not through their channels; the commits are the
  // LD/ST unit's answers channel's.)
  memoryAnswered_ = tickMemory(cycle);
  commit();
  writeback(cycle);
  dispatch(cycle);
  commit();
  // Bank writes (which release the scoreboard) before issue: a dependant issues in the cycle
  // its operand is written and reads it the next (docs/timing-model.md, "Per-instruction cost").
  operandTick(cycle);
  issueOrIdle(cycle);
  if (frontendCycle(cycle)) {
    if (mech_) mech_->beforeFetch(cycle);
    fetch(cycle);
  }
  return endCycle();
}

bool SmCore::beginCycle(uint64_t cycle) {
  settle(cycle);  // (the rest cycles before this one come first, before a fault stops the counting)
  stepping_ = false;
  cycleNow_ = cycle;
  if (answers_.num_available() > 0) takeAnswers(cycle);  // before anything else looks at the warps
  if (!fault_.empty()) return false;
  cycles_++;
  if (idle()) {
    cpi_[static_cast<int>(CpiCategory::Idle)] += static_cast<uint64_t>(cfg_.issue.schedulers);
    return false;
  }
  activeCycles_++;
  if (cycle < sleepUntil_ && sleepKey() == sleepKey_) {  // at rest: what the tick would count
    for (const SchedulerMemo& m : memo_) {
      countStall(m.stall, m.cpi);
      if (observer_) observeStall(m.warp, m.stall, cycle);
    }
    if (restDispatchStalls_ >= 0) ops_.countRest(1, static_cast<uint64_t>(restDispatchStalls_));
    return false;
  }
  sleepUntil_ = 0;
  ctx_.now = stepCycle_ = cycle;
  progressBefore_ = warpInstrs_ + fetched_ + opEvents_;
  resultEventsBefore_ = resultEvents_;
  stepping_ = true;
  return true;
}

void SmCore::step(Step s) {
  directTick_ = false;
  if (!stepping_) return;
  const uint64_t cycle = stepCycle_;
  switch (s) {
    case Step::Answers: memoryAnswered_ = tickMemory(cycle); break;  // shared-memory answers due
    case Step::Writeback: writeback(cycle); break;
    case Step::Execute: dispatch(cycle); break;  // collected instructions to their units (frees collectors for issue)
    case Step::Operands: operandTick(cycle); break;  // register-file bank writes, then operand reads
    case Step::Issue: issueOrIdle(cycle); break;
    case Step::Fetch:
      if (!frontendCycle(cycle)) break;
      if (mech_) mech_->beforeFetch(cycle);  // beside the fetch scheduler
      fetch(cycle);
      break;
  }
  commit();
}

bool SmCore::endCycle() {
  if (!stepping_) return false;
  stepping_ = false;
  maybeSleep(stepCycle_);
  return memoryAnswered_ || warpInstrs_ + fetched_ + opEvents_ != progressBefore_ || resultEvents_ != resultEventsBefore_;
}

// Execute's results first (sent in earlier cycles), then the answers unit's (sent this cycle):
// the order they were made in. Each for the cycle it is due, or this one if that has passed.
void SmCore::takeResults(uint64_t cycle) {
  for (const ResultChannel& c : {executeResults_, answerResults_})
    for (int n = c.in->num_available(); n > 0; --n) {
      InFlight f;
      c.in->nb_read(f);
      results_.add(f, std::max(f.at, cycle), cycle);
    }
  sentSinceTaken_ = ~uint64_t{0};
}

void SmCore::writeback(uint64_t cycle) {
  if (!directTick_) takeResults(cycle);
  retireCheck_.clear();
  results_.take(cycle, [&](const InFlight& f) {
    blockResults_[static_cast<size_t>(warps_[static_cast<size_t>(f.slot)].block)]--;
    resultEvents_++;
    if (writebackLog_.should_log(spdlog::level::trace))
      writebackLog_.trace("cycle {}: warp {} {}: result due, to the register file", cycle - kernelStart_, f.slot,
                          isa::disassemble(f.instr, image_.kernel));
    resultReady(f.slot, f.instr, f.dest);
    if (blocksFinished_ > 0 && warps_[static_cast<size_t>(f.slot)].done) retireCheck_.push_back(warps_[static_cast<size_t>(f.slot)].block);
  });
  // A finished block may have been waiting for these results: its own are the only ones that
  // can have made it retirable (every other condition retires it where it changes). In block
  // order, as a walk over every block would.
  std::sort(retireCheck_.begin(), retireCheck_.end());
  retireCheck_.erase(std::unique(retireCheck_.begin(), retireCheck_.end()), retireCheck_.end());
  for (int b : retireCheck_) retireBlock(blocks_[static_cast<size_t>(b)]);
}


// --- Register-file stage: operand collectors to execution units, writeback port -------------

void SmCore::dispatch(uint64_t cycle) {
  // Unit kinds found with no free instance this cycle (dispatching only takes instances, so
  // they stay full): later instructions of that kind are refused without looking again.
  bool full[4] = {false, false, false, false};
  ops_.dispatch(
      cycle,
      [&](isa::Unit unit, const CollectedInstr& c) {
        const int u = static_cast<int>(unit);
        if (full[u] || !fault_.empty()) return false;
        const auto& units = unitFreeAt_[u];
        if (std::none_of(units.begin(), units.end(), [&](uint64_t t) { return t <= cycle; })) {
          full[u] = true;
          return false;
        }
        return unit != isa::Unit::LdSt || memoryAccepts(c.instr);  // (only memory reads the entry)
      },
      [&](const CollectedInstr& c) { executeDispatched(c, cycle); });
}

// With a free instance of its unit (checked by dispatch()), a shared access also needs the
// banks and a global access the memory port.
bool SmCore::memoryAccepts(const isa::Instr& in) const {
  const isa::OpInfo& oi = isa::info(in.op);
  if (isSharedAccess(oi)) return sharedAccepts();  // the banks still serve a conflicting access
  return !isGlobal(oi) || mem_.canAccept();
}

// The instruction leaves its collector in `cycle`: it occupies its unit warp_size / width
// cycles and executes its semantics now, on the values its sources hold (every older
// instruction of the warp has executed, no younger one has), with the lanes fixed at issue.
void SmCore::executeDispatched(const CollectedInstr& c, uint64_t cycle) {
  const int slot = c.slot;
  Warp& w = warps_[slot];
  const isa::Instr& in = c.instr;
  const DecodedInstr& d = decodedAt(c.pc);
  auto& units = unitFreeAt_[static_cast<int>(d.unit)];
  ExecutePlan plan{c.exec, d.occupancy, d.latency, d.sources, d.writesGpr};
  if (mech_) mech_->planExecute(slot, in, c.pc, plan);
  *std::find_if(units.begin(), units.end(), [&](uint64_t t) { return t <= cycle; }) = cycle + plan.occupancy;
  const uint64_t done = cycle + plan.occupancy - 1 + plan.latency;
  opEvents_++;
  // No stall check of the warp reads what a dispatch changes (a barrier or fence waits for its
  // memory instructions both in collectors and in flight; a freed collector is collectorFrees_),
  // so the issue stage need not look at the warp again. Fetch must: a warp past its last
  // instruction faults once its collectors are empty (ranOffTheEnd). A mechanism may look at
  // anything: it is woken.
  if (mech_) wake(slot);
  else wakeForFetch(slot);
  collectorFrees_++;
  const int lanes = __builtin_popcount(plan.exec);
  execWarps_[static_cast<size_t>(d.cls)]++;
  execLanes_[static_cast<size_t>(d.cls)] += static_cast<uint64_t>(lanes);
  if (lanes > 0) {
    const int groups = laneGroupsOf(plan.exec);
    readLaneGroups_ += static_cast<uint64_t>(__builtin_popcountll(plan.rfReads) * groups);
    if (plan.rfWrite) writeLaneGroups_ += static_cast<uint64_t>(groups);
  }
  dispatchPc_ = c.pc;
  if (executeLog_.should_log(spdlog::level::trace)) traceExecute(slot, c, cycle, done);
  if (mech_) mech_->beforeExecute(slot, in, c.pc);
  switch (d.format) {
    case isa::Format::Load: case isa::Format::Store: case isa::Format::Atomic: case isa::Format::AtomicCas:
      executeMemory(slot, in, plan.exec, cycle);
      break;
    case isa::Format::Branch: case isa::Format::NoOperands: case isa::Format::Barrier:
      break;  // resolved at issue
    default:
      w.ctx->executeAlu(in, plan.exec);
      complete(slot, in, done, executeResults_);
      break;
  }
  if (mech_) mech_->afterExecute(slot, in);
  dispatchPc_ = -1;
  if (w.done) {  // its last instruction may have left
    if (mech_) mech_->warpDrained(slot);
    retireBlock(blocks_[w.block]);
  }
}

int SmCore::laneGroupsOf(uint32_t exec) const {
  const int g = cfg_.regfile.lane_group;
  if (g >= 32) return exec != 0;
  if (exec == ~0u) return (32 + g - 1) / g;  // (every group has a lane)
  const uint32_t groupMask = (uint32_t{1} << g) - 1;
  int n = 0;
  for (int lane = 0; lane < 32; lane += g) n += (exec >> lane & groupMask) != 0;
  return n;
}

// A result is due: its register-file write competes for the bank ports; the scoreboard
// releases when it is performed (operandTick). Predicate results have no bank traffic.
void SmCore::resultReady(int slot, const isa::Instr& in, std::optional<regfile::PhysReg> dest) {
  if (!ops_.requestWrite(slot, in, dest)) {
    scoreboard_.release(slot, in);
    if (mech_ && dest) mech_->written(slot, in);  // a mechanism kept the result (holdsResult)
    opEvents_++;
    wakeAfterRelease(slot);
  }
}

void SmCore::operandTick(uint64_t cycle) {
  if (ops_.idle() || !fault_.empty()) return;  // idle: ticking would change nothing
  for (const WrittenResult& r : ops_.tick(cycle)) {
    scoreboard_.release(r.slot, r.instr);
    if (mech_) mech_->written(r.slot, r.instr);
    opEvents_++;
    wakeAfterRelease(r.slot);
    Warp& w = warps_[r.slot];
    if (w.done) retireBlock(blocks_[w.block]);
  }
}

// executeMemory: sm_memory.cpp

void SmCore::releaseBarrier(Block& b) {
  const int waiting = b.warpsAtBarrier, done = b.warpsDone;
  if (waiting == 0) return;
  if (waiting + done == static_cast<int>(b.warps.size()) && done > 0) return deadlock(b);
  if (waiting != static_cast<int>(b.warps.size())) return;
  const uint32_t id = warps_[b.warps[0]].barrierId;
  for (int s : b.warps)
    if (warps_[s].barrierId != id) return deadlock(b);
  for (int s : b.warps) warps_[s].atBarrier = false;
  b.warpsAtBarrier = 0;
  if (observer_)
    for (int s : b.warps) observer_->barrierReleased(id_, s, cycleNow_);
  if (mech_) mech_->barrierReleased(b);
  barriers_++;
  opEvents_++;
  wakeAll();
}

// Worded as the interpreter words it, so a scenario's expect_error holds on both engines.
void SmCore::deadlock(const Block& b) {
  if (!fault_.empty()) return;
  const auto c = image_.launch.grid.blockIndex(b.linear);
  std::ostringstream s;
  s << "SM " << id_ << ": deadlock in block (" << c[0] << "," << c[1] << "," << c[2]
    << "): a barrier can never complete:";
  for (size_t i = 0; i < b.warps.size(); ++i) {
    const Warp& w = warps_[b.warps[i]];
    s << "\n  warp " << i << ": ";
    if (w.done) s << "exited";
    else s << "waits at bar.sync " << w.barrierId << ", PC " << hex(w.barrierPc);
  }
  fault_ = s.str();
}

void SmCore::retireBlock(Block& b) {
  if (!b.used || b.warpsDone != static_cast<int>(b.warps.size())) return;
  for (int s : b.warps)
    if (warps_[s].pendingMem || ops_.busy(s)) return;
  if (blockResults_[static_cast<size_t>(&b - blocks_.data())] > 0) return;
  const isa::Kernel& k = *image_.kernel;
  const uint32_t W = image_.launch.warpSize;
  for (int s : b.warps) {
    if (observer_) observer_->warpRetired(id_, s, cycleNow_);
    warps_[s].fetchInFlight = false;
    warps_[s].active = false;
    warps_[s].ctx.reset();
    ops_.release(s);
  }
  const int numWarps = static_cast<int>(b.warps.size());
  residentBlocks_--;
  usedWarps_ -= numWarps;
  usedRegs_ -= numWarps * static_cast<int>(W) * k.numRegs + mechanismRegs();
  releaseShared(static_cast<int>(&b - blocks_.data()));
  if (mech_) mech_->blockRetired(static_cast<int>(&b - blocks_.data()));
  b.used = false;
  blocksFinished_--;
  opEvents_++;
  wakeAll();
  blocksRun_++;
  if (onBlockDone) onBlockDone(b.linear);
}

void SmCore::setFault(int slot, const std::string& what, const FaultSite& at) {
  if (!fault_.empty()) return;
  const Warp& w = warps_[slot];
  const int64_t pc = at.pc >= 0 ? at.pc : dispatchPc_ >= 0 ? dispatchPc_ : w.ctx && !w.ctx->done() ? w.ctx->pc() : -1;
  std::ostringstream s;
  s << what << " (block ";
  if (w.block >= 0) {
    const auto c = image_.launch.grid.blockIndex(blocks_[w.block].linear);
    s << "(" << c[0] << "," << c[1] << "," << c[2] << ")";
  }
  s << ", warp " << w.indexInBlock;
  if (at.lane >= 0) s << ", lane " << at.lane;
  if (pc >= 0) s << ", PC " << hex(static_cast<uint32_t>(pc));
  if (at.address) s << ", address " << hex(*at.address);
  const isa::Kernel& k = *image_.kernel;
  const size_t idx = pc >= 0 ? isa::Kernel::indexOf(static_cast<uint32_t>(pc)) : k.sourceLines.size();
  if (idx < k.sourceLines.size() && k.sourceLines[idx]) s << ", " << k.sourceFile << ":" << k.sourceLines[idx];
  s << ") on SM " << id_;
  fault_ = s.str();
}

std::string SmCore::describeWarps() const {
  std::ostringstream s;
  for (size_t i = 0; i < warps_.size(); ++i) {
    const Warp& w = warps_[i];
    if (!w.active || (w.done && !w.pendingMem)) continue;
    s << "  SM " << id_ << " block " << blocks_[w.block].linear << " warp " << w.indexInBlock << ": ";
    if (w.done) {  // its block cannot retire before its stores are answered
      s << "exited, waits for " << w.pendingMem << " memory access(es)\n";
      continue;
    }
    s << "PC " << hex(w.ctx->pc()) << ", ";
    if (w.atBarrier) s << "waits at bar.sync " << w.barrierId;
    else if (w.pendingMem) s << "waits for " << w.pendingMem << " memory access(es)";
    else if (w.ibuf.empty() && w.fetchInFlight && w.fetchReadyAt == kNotYet)
      s << "waits for instruction fetch (I-cache miss at " << hex(static_cast<uint32_t>(image_.codeBase + w.fetchingPc)) << ")";
    else if (w.ibuf.empty()) s << "waits for instruction fetch";
    else s << "waits for a dependence or a free operand collector";
    if (mech_) s << "; " << mech_->describeWarp(static_cast<int>(i));
    if (ops_.inCollectors(static_cast<int>(i)))
      s << " (" << ops_.inCollectors(static_cast<int>(i)) << " of its instructions in collectors)";
    s << "\n";
  }
  return s.str();
}

}  // namespace simtlm::sm
