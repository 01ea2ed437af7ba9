#include "model/gpu/memory_gate.h"

#include <utility>

namespace simtlm::gpu {

mem::Downstream::Done MemoryGate::gated(Done done) {
  outstanding_++;
  return [this, generation = generation_, d = std::move(done)](const unsigned char* data, bool ok) {
    if (generation != generation_) return;
    outstanding_--;
    answers_++;
    d(data, ok);
  };
}

void MemoryGate::read(std::uint64_t address, unsigned size, Done done) {
  down_.read(address, size, gated(std::move(done)));
}

void MemoryGate::write(std::uint64_t address, const unsigned char* data, const unsigned char* byte_enable,
                       unsigned size, Done done) {
  down_.write(address, data, byte_enable, size, gated(std::move(done)));
}

void MemoryGate::atomic(std::uint64_t address, isa::Op op, const mem::WordOps& ops, Done done) {
  down_.atomic(address, op, ops, gated(std::move(done)));
}

}  // namespace simtlm::gpu
