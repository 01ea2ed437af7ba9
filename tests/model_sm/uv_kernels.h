// Kernels shared by the UV tests (uv_test.cpp, uv_reliability_test.cpp).
#pragma once

namespace simtlm::test {

// r1 held tid.x (a vector) before the uniform chain overwrites it on lane N only: a vector read
// that did not broadcast lane N would store tid-dependent garbage.
inline const char* kUniformChain = R"(.kernel uniform_chain
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  mov.b32 r1, r0
  s2r r1, %ctaid.x
  add.u32 r1, r1, 7
  mul.lo.u32 r2, r1, 3
  add.u32 r3, r0, r2
  shl.b32 r4, r0, 2
  add.u32 r5, r5, r4
  add.u32 r3, r3, r1
  st.global.b32 [r5], r3
  exit
)";

}  // namespace simtlm::test
