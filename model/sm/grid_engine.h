// The grid engine: the one place that runs a kernel's grid on a set of SM cores. It hands out
// blocks in linear order to SMs with room, ticks every SM, its I-cache and its memory port once
// per core cycle, stops clocking SMs with nothing resident once the grid has no blocks left to hand out
// (clock gating: they cost no host time), and runs the watchdog. runGrid (plain C++, tests) and
// the SystemC GPU top (one tick per clock edge) both drive it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <spdlog/fwd.h>

#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/frontend/icache.h"
#include "model/mem/downstream.h"
#include "model/sm/observer_recorder.h"
#include "model/sm/pipeline_register.h"
#include "model/sm/sm_core.h"
#include "model/sm/thread_chooser.h"

namespace simtlm::common {
class ForkJoinPool;
}

namespace simtlm::sm {

// The memory beyond the SMs' ports, as the watchdog sees it: its answers are progress (a slow
// memory is not a stuck kernel), and what it still owes tells a stuck report's reader whether
// memory or the SMs stopped.
class MemoryActivity {
 public:
  virtual ~MemoryActivity() = default;
  virtual uint64_t answers() const = 0;      // answers delivered so far
  virtual uint64_t outstanding() const = 0;  // requests not answered yet
};

class GridEngine {
 public:
  enum class State { Idle, Running, Done, Faulted };

  // One SM core per port (ports[i] is SM i's global-memory port, code[i] the memory its
  // I-cache fills lines from; both outlive the engine). Each SM gets a frontend::ICache over
  // code[i], with statistics under `sm<i>.icache`.
  // What the caller may put in place of the engine's own parts:
  //   answers[i]   the channel SM i's LD/ST unit writes its responses to (global_access.h), both
  //                ends, owned by the caller (the systemc scheduling's sc_fifo, at least
  //                GlobalMemoryPort::kMaxResponses deep); empty: the engine makes a pipeline
  //                register per SM and commits it after the LD/ST step;
  //   executeResults[i], answerResults[i]
  //                SM i's channels of results to write-back (pending_result.h), at least
  //                kMaxResultsPerStep deep; empty: pipeline registers of the engine's;
  //   schedulers   the SMs' issue schedulers (warp_scheduler.h); empty: issue.policy's;
  //   mechanism    the mechanism every SM runs (sm_mechanism.h), which the caller looks up for
  //                the configuration (mechanisms::factoryFor); required when `cfg` names one.
  struct AnswerChannel {
    sc_core::sc_fifo_in_if<GlobalResponse>* in;
    sc_core::sc_fifo_out_if<GlobalResponse>* out;
  };
  struct Parts {
    std::vector<AnswerChannel> answers;
    std::vector<ResultChannel> executeResults, answerResults;
    SchedulerFactory schedulers;
    MechanismFactory mechanism;
  };
  GridEngine(const config::GpuConfig& cfg, const std::vector<GlobalMemoryPort*>& ports,
             const std::vector<mem::Downstream*>& code, stats::Registry& stats, const Parts& parts = {});
  ~GridEngine();

  // Starts a grid. Returns an error (nothing started) when a block can never fit on an SM.
  std::string start(const KernelImage& image);
  // One core cycle; returns the state after it.
  State tick();
  // The same cycle in parts, for a scheduler that runs each SM unit from its own process (the
  // systemc scheduling): beginCycle() hands out blocks and decides which SMs are clocked (false:
  // no grid running, nothing else may be called); then step() for every SM and unit, the units
  // in the order of Unit (any SM order within one unit); endCycle() checks faults (the first SM
  // in SM order), limits and the watchdog, and returns the state. tick() does the same work SM
  // after SM rather than unit after unit: SMs share nothing within a cycle but memory, whose
  // order the GPU's memory gate fixes (model/gpu/memory_gate.h).
  // tick() steps the SMs in alternating directions, SM 0 first in even cycles and the last SM
  // first in odd ones: the SMs stepped last are still in the host's caches when the next cycle
  // starts (28 SMs' state outgrows a 512 KB L2: a third fewer host misses). Only for a caller
  // whose memory side makes the order irrelevant (the GPU's memory gate holds the SMs' requests
  // and sends them in SM order); runGrid's ideal memories perform accesses as they are made.
  void alternateSmOrder(bool on) { alternate_ = on; }
  // tick() runs the SMs of a cycle on `threads` host threads (sim.threads; 0: the host's cores;
  // at most one per SM; 1: none beside the caller's). Thread t takes SMs t, t + threads, ..., in
  // the alternating direction above. Only for the same callers as alternateSmOrder: the SMs then
  // share nothing within a cycle (their requests are held per SM and sent in SM order, their
  // counters are their own, an attached observer's events are recorded per SM and replayed in
  // the order one thread makes them), so every count gives the same cycles, statistics and
  // timelines. The systemc scheduling's step() stays on the caller's thread.
  // adapt: sim.adapt_threads (thread_chooser.h).
  void runSmsOn(int threads, bool adapt = false);
  enum class Unit : uint8_t { ICache, LdSt, Answers, Writeback, Execute, Operands, Issue, Fetch };
  static constexpr int kUnits = 8;
  static const char* unitName(Unit u);  // the unit's module name: "icache", ..., "fetch"
  bool beginCycle();
  void step(size_t sm, Unit u);
  State endCycle();

