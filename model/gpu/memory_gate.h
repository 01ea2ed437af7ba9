// The GPU's side of the SMs' memory sockets as the SM-side units see it (I-caches, L1s, the
// global path): it forwards every request of SM i to that SM's socket (route(i)) and hands each
// answer back, unless the GPU has released the kernel that made the request since (a fault, a
// soft reset). The TLM transactions already sent cannot be called back; their answers arrive
// later and are dropped here, so that no rebuilt unit ever sees an answer to a request it did
// not make. It also counts the answers and the requests still owed, over all SMs, for the
// watchdog (sm::MemoryActivity).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "model/mem/downstream.h"
#include "model/sm/grid_engine.h"

namespace simtlm::gpu {

class MemoryGate : public sm::MemoryActivity {
 public:
  // downs[i]: where SM i's requests go (its memory socket).
  explicit MemoryGate(const std::vector<mem::Downstream*>& downs);
  // What SM i's units send their requests to.
  mem::Downstream& route(int sm) { return *routes_.at(static_cast<size_t>(sm)); }
  // Answers to the requests made so far are dropped from now on.
  void dropAnswers() {
    generation_++;
    outstanding_ = 0;
  }
  std::uint64_t answers() const override { return answers_; }
  std::uint64_t outstanding() const override { return outstanding_; }

 private:
  class Route : public mem::Downstream {
   public:
    Route(MemoryGate& gate, mem::Downstream& down) : gate_(gate), down_(down) {}
    void read(std::uint64_t address, unsigned size, Done done) override;
    void write(std::uint64_t address, const unsigned char* data, const unsigned char* byte_enable,
               unsigned size, Done done) override;
    void atomic(std::uint64_t address, isa::Op op, const mem::WordOps& ops, Done done) override;

   private:
    MemoryGate& gate_;
    mem::Downstream& down_;
  };
  mem::Downstream::Done gated(mem::Downstream::Done done);
  std::vector<std::unique_ptr<Route>> routes_;
  std::uint64_t generation_ = 0, answers_ = 0, outstanding_ = 0;
};

}  // namespace simtlm::gpu
