// Uniform/affine classification (Kim et al. Sec. 4.1-4.3).
#include <gtest/gtest.h>

#include "isa/affine_analysis.h"
#include "isa/assembler.h"
#include "tests/isa/test_support.h"

using namespace simtlm::isa;
using simtlm::test::assembleWorkloadKernel;
using simtlm::test::findOp;

namespace {

constexpr ValueShape U = ValueShape::Uniform, A = ValueShape::Affine, G = ValueShape::Generic;

Kernel asmKernel(const std::string& body) {
  return assemble(".kernel t\n.regs 32\n.param P\n" + body);
}
std::vector<ValueShape> shapes(const Kernel& k, std::optional<Dim3> block = std::nullopt,
                               uint32_t warpSize = 32) {
  Cfg cfg(k);
  return classifyAffine(k, cfg, block, warpSize).instr;
}

const char* kArith = R"(
  s2r r0, %tid.x               // 0  A
  ld.param.b32 r1, [P]         // 1  U
  shl.b32 r2, r0, 2            // 2  A   tid.x * 4
  add.u32 r3, r2, r1           // 3  A   + base
  s2r r4, %ctaid.x             // 4  U
  s2r r5, %ntid.x              // 5  U
  mul.lo.u32 r6, r4, r5        // 6  U   ctaid * ntid
  mad.lo.u32 r7, r4, r5, r0    // 7  A   global thread index
  mul.lo.u32 r8, r0, r0        // 8  G   tid.x * tid.x
  ld.global.b32 r9, [r3]       // 9  G   affine address
  ld.global.b32 r10, [r1+4]    // 10 U   uniform address
  cvt.f32.u32 r11, r6          // 11 U
  add.f32 r12, r11, r11        // 12 U   fp on uniform
  cvt.f32.u32 r13, r0          // 13 G
  add.f32 r14, r3, r1          // 14 G   fp on affine
  setp.lt.u32 p0, r6, r1       // 15 U
  setp.lt.u32 p1, r3, r1       // 16 G
  shl.b32 r15, r1, r0          // 17 G   uniform shifted by affine
  mad.lo.u32 r16, r0, r0, r1   // 18 G   affine * affine
  s2r r17, %laneid             // 19 A
  s2r r18, %tid.y              // 20 G   without a block shape
  shr.u32 r19, r0, 1           // 21 G
  sub.u32 r20, r3, r0          // 22 A
  mov.b32 r21, r7              // 23 A
  div.u32 r22, r6, 3           // 24 U
  mul.lo.u32 r23, r5, r0       // 25 A   uniform * affine
  atom.global.add.u32 r24, [r1], r6  // 26 G
  st.global.b32 [r3], r7       // 27 (no result)
  exit                         // 28
)";

}  // namespace

TEST(Affine, ShapeNames) {
  EXPECT_STREQ(shapeName(U), "U");
  EXPECT_STREQ(shapeName(A), "A");
  EXPECT_STREQ(shapeName(G), "G");
}

