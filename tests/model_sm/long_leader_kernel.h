// A kernel whose followers wait for their leader's write-back under DARSIE: in one 32x8 block
// the divide depends on tid.x only, so warps 1-7 skip it and wait about its latency for warp
// 0's write-back. Shared by the tests of those waits (darsie_waits_test.cpp) and of the CPI
// category they land in (cpi_stack_test.cpp).
#pragma once

namespace simtlm::test {

inline const char* const kLongLeaderKernel = R"(.kernel long_leader
.regs 8
.param OUT
  s2r r0, %tid.x
  div.u32 r1, r0, 3
  add.u32 r2, r1, 7
  s2r r3, %tid.y
  shl.b32 r4, r3, 5
  add.u32 r4, r4, r0
  shl.b32 r4, r4, 2
  ld.param.b32 r5, [OUT]
  add.u32 r5, r5, r4
  st.global.b32 [r5], r2
  exit
)";

}  // namespace simtlm::test
