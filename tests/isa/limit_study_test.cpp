// The redundancy limit study (DARSIE Fig. 1, 2, 3) on known kernels, with exact counts.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/limit_study.h"
#include "tests/isa/test_support.h"
#include "workloads/workload.h"

using namespace simtlm;
using isa::Structure;
using simtlm::test::findInstr;

namespace {

struct StudyRun {
  isa::Kernel kernel;
  isa::ExecCounts counts;
  isa::LimitStudyResult limit;
  std::string verify;
};

StudyRun run(const std::string& name, const workloads::Options& o) {
  auto w = workloads::makeWorkload(name, o);
  StudyRun r{workloads::loadKernel(*w), {}, {}, {}};
  isa::GlobalMemory mem;
  auto launch = w->setup(mem);
  isa::LimitStudy study;
  r.counts = isa::Interpreter(r.kernel, mem).run(launch, &study);
  r.limit = study.result();
  r.verify = w->verify(mem);
  return r;
}

}  // namespace

TEST(LimitStudy, Fig3OneDimensionalBlockIsNotRedundant) {
  StudyRun r = run("fig3", {{"x", 8}, {"y", 1}});
  ASSERT_EQ(r.verify, "");
  for (const char* p : {"mul.lo.u32 r1", "add.u32 r2", "ld.global"}) {
    const auto& pc = r.limit.perPc[findInstr(r.kernel, p)];
    EXPECT_EQ(pc.executed, 2u) << p;
    EXPECT_EQ(pc.tbRedundant, 0u) << p;  // TB-affine, but each warp has different values
  }
}

TEST(LimitStudy, Fig3TwoDimensionalBlockIsAffineAndUnstructuredRedundant) {
  StudyRun r = run("fig3", {{"x", 4}, {"y", 2}});
  ASSERT_EQ(r.verify, "");
  const auto& mul = r.limit.perPc[findInstr(r.kernel, "mul.lo.u32 r1")];
  const auto& add = r.limit.perPc[findInstr(r.kernel, "add.u32 r2")];
  const auto& ld = r.limit.perPc[findInstr(r.kernel, "ld.global")];
  EXPECT_EQ(mul.tbRedundant, 2u);
  EXPECT_EQ(mul.tbByStructure[static_cast<int>(Structure::Affine)], 2u);       // [0,4,8,12]
  EXPECT_EQ(add.tbByStructure[static_cast<int>(Structure::Affine)], 2u);       // base + [0,4,8,12]
  EXPECT_EQ(ld.tbByStructure[static_cast<int>(Structure::Unstructured)], 2u);  // [7,3,0,90]
  EXPECT_EQ(r.limit.perPc[findInstr(r.kernel, "st.global")].tbRedundant, 0u);
}

TEST(LimitStudy, VecAddExactCounts) {
  // 1024 elements, 256-thread blocks: 4 blocks x 8 warps, 19 instructions per warp.
  StudyRun r = run("vecadd", {{"n", 1024}, {"block", 256}});
  ASSERT_EQ(r.verify, "");
  EXPECT_EQ(r.counts.warpInstructions, 32u * 19u);
  EXPECT_EQ(r.limit.warpInstructions, 32u * 19u);
  // Grid-wide: %ntid.x and the four parameter loads.
  EXPECT_EQ(r.limit.gridRedundant, 32u * 5u);
  // Per block additionally %ctaid.x.
  EXPECT_EQ(r.limit.tbRedundant, 32u * 6u);
  EXPECT_EQ(r.limit.tbByStructure[static_cast<int>(Structure::Uniform)], 32u * 6u);
  EXPECT_EQ(r.limit.tbEliminable, 4u * 6u * 7u);
  EXPECT_EQ(r.limit.warpRedundant, 32u * 6u);
  // UV's count (Fig. 2): the four parameter loads are memory instructions and do not count;
  // %ntid.x and %ctaid.x give 31 redundant operations each per warp.
  EXPECT_EQ(r.limit.uvIntraWarpOps, 32u * 2u * 31u);
  // Inter-warp (UV Fig. 2): in each block, the 7 warps after the first find %ntid.x and
  // %ctaid.x already executed with the same value: 32 operations each.
  EXPECT_EQ(r.limit.uvInterWarpOps, 4u * 7u * 2u * 32u);
}

TEST(LimitStudy, PartialAndDivergedWarpsAreNotRedundant) {
  // 1000 elements: the last block's last warps exit early or are partial.
  StudyRun full = run("vecadd", {{"n", 1024}, {"block", 256}});
  StudyRun part = run("vecadd", {{"n", 1000}, {"block", 256}});
  ASSERT_EQ(part.verify, "");
  EXPECT_LT(part.limit.gridRedundant, full.limit.gridRedundant);
  // Only %ntid.x and the load of N come before the early exit; after it the last warp runs
  // with exited lanes, so the later parameter loads are not grid-redundant any more.
  EXPECT_EQ(part.limit.gridRedundant, 32u * 2u);
}