TEST(Affine, ArithmeticWithoutBlockShape) {
  Kernel k = asmKernel(kArith);
  auto s = shapes(k);
  const std::vector<ValueShape> want = {A, U, A, A, U, U, U, A, G, G, U, U, U, G, G,
                                        U, G, G, G, A, G, G, A, A, U, A, G, G, G};
  ASSERT_EQ(s.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(s[i], want[i]) << "instruction " << i << ": got " << shapeName(s[i]);
}

TEST(Affine, BlockShapeDecidesThreadIndex) {
  Kernel k = asmKernel(R"(
  s2r r0, %tid.x               // 0
  s2r r1, %tid.y               // 1
  s2r r2, %tid.z               // 2
  shl.b32 r3, r0, 2            // 3
  mul.lo.u32 r4, r1, 64        // 4
  exit
)");
  // Without a shape: tid.x affine, tid.y/z generic.
  auto s = shapes(k);
  EXPECT_EQ(s[0], A);
  EXPECT_EQ(s[1], G);
  EXPECT_EQ(s[2], G);
  // 16x16, warp 32: a warp spans two rows, so tid.x repeats and tid.y takes two values.
  s = shapes(k, Dim3{16, 16, 1});
  EXPECT_EQ(s[0], G);
  EXPECT_EQ(s[1], G);
  EXPECT_EQ(s[3], G);
  EXPECT_EQ(s[2], U);  // block.z == 1
  // 64x4: a warp lies in one row.
  s = shapes(k, Dim3{64, 4, 1});
  EXPECT_EQ(s[0], A);
  EXPECT_EQ(s[1], U);
  EXPECT_EQ(s[3], A);
  EXPECT_EQ(s[4], U);
  // 16x16 with warps of 16 threads: one row per warp again.
  s = shapes(k, Dim3{16, 16, 1}, 16);
  EXPECT_EQ(s[0], A);
  EXPECT_EQ(s[1], U);
  // 1x64: tid.x is always 0 and tid.y runs along the lanes.
  s = shapes(k, Dim3{1, 64, 1});
  EXPECT_EQ(s[0], U);
  EXPECT_EQ(s[1], A);
  // tid.z is uniform only when x*y is a multiple of the warp size.
  EXPECT_EQ(shapes(k, Dim3{8, 4, 4})[2], U);
  EXPECT_EQ(shapes(k, Dim3{8, 2, 4})[2], G);
  EXPECT_EQ(shapes(k, Dim3{8, 2, 4}, 8)[2], U);
}

TEST(Affine, GuardedWritesMeetOldValueAndGuard) {
  Kernel k = asmKernel(R"(
  s2r r0, %tid.x               // 0 A
  s2r r1, %ctaid.x             // 1 U
  setp.eq.b32 p0, r1, 0        // 2 U
  setp.eq.b32 p1, r0, 0        // 3 G
  mov.b32 r2, 7                // 4 U
  @p0 mov.b32 r2, r1           // 5 U: uniform guard, uniform old value
  mov.b32 r3, 7                // 6 U
  @p1 mov.b32 r3, 8            // 7 G: per-lane guard
  @p0 mov.b32 r4, r0           // 8 A: old value is uniform (zero)
  @!p0 add.u32 r4, r4, r1      // 9 A
  @p0 setp.lt.u32 p2, r1, 3    // 10 U
  @p1 setp.lt.u32 p3, r1, 3    // 11 G
  selp.b32 r5, r0, r4, p0      // 12 A: uniform selector
  selp.b32 r6, r1, r2, p1      // 13 G
  exit
)");
  auto s = shapes(k);
  const std::vector<ValueShape> want = {A, U, U, G, U, U, U, G, A, A, U, G, A, G, G};
  ASSERT_EQ(s.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(s[i], want[i]) << "instruction " << i << ": got " << shapeName(s[i]);
}

TEST(Affine, DivergentJoinMakesValuesGeneric) {
  Kernel k = asmKernel(R"(
  s2r r0, %tid.x               // 0
  s2r r1, %ctaid.x             // 1
  mov.b32 r2, 0                // 2
  setp.lt.u32 p0, r0, 16       // 3 G
  @p0 bra skip                 // 4
  mov.b32 r2, 5                // 5 U inside the region
skip:
  add.u32 r3, r2, 1            // 6 G: lanes took different paths
  add.u32 r7, r1, 1            // 7 U: r1 is not written under the branch
  mov.b32 r4, 0                // 8
  setp.lt.u32 p1, r1, 2        // 9 U
  @p1 bra skip2                // 10
  mov.b32 r4, r0               // 11 A
skip2:
  add.u32 r5, r4, 1            // 12 A: uniform branch keeps the shapes (meet of U and A)
  exit
)");
  auto s = shapes(k);
  EXPECT_EQ(s[3], G);
  EXPECT_EQ(s[5], U);
  EXPECT_EQ(s[6], G);
  EXPECT_EQ(s[7], U);
  EXPECT_EQ(s[9], U);
  EXPECT_EQ(s[11], A);
  EXPECT_EQ(s[12], A);
}

TEST(Affine, UniformLoopKeepsInductionUniform) {
  Kernel k = asmKernel(R"(
  s2r r0, %tid.x               // 0
  mov.b32 r1, 0                // 1
  mov.b32 r2, 0                // 2
loop:
  add.u32 r2, r2, r0           // 3 A: sum of affine values
  add.u32 r1, r1, 1            // 4 U
  setp.lt.u32 p0, r1, 10       // 5 U
  @p0 bra loop                 // 6
  mov.b32 r3, 0                // 7
loop2:
  add.u32 r3, r3, 1            // 8 U among the lanes still looping
  setp.lt.u32 p1, r3, r0       // 9 G
  @p1 bra loop2                // 10
  add.u32 r4, r3, 0            // 11 G
  add.u32 r5, r2, 0            // 12 A
  exit
)");
  auto s = shapes(k);
  EXPECT_EQ(s[3], A);
  EXPECT_EQ(s[4], U);
  EXPECT_EQ(s[5], U);
  EXPECT_EQ(s[8], U);
  EXPECT_EQ(s[9], G);   // the exit test is per lane
  EXPECT_EQ(s[11], G);  // lanes left after different trip counts
  EXPECT_EQ(s[12], A);
}

TEST(Affine, MatmulTiled) {
  Kernel k = assembleWorkloadKernel("matmul_tiled.s");
  size_t shl11 = findOp(k, Op::SHL_B32, 11, 0), shl10 = findOp(k, Op::SHL_B32, 10, 1);
  size_t row = findOp(k, Op::ADD_U32, 7, 7), col = findOp(k, Op::ADD_U32, 8, 8);
  size_t ldA = findOp(k, Op::LD_SHARED, 21, 10), ldB = findOp(k, Op::LD_SHARED, 22, 11);
  size_t tiles = findOp(k, Op::SHR_U32, 13, 13), ldParamA = findOp(k, Op::LD_PARAM, 16, 0);
  auto s = shapes(k);
  EXPECT_EQ(s[shl11], A);
  EXPECT_EQ(s[shl10], G);  // tid.y without a block shape
  EXPECT_EQ(s[row], G);
  EXPECT_EQ(s[col], A);
  EXPECT_EQ(s[tiles], U);
  EXPECT_EQ(s[ldParamA], U);
  EXPECT_EQ(s[ldA], G);
  EXPECT_EQ(s[ldB], G);
  for (size_t i = 0; i < k.size(); ++i)
    if (k.instrs[i].op == Op::FMA_F32) { EXPECT_EQ(s[i], G) << "fma at " << i; }

  // Launched as 32x32 blocks: tid.y is uniform per warp, so row and As[ty][k] are too.
  auto b = shapes(k, Dim3{32, 32, 1});
  EXPECT_EQ(b[shl11], A);
  EXPECT_EQ(b[shl10], U);
  EXPECT_EQ(b[row], U);
  EXPECT_EQ(b[ldA], U);  // every lane reads the same As[ty][k]
  EXPECT_EQ(b[ldB], G);
  for (size_t i = 0; i < k.size(); ++i)
    if (k.instrs[i].op == Op::FMA_F32) { EXPECT_EQ(b[i], G) << "fma at " << i; }
}