  // Brings every SM's statistics up to the cycles run so far: an SM at rest is not ticked
  // (SmCore::restsIn), and counts its rest in bulk when it wakes or is settled. The engine settles
  // when a grid ends; whoever reads the statistics while a grid runs settles first.
  void settle();

  State state() const { return state_; }
  uint64_t cycles() const { return cycle_ - startCycle_; }  // core cycles of the current / last grid
  // The engine's clock: it runs on across grids, so that a unit's timestamps (a bank busy until
  // cycle c, a fill due at cycle c) from one grid never lie in the next grid's future.
  uint64_t now() const { return cycle_; }
  const std::string& error() const { return error_; }  // a fault, or the stuck-run report
  // Memory whose answers the watchdog counts as progress (the GPU's memory initiator); none in
  // runGrid, whose ideal memories always answer within their latency.
  void watchMemory(const MemoryActivity* memory) { memory_ = memory; }
  int numSms() const { return static_cast<int>(sms_.size()); }
  // An observer of every SM's pipeline (sm_observer.h); null detaches it.
  void observe(SmObserver* observer) {
    observer_ = observer;
    for (auto& sm : sms_) sm->setObserver(observer);
  }

 private:
  bool handOutBlocks();
  // SM i's part of a tick(): its I-cache, LD/ST unit and core, unless gated (counted in `gated`).
  // Returns whether anything happened.
  bool tickSm(size_t i, bool blocksToHandOut, uint64_t& gated);
  void tickParallel(bool blocksToHandOut);
  void fail(const std::string& what);
  std::string stuckReport() const;
  // The run limits (limits.max_cycles, limits.max_instructions): the report when one is reached.
  std::string limitReached() const;
  std::string shortfall() const;  // why a block of image_ cannot fit on an empty SM
  // Out of line: a block event is rare, and inlined it would weigh on tick()'s loop.
  [[gnu::noinline]] void logBlock(size_t sm, uint64_t block, const char* what) const;

  const config::GpuConfig& cfg_;
  std::vector<GlobalMemoryPort*> ports_;
  std::vector<std::unique_ptr<frontend::ICache>> icaches_;  // one per SM, before the SMs
  std::vector<std::unique_ptr<UpdateList>> updates_;  // per SM: its pipeline registers' update phase
  std::vector<std::unique_ptr<PipelineRegister<GlobalResponse>>> answerRegs_;  // when not given
  std::vector<std::unique_ptr<PipelineRegister<PendingResult>>> resultRegs_;    // when not given
  std::vector<std::unique_ptr<SmCore>> sms_;
  std::string mechanismRegs_;  // its registers in the banks (MechanismResources::regsName)
  KernelImage image_;
  State state_ = State::Idle;
  uint64_t cycle_ = 0, startCycle_ = 0, lastProgress_ = 0, nextBlock_ = 0, totalBlocks_ = 0, blocksLeft_ = 0;
  std::string error_;
  const MemoryActivity* memory_ = nullptr;
  uint64_t memoryAnswers_ = 0;  // memory_->answers() when last looked at
  uint64_t totalCycles_ = 0, kernels_ = 0;
  std::vector<char> clocked_;  // per SM: ticked this cycle (beginCycle)
  // Per SM: gated with no block left to hand out, so until the grid ends (tick() looks no further:
  // nothing comes to an SM without blocks, its LD/ST unit and I-cache idle).
  std::vector<char> parked_;
  bool alternate_ = false;      // alternateSmOrder()
  size_t lastPlaced_ = 0;       // breadth-first placement: the SM that received the last block
  std::vector<uint8_t> placedThisCycle_;
  bool progress_ = false;       // something happened in this cycle's units
  uint64_t gatedCycles_ = 0;  // SM-cycles not clocked because the SM had nothing to do
  std::vector<const uint64_t*> issued_;  // per SM: its issue.warp_instructions counter
  std::vector<spdlog::logger*> smLogs_;  // per SM: "gpu.sm<i>" (blocks admitted and retired)
  std::vector<uint64_t> retired_;  // per SM: blocks retired in this cycle, taken off blocksLeft_ at endCycle
  SmObserver* observer_ = nullptr;  // observe()
  // runSmsOn(): the pool, each thread's results of a cycle (a cache line each), and per SM the
  // recorder of its observer events while an observer is attached.
  struct alignas(64) ThreadResult {
    uint64_t gated = 0;
    bool progress = false;
  };
  std::unique_ptr<common::ForkJoinPool> pool_;
  ThreadChooser chooser_{false};
  std::vector<ThreadResult> threadResults_;
  std::vector<ObserverRecorder> recorders_;
};

}  // namespace simtlm::sm
