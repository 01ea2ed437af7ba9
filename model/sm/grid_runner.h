// Runs a whole grid on the SM timing cores without SystemC: blocks are handed out in linear
// order to SMs with room, every SM and memory port is ticked each cycle. Used by unit tests and
// as the engine the SystemC GPU top drives. An ideal global memory (fixed latency, unlimited
// bandwidth, functional at issue) stands in until the coalescer, L1 and TLM path are attached.
#pragma once

#include <deque>
#include <memory>
#include <string>

#include "isa/memory.h"
#include "model/sm/sm_core.h"

namespace simtlm::sm {

class IdealGlobalMemory : public GlobalMemoryPort {
 public:
  IdealGlobalMemory(isa::GlobalMemory& memory, int latency, int maxOutstanding = 64)
      : mem_(memory), latency_(latency), maxOutstanding_(maxOutstanding) {}
  bool canAccept() const override { return static_cast<int>(pending_.size()) < maxOutstanding_; }
  void issue(const GlobalAccess& access, Done done) override;
  void tick(uint64_t cycle) override;
  bool idle() const override { return pending_.empty(); }

 private:
  struct Pending {
    uint64_t at;
    std::array<uint32_t, 32> words;
    std::string error;
    Done done;
  };
  isa::GlobalMemory& mem_;
  int latency_, maxOutstanding_;
  uint64_t now_ = 0;
  std::deque<Pending> pending_;
};

struct GridResult {
  uint64_t cycles = 0;
  std::string error;  // a kernel fault or a stuck run, with the stuck warps
};

GridResult runGrid(const config::GpuConfig& cfg, const isa::Kernel& kernel,
                   const isa::LaunchConfig& launch, isa::GlobalMemory& memory,
                   stats::Registry& stats, int memoryLatency = 100);

}  // namespace simtlm::sm
