// The GPU as TLM IP: what an architect instantiates in a SystemC platform.
//   control    TLM-2.0 target socket: the control registers (docs/control-registers.md)
//   irq        sc_out<bool>: kernel completed (when enabled in IRQ_ENABLE)
//   to_memory  TLM-2.0 initiator socket (base protocol, AT or LT): kernel code and parameters
//              at launch, then, through the GPU's SM-side interconnect (gpu.sm_bus), the SMs'
//              traffic: I-cache line fills (instruction fetch at ENTRY + PC) and global loads,
//              stores and atomics (L1 misses, write-through stores, atomics)
//   sm<N>      one sc_module per SM (model/sm/sm_module.h), each with its own initiator socket
//              sm<N>.to_memory for that SM's traffic. Left unbound at the end of elaboration, it
//              is bound to gpu.sm_bus, so the traffic leaves through `to_memory` above in the
//              same order and at the same time as if the SMs shared the GPU's port; bound by the
//              platform to a model of its own (an L2, a network), that SM's traffic goes there.
// On LAUNCH the GPU reads the kernel's instruction words and parameter words from memory
// (debug transport, as a launch-time driver/JIT step would; timed reads through `to_memory`
// where debug transport moves no bytes), then runs the grid on its SMs,
// clocked at gpu.core_clock_mhz, and reports completion in the status register.
// A kernel that faults is released at once: its SMs, I-caches, coalescers and L1s are rebuilt
// in their power-on state (statistics count on), the requests it still had queued are
// dropped and the answers to those already sent are ignored, so the next launch finds the
// whole GPU free. The soft-reset register does the same, and also aborts a running kernel and
// returns the control registers to their power-on values.
// Logger "gpu" (model/common/log.h): kernels launched and finished at debug, a kernel that
// stops (a fault, a bad launch) at info: the host reads those from the error register.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <spdlog/fwd.h>

#include "isa/kernel.h"
#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/gpu/control_regs.h"
#include "model/gpu/global_memory_adapter.h"
#include "model/gpu/memory_gate.h"
#include "model/gpu/sm_bus.h"
#include "model/mem/mem_port.h"
#include "model/sm/grid_engine.h"
#include "model/sm/sm_module.h"

namespace simtlm::gpu {

class Gpu : public sc_core::sc_module {
 public:
  model::ControlRegs regs;        // regs.control is the control target socket
  sc_core::sc_out<bool> irq;
  mem::MemPort port;              // port.to_memory is the memory initiator socket

  SC_HAS_PROCESS(Gpu);
  Gpu(sc_core::sc_module_name name, const config::GpuConfig& cfg, stats::Registry& stats);
  ~Gpu() override;

  // SM i (gpu.sm<i>), 0 <= i < gpu.num_sms: bind sm(i).to_memory during elaboration to put a
  // model of your own behind that SM.
  sm::SmModule& sm(int i) { return *sms_.at(static_cast<size_t>(i)); }
  int numSms() const { return static_cast<int>(sms_.size()); }

