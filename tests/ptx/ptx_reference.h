// A reference evaluator of PTX, for tests only: it runs a kernel straight from the parsed PTX
// (isa/ptx/ptx_module.h), thread after thread, each to completion, on PTX's own virtual
// registers with their declared widths (real 64-bit values in .u64/.s64/.b64 registers). Its
// semantics are written from the PTX ISA specification, independently of simtlm's
// translator (isa/ptx/ptx_translate.h) and of isa/semantics.h, so that the two can check each
// other (tests/isa/ptx_random_test.cpp).
//
// Scope: the PTX that a kernel without barriers, shared memory or atomics uses: integer and
// f32 arithmetic (.rn), setp/selp/predicate logic, cvt, popc/clz/brev/bfe/bfi, ld/st to
// .global/.local/.param/.const, bra, ret. Anything else (bar.sync, .shared, atom, f64, .ftz,
// .sat, non-.rn rounding of arithmetic, approximate div/sqrt/rcp, generic addressing ...)
// throws std::runtime_error, as do out-of-bounds or misaligned accesses, integer division by
// zero and a thread that runs more than 10^7 instructions.
//
// Conventions where PTX leaves a choice: registers start at 0 and local memory is zeroed; an
// f32 arithmetic result that is NaN is the canonical NaN 0x7fffffff; abs.f32 / neg.f32 only
// touch the sign bit; add/sub/mul.f32 without a rounding modifier round to nearest, each on
// its own (PTX would allow fusing a mul and an add); a signed division INT_MIN / -1 wraps;
// %laneid is the linear thread index in the block modulo 32.
#pragma once

#include <string>

#include "isa/launch.h"
#include "isa/memory.h"
#include "isa/ptx/ptx_module.h"

namespace simtlm::test {

// Runs every thread of `launch`'s grid of kernel `entry` of `m` on `mem`. `launch.params[i]`
// is the 32-bit word of the i-th declared `.param` (a 64-bit parameter is that word
// zero-extended); words beyond the declared parameters are the addresses of the module's
// `.const` symbols in the order the entry first uses them.
void runPtxReference(const isa::ptx::Module& m, const std::string& entry, const isa::LaunchConfig& launch,
                     isa::GlobalMemory& mem);

}  // namespace simtlm::test
