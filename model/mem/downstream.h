// Downstream: what an SM-side cache sends its misses, stores and atomics to. Plain C++, so the
// caches' logic is tested with a fake memory; MemPortDownstream (mem_port.h) is the TLM one.
//
// Completion callbacks may run at any later time (in SystemC method context for the TLM
// implementation) or even before the call returns; `data` is valid during the callback only:
// read data for reads, the old words (4 bytes per op) for atomics, null for writes.
#pragma once

#include "model/mem/atomic_extension.h"

#include <cstdint>
#include <functional>

namespace simtlm::mem {

class Downstream {
 public:
  using Done = std::function<void(const unsigned char* data, bool ok)>;
  virtual ~Downstream() = default;
  virtual void read(std::uint64_t address, unsigned size, Done done) = 0;
  // `byte_enable` (may be null: all enabled) has `size` bytes, 0x00 disabled, 0xff enabled.
  virtual void write(std::uint64_t address, const unsigned char* data,
                     const unsigned char* byte_enable, unsigned size, Done done) = 0;
  virtual void atomic(std::uint64_t address, isa::Op op, const WordOps& ops, Done done) = 0;

  // A read answered through `to.answered(tag, data, ok)`, as `done(data, ok)` would be: no
  // callable is built, stored or moved per request by an implementation that keeps the pair
  // (the memory gate and the TLM port, on every global load of every SM). The default wraps it.
  class Receiver {
   public:
    virtual void answered(std::uint64_t tag, const unsigned char* data, bool ok) = 0;

   protected:
    ~Receiver() = default;
  };
  virtual void readTo(std::uint64_t address, unsigned size, Receiver& to, std::uint64_t tag) {
    read(address, size, [&to, tag](const unsigned char* data, bool ok) { to.answered(tag, data, ok); });
  }
};

}  // namespace simtlm::mem