  // The last kernel's error (empty on success) and cycle count.
  const std::string& lastError() const { return lastError_; }
  uint64_t lastCycles() const { return lastCycles_; }
  // A simulation aid, not a register: where the host's buffers are ([base, end) each). From the
  // next launch on, a global access outside every one faults with the interpreter's message
  // (block, warp, lane, PC, address), where memory alone would have let it pass.
  void checkBuffers(std::vector<std::pair<uint32_t, uint32_t>> buffers);
  // An LD/ST unit of the user's own for global memory (model/sm/global_access.h) in place of
  // the coalescer and L1: the factory builds SM `sm`'s, sending its memory traffic to `memory`
  // (that SM's socket) and registering its statistics, if any, in `stats`. Before the
  // simulation starts; the SM-side units are rebuilt with it, and again with it after a fault.
  using LdStFactory = std::function<std::unique_ptr<sm::GlobalMemoryPort>(int sm, mem::Downstream& memory,
                                                                          stats::Registry& stats)>;
  void setLdStFactory(LdStFactory factory);
  // Issue schedulers of the user's own (model/sm/warp_scheduler.h) in place of issue.policy's:
  // the factory builds scheduler `scheduler` of SM `sm`. Before the simulation starts, as above.
  void setSchedulerFactory(sm::SchedulerFactory factory);
  // An observer called after every core cycle of a kernel with the kernel's cycle count and
  // whether the kernel ended in it (the energy layer's power sampler). Observers that only read
  // counters this way leave the simulation exactly as it is: a process of their own, woken by
  // timed events, would change the order in which the kernel runs other processes due at the
  // same instant, and with it the cycle in which some memory answers are seen.
  using CycleObserver = std::function<void(uint64_t cycles, bool ended)>;
  void observeCycles(CycleObserver observer) { cycleObservers_.push_back(std::move(observer)); }
  // An observer of the SMs' pipelines (model/sm/sm_observer.h: issue, stalls, barriers, a
  // mechanism's events; a warp timeline), kept across the rebuild after a fault; null: none.
  // It only records, so the run is the same with it as without.
  void observeSms(sm::SmObserver* observer) {
    smObserver_ = observer;
    if (engine_) engine_->observe(observer);
  }

 private:
  void before_end_of_elaboration() override;  // binds the SM sockets left unbound to sm_bus_ (and
                                              // routes those SMs' requests to downstream_)
  void build();    // the SM-side units in their power-on state
  void release();  // drops the last kernel's memory traffic and rebuilds the SM-side units
  void softReset();
  void launch(const model::LaunchRegs& r);       // reads the code and parameters,
  void startKernel(const model::LaunchRegs& r);  // then decodes them and starts the grid
  void clockTick();
  void nextUnit();   // sm.scheduling=systemc: paces the units' delta cycles
  void cycleEnd();
  bool afterCycle(sm::GridEngine::State st);
  std::vector<std::unique_ptr<sm::SmModule>> makeSms();
  void finish(model::ErrorCode code, const std::string& error);
  std::vector<CycleObserver> cycleObservers_;
  sm::SmObserver* smObserver_ = nullptr;

  const config::GpuConfig& cfg_;
  stats::Registry& stats_;
  sc_core::sc_time period_;
  mem::MemPortDownstream downstream_;
  SmBus sm_bus_;  // the SM sockets' default target: forwards to downstream_
  // sm.scheduling=systemc: unit u of every SM runs when unitEvents_[u] fires (before sms_).
  std::array<sc_core::sc_event, sm::GridEngine::kUnits> unitEvents_;
  sc_core::sc_event cycleEnd_;
  int unit_ = 0;
  bool cycleOpen_ = false;  // a systemc cycle began on the current engine_ and has not ended
  bool answersToDrain_ = false;  // since release(): the LD/ST answer fifos may hold a released kernel's
  std::vector<std::unique_ptr<sm::SmModule>> sms_;
  MemoryGate gate_;  // the SM-side units of SM i reach sms_[i] (or downstream_) through gate_.route(i)
  LdStFactory ldstFactory_;  // empty: GlobalMemoryAdapter
  sm::SchedulerFactory schedulerFactory_;  // empty: issue.policy
  std::vector<std::unique_ptr<sm::GlobalMemoryPort>> adapters_;
  std::unique_ptr<sm::GridEngine> engine_;
  std::vector<unsigned char> code_;  // the launch's code and parameters as read from memory
  std::vector<uint32_t> params_;
  uint64_t loads_ = 0;  // launches (and resets) so far: a late answer to an older load is dropped
  std::string name_;  // the kernel's name: its code address
  isa::Kernel kernel_;
  sm::KernelImage image_;
  bool running_ = false;
  std::string lastError_;
  uint64_t lastCycles_ = 0;
  bool checkBuffers_ = false;
  std::vector<std::pair<uint32_t, uint32_t>> buffers_;  // sorted by base
  sc_core::sc_event start_;
  spdlog::logger& log_;
};

}  // namespace simtlm::gpu
