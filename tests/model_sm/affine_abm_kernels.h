// Kernels of the affine-abm tests (tests/model_sm/affine_abm_test.cpp on the ideal memory,
// tests/model_gpu/affine_abm_gpu_test.cpp through the coalescer and L1), both with the
// parameters IN (256 words, word i = 3i + 7) and OUT (one word per thread), one block of 64.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tests/model_sm/affine_support.h"

namespace simtlm::test {

// scenarios/kernels/affine_strided_load.s (the scenario affine_04_strided_load runs it too).
// Per warp, four affine memory operations (3 loads, 1 store), 5 transactions with 128-byte
// segments (IN and OUT are 256-byte aligned):
//   in[2 tid]       stride 8:  32 lanes x 8 bytes = 256 bytes, 2 segments
//   in[127 - tid]   stride -4: 128 bytes, 1 segment (warp 0: in[96..127], warp 1: in[64..95])
//   in[3]           stride 0:  1 segment, 1 word
//   out[tid]        stride 4:  1 segment (a store)
inline std::string abmStrided() { return scenarioKernel("affine_strided_load.s"); }

// A guarded load (warp 0: lanes 0-15, warp 1: none) and a load under divergence (warp 1: lanes
// 32-47) are not affine memory operations; the same load in converged warp 0 and the store after
// reconvergence are (3 in all).
inline const char* kAbmDivergent = R"(.kernel abm_divergent
.regs 16
.param IN
.param OUT
  ld.param.b32 r5, [OUT]
  ld.param.b32 r6, [IN]
  s2r r0, %tid.x
  shl.b32 r4, r0, 2
  add.u32 r7, r5, r4
  add.u32 r9, r6, r4
  mov.b32 r1, 5
  setp.lt.u32 p0, r0, 16
  @p0 ld.global.b32 r1, [r9]
  setp.lt.u32 p1, r0, 48
  @!p1 bra SKIP
  ld.global.b32 r2, [r9+4]
  add.u32 r1, r1, r2
SKIP:
  st.global.b32 [r7], r1
  exit
)";

inline std::vector<uint32_t> abmInput() {
  std::vector<uint32_t> w(256);
  for (uint32_t i = 0; i < w.size(); ++i) w[i] = 3 * i + 7;
  return w;
}

}  // namespace simtlm::test
