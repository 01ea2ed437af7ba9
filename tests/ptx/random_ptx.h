// Random PTX modules for differential tests of the PTX front end (tests/isa/ptx_random_test.cpp):
// a seed gives one kernel `rand_kernel` in the syntax nvcc writes, within the subset that
// isa/ptx/ptx_translate.h and the reference evaluator (ptx_reference.h) both cover: integer and
// f32 arithmetic, bit manipulation, conversions, compares and predicate logic, guarded
// instructions, bounded loops, data-dependent divergence (forward and backward branches,
// nested, with break/continue and early returns), loads of two input buffers, per-thread
// .local memory, and stores to each thread's own words of an output buffer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/launch.h"

namespace simtlm::test {

// The kernel's interface. Parameters, in order:
//   rand_kernel_param_0 .u64  out: kPtxOutWordsPerThread words per thread, thread g owning
//                              words [g*N, (g+1)*N); g = block * threads per block + the
//                              thread's linear index in its block (x fastest), block =
//                              ctaid.x + ctaid.y * nctaid.x
//   rand_kernel_param_1 .u64  inA: kPtxInputWords integer words (read only)
//   rand_kernel_param_2 .u64  inB: kPtxInputWords f32 words (read only)
//   rand_kernel_param_3 .u32  a scalar
//   rand_kernel_param_4 .f32  a scalar
// Every address the kernel forms stays inside these buffers when grid.z = 1. Every thread ends
// at `ret` after a bounded number of steps.
inline constexpr uint32_t kPtxOutWordsPerThread = 96;
inline constexpr uint32_t kPtxInputWords = 256;

std::string randomPtxModule(uint64_t seed);

// The inputs and launch shape of the module of `seed` (its own random stream, so one seed names
// the same test everywhere): inA integers and edge values, inB floats and special bit patterns,
// the two scalars, and a grid of at most 128 threads (a partial warp, 2D and 3D blocks).
struct RandomPtxInputs {
  std::vector<uint32_t> inA, inB;
  uint32_t scalar = 0, fscalar = 0;
  isa::Dim3 grid{2, 1, 1}, block{64, 1, 1};
};
RandomPtxInputs randomPtxInputs(uint64_t seed);

}  // namespace simtlm::test
