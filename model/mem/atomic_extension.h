// Word operations of one memory request, and atomics performed at memory.
//
// A warp memory instruction becomes per-line requests; stores and atomics carry their lanes'
// word operations (`WordOps`, in lane order, byte offsets from the request address). An atomic
// travels to memory as a TLM_READ_COMMAND generic payload of 4 * ops bytes whose address is the
// request address, carrying an `AtomicExtension` (isa opcode + the ops). A target that knows
// the extension (DramTarget) performs the read-modify-writes in op order at arrival, with
// isa::evalLane, and answers with the old word of op i at data[4*i .. 4*i+3] (host byte order,
// little-endian like every word in the model). Atomics from several SMs therefore serialise at
// memory. A target that does not know the extension must not be given atomics.
#pragma once

#include "isa/opcode.h"

#include <tlm>

#include <array>
#include <cstdint>
#include <cstring>

namespace simtlm::mem {

inline constexpr unsigned kMaxLanes = 32;  // gpu.warp_size is at most 32

struct WordOp {
  std::uint32_t offset = 0;  // bytes from the request address (a multiple of 4)
  std::uint32_t b = 0;       // store data, or the atomic's first operand
  std::uint32_t c = 0;       // cas: the value stored when the old word equals b
};

// Fixed capacity (one per lane) so that requests carry no heap allocation.
struct WordOps {
  std::array<WordOp, kMaxLanes> op{};
  unsigned count = 0;
  void push(std::uint32_t offset, std::uint32_t b, std::uint32_t c = 0) {
    op[count++] = WordOp{offset, b, c};
  }
  const WordOp& operator[](unsigned i) const { return op[i]; }
};

// Whether `op` is an atomic opcode (formats Atomic and AtomicCas).
inline bool isAtomic(isa::Op op) {
  const isa::Format f = isa::info(op).format;
  return f == isa::Format::Atomic || f == isa::Format::AtomicCas;
}

class AtomicExtension : public tlm::tlm_extension<AtomicExtension> {
 public:
  isa::Op op{};
  WordOps ops;

  tlm::tlm_extension_base* clone() const override { return new AtomicExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override {
    *this = static_cast<const AtomicExtension&>(e);
  }
};

// Performs `ops` in order on 32-bit words at base + offset: old = read(addr),
// write(addr, evalLane(op, old, b, c)), old_out[i] = old. Defined in atomic_extension.cpp.
using ReadWord = std::uint32_t (*)(void* ctx, std::uint64_t address);
using WriteWord = void (*)(void* ctx, std::uint64_t address, std::uint32_t value);
void applyAtomic(isa::Op op, const WordOps& ops, std::uint64_t base, std::uint32_t* old_out,
                 void* ctx, ReadWord read, WriteWord write);

}  // namespace simtlm::mem