TEST(LimitStudy, MatmulTwoDimensionalHasAffineAndUnstructuredRedundancy) {
  StudyRun r = run("matmul", {{"size", 64}});
  ASSERT_EQ(r.verify, "");
  const auto& l = r.limit;
  EXPECT_GT(l.tbByStructure[static_cast<int>(Structure::Affine)], 0u);
  EXPECT_GT(l.tbByStructure[static_cast<int>(Structure::Unstructured)], 0u);
  // Bs[k][tx] loads are TB-redundant in every warp (32x32 block, tid.x repeats per warp);
  // As[ty][k] loads never are.
  const auto& bs = l.perPc[findInstr(r.kernel, "ld.shared.b32 r22")];
  const auto& as = l.perPc[findInstr(r.kernel, "ld.shared.b32 r21")];
  EXPECT_EQ(bs.tbRedundant, bs.executed);
  EXPECT_EQ(as.tbRedundant, 0u);
  EXPECT_GT(l.fraction(l.tbRedundant), 0.3);
  EXPECT_LT(l.fraction(l.tbRedundant), 0.6);
}

TEST(LimitStudy, Deterministic) {
  StudyRun a = run("matmul", {{"size", 64}});
  StudyRun b = run("matmul", {{"size", 64}});
  EXPECT_EQ(a.limit.tbRedundant, b.limit.tbRedundant);
  EXPECT_EQ(a.limit.gridRedundant, b.limit.gridRedundant);
  EXPECT_EQ(a.limit.warpRedundant, b.limit.warpRedundant);
  EXPECT_EQ(a.counts.warpByClass, b.counts.warpByClass);
}

TEST(LimitStudy, NegativeStridesAreAffine) {
  // Every warp computes 100 - 3 * lane: TB-redundant and affine with a negative stride, also
  // when only every third lane executes.
  isa::Kernel k = isa::assemble(R"(
.kernel neg
  s2r r0, %laneid
  mul.lo.u32 r1, r0, 3
  mov.b32 r2, 100
  sub.u32 r3, r2, r1
  rem.u32 r4, r0, 3
  setp.eq.b32 p0, r4, 0
  @p0 sub.u32 r5, r2, r1
  exit
)", "neg.s");
  isa::GlobalMemory mem;
  isa::LaunchConfig l;
  l.block = {64, 1, 1};
  isa::LimitStudy study;
  isa::Interpreter(k, mem).run(l, &study);
  const auto& sub = study.result().perPc[3];
  const auto& guarded = study.result().perPc[6];
  EXPECT_EQ(sub.tbByStructure[static_cast<int>(Structure::Affine)], 2u);
  EXPECT_EQ(guarded.tbByStructure[static_cast<int>(Structure::Affine)], 2u);
}

// A workload of several launches is one study: a second launch adds to the totals and to the
// first kernel's per-PC figures; a launch of another kernel adds to the totals only.
TEST(LimitStudy, SeveralLaunchesAddUp) {
  StudyRun once = run("fig3", {{"x", 4}, {"y", 2}});
  auto w = workloads::makeWorkload("fig3", {{"x", 4}, {"y", 2}});
  isa::Kernel k = workloads::loadKernel(*w);
  isa::Kernel other = workloads::loadKernel(*workloads::makeWorkload("vecadd"));
  isa::GlobalMemory mem;
  auto launch = w->setup(mem);
  isa::LimitStudy study;
  isa::Interpreter(k, mem).run(launch, &study);
  isa::Interpreter(k, mem).run(launch, &study);
  const auto& l = study.result();
  EXPECT_EQ(l.warpInstructions, 2 * once.limit.warpInstructions);
  EXPECT_EQ(l.tbRedundant, 2 * once.limit.tbRedundant);
  EXPECT_EQ(l.tbByStructure, (std::array<uint64_t, 3>{2 * once.limit.tbByStructure[0], 2 * once.limit.tbByStructure[1],
                                                      2 * once.limit.tbByStructure[2]}));
  const size_t mul = findInstr(k, "mul.lo.u32 r1");
  EXPECT_EQ(l.perPc[mul].tbRedundant, 4u);

  isa::GlobalMemory vmem;
  auto vw = workloads::makeWorkload("vecadd", {{"n", 1024}});
  isa::Interpreter(other, vmem).run(vw->setup(vmem), &study);
  StudyRun vec = run("vecadd", {{"n", 1024}});
  EXPECT_EQ(study.result().warpInstructions, 2 * once.limit.warpInstructions + vec.limit.warpInstructions);
  EXPECT_EQ(study.result().tbRedundant, 2 * once.limit.tbRedundant + vec.limit.tbRedundant);
  EXPECT_EQ(study.result().perPc.size(), k.size());  // still the first kernel's
  EXPECT_EQ(study.result().perPc[mul].tbRedundant, 4u);
}
