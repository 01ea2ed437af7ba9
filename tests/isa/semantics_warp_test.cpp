// Semantics of the opcodes of isa/opcodes.def (see tests/isa/semantics_cases.h): warpAlu
// agrees with evalLane, honours the mask and broadcasts stride-0 sources.
#include <gtest/gtest.h>

#include "tests/isa/semantics_cases.h"

namespace simtlm::test {

TEST(SemanticsWarp, WarpAluMatchesEvalLane) {
  std::vector<Case> all = allCases();
  EXPECT_GT(all.size(), 400u);
  for (const Case& k : all) {
    for (int lanes : {32, 8, 1}) {
      uint32_t full = lanes == 32 ? 0xFFFFFFFFu : ((1u << lanes) - 1);
      for (uint32_t mask : {full, full & 0x55555555u, full & 0x80000001u, 0u}) {
        uint32_t a[32], b[32], c[32], d[32];
        for (int l = 0; l < 32; ++l) {
          a[l] = k.a;
          b[l] = k.b;
          c[l] = k.c;
          d[l] = 0xDEAD0000u + l;
        }
        // Vector a, broadcast b and c when the mask is partial; all vectors otherwise.
        int sb = mask == full ? 1 : 0;
        isa::warpAlu(k.op)(a, 1, b, sb, c, sb, d, mask, lanes);
        for (int l = 0; l < 32; ++l) {
          if (l < lanes && (mask >> l & 1u)) {
            EXPECT_TRUE(matches(k.want, d[l])) << describe(k) << " lane " << l << " got " << hexWord(d[l]);
          } else {
            EXPECT_EQ(d[l], 0xDEAD0000u + l) << describe(k) << ": lane " << l << " outside the mask was written";
          }
        }
      }
    }
  }
}

TEST(SemanticsWarp, PerLaneOperands) {
  uint32_t a[32], b[32], d[32] = {};
  for (int l = 0; l < 32; ++l) {
    a[l] = static_cast<uint32_t>(l);
    b[l] = static_cast<uint32_t>(100 * l);
  }
  uint32_t zero = 0;
  isa::warpAlu(Op::SUB_U32)(a, 1, b, 1, &zero, 0, d, 0xFFFFFFFFu, 32);
  for (int l = 0; l < 32; ++l) EXPECT_EQ(d[l], static_cast<uint32_t>(l - 100 * l));
  // Broadcast a (stride 0) with a partial mask.
  uint32_t seven = 7;
  isa::warpAlu(Op::MUL_LO_U32)(&seven, 0, a, 1, &zero, 0, d, 0x0000FFFFu, 32);
  for (int l = 0; l < 16; ++l) EXPECT_EQ(d[l], 7u * l);
  for (int l = 16; l < 32; ++l) EXPECT_EQ(d[l], static_cast<uint32_t>(l - 100 * l));
}

}  // namespace simtlm::test
