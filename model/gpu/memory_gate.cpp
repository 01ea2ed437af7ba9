#include "model/gpu/memory_gate.h"

#include <utility>

namespace simtlm::gpu {

MemoryGate::MemoryGate(const std::vector<mem::Downstream*>& downs) {
  for (mem::Downstream* d : downs) routes_.push_back(std::make_unique<Route>(*this, *d));
}

mem::Downstream::Done MemoryGate::gated(mem::Downstream::Done done) {
  outstanding_++;
  return [this, generation = generation_, d = std::move(done)](const unsigned char* data, bool ok) {
    if (generation != generation_) return;
    outstanding_--;
    answers_++;
    d(data, ok);
  };
}

void MemoryGate::Route::read(std::uint64_t address, unsigned size, Done done) {
  down_.read(address, size, gate_.gated(std::move(done)));
}

void MemoryGate::Route::write(std::uint64_t address, const unsigned char* data,
                              const unsigned char* byte_enable, unsigned size, Done done) {
  down_.write(address, data, byte_enable, size, gate_.gated(std::move(done)));
}

void MemoryGate::Route::atomic(std::uint64_t address, isa::Op op, const mem::WordOps& ops, Done done) {
  down_.atomic(address, op, ops, gate_.gated(std::move(done)));
}

}  // namespace simtlm::gpu
