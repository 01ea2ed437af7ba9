// Runs a whole grid on the SM timing cores without SystemC: blocks are handed out in linear
// order to SMs with room, every SM and memory port is ticked each cycle. Used by unit tests and
// as the engine the SystemC GPU top drives. An ideal global memory (fixed latency, unlimited
// bandwidth, functional at issue) stands in for the coalescer, L1 and TLM path, and an ideal
// instruction memory (fixed latency, the kernel's code words) for the I-caches' line fills.
#pragma once

#include <deque>
#include <memory>
#include <string>

#include "isa/memory.h"
#include "model/mem/downstream.h"
#include "model/sm/sm_core.h"

namespace simtlm::sm {

class IdealGlobalMemory : public GlobalMemoryPort {
 public:
  IdealGlobalMemory(isa::GlobalMemory& memory, int latency, int maxOutstanding = 64)
      : mem_(memory), latency_(latency), maxOutstanding_(maxOutstanding) {}
  void bind(sc_core::sc_fifo_out_if<GlobalResponse>& responses) override { responses_ = &responses; }
  bool canAccept() const override { return static_cast<int>(pending_.size()) < maxOutstanding_; }
  const uint64_t* acceptVersion() const override { return &answered_; }
  void issue(const GlobalRequest& request) override;
  void tick(uint64_t cycle) override;
  bool idle() const override { return pending_.empty(); }

 private:
  struct Pending {
    uint64_t at;
    std::array<uint32_t, 32> words;
    std::string error;
    uint64_t id;
  };
  isa::GlobalMemory& mem_;
  sc_core::sc_fifo_out_if<GlobalResponse>* responses_ = nullptr;
  int latency_, maxOutstanding_;
  uint64_t now_ = 0, answered_ = 0;  // answered_: ticks that ended a refusal
  std::deque<Pending> pending_;
};

// The instruction memory of runGrid: the kernel's code words placed at `base`, read by the
// I-caches' line fills. A read made in cycle c is answered by tick(c + max(1, latency)), in
// order (so a miss costs at least one cycle more than a hit); bytes past the end of the code
// read as zero, and a read that covers no code word answers with an error, as do writes and
// atomics (code is read-only).
class IdealCodeMemory : public mem::Downstream {
 public:
  IdealCodeMemory(const std::vector<uint64_t>& code, uint64_t base, int latency)
      : code_(code), base_(base), latency_(latency) {}
  void read(uint64_t address, unsigned size, Done done) override;
  void write(uint64_t, const unsigned char*, const unsigned char*, unsigned, Done done) override;
  void atomic(uint64_t, isa::Op, const mem::WordOps&, Done done) override;
  void tick(uint64_t cycle);
  bool idle() const { return pending_.empty(); }
  uint64_t reads() const { return reads_; }

 private:
  struct Pending {
    uint64_t at;
    std::vector<unsigned char> data;
    bool ok;
    Done done;
  };
  const std::vector<uint64_t>& code_;
  uint64_t base_;
  int latency_;
  uint64_t now_ = 0, reads_ = 0;
  std::deque<Pending> pending_;
};

struct GridResult {
  uint64_t cycles = 0;
  std::string error;  // a kernel fault or a stuck run, with the stuck warps
};

// Global accesses go to an IdealGlobalMemory of `memoryLatency` cycles per SM; the I-caches
// fill lines from an IdealCodeMemory of `codeLatency` cycles per SM (the code at address 0;
// 0 for tests of the back end: each miss then costs one cycle more than a hit). The SMs run
// `mechanism`, which the caller looks up for `cfg` (mechanisms::factoryFor(cfg)).
GridResult runGrid(const config::GpuConfig& cfg, const MechanismFactory& mechanism,
                   const isa::Kernel& kernel, const isa::LaunchConfig& launch,
                   isa::GlobalMemory& memory, stats::Registry& stats, int memoryLatency = 100,
                   int codeLatency = 100);
// The same without a mechanism (a configuration that names one is refused: GridEngine).
GridResult runGrid(const config::GpuConfig& cfg, const isa::Kernel& kernel,
                   const isa::LaunchConfig& launch, isa::GlobalMemory& memory,
                   stats::Registry& stats, int memoryLatency = 100, int codeLatency = 100);

}  // namespace simtlm::sm
