#include "model/mem/atomic_extension.h"

#include "isa/semantics.h"

namespace simtlm::mem {

void applyAtomic(isa::Op op, const WordOps& ops, std::uint64_t base, std::uint32_t* old_out,
                 void* ctx, ReadWord read, WriteWord write) {
  for (unsigned i = 0; i < ops.count; ++i) {
    const std::uint64_t a = base + ops[i].offset;
    const std::uint32_t old = read(ctx, a);
    write(ctx, a, isa::evalLane(op, old, ops[i].b, ops[i].c));
    old_out[i] = old;
  }
}

}  // namespace simtlm::mem
