// Workloads on the functional interpreter match their C++ references bit for bit.
#include <gtest/gtest.h>

#include "workloads/workload.h"

using namespace simtlm;

namespace {

isa::ExecCounts runAndVerify(const std::string& name, const workloads::Options& o) {
  auto w = workloads::makeWorkload(name, o);
  auto k = workloads::loadKernel(*w);
  isa::GlobalMemory mem;
  auto launch = w->setup(mem);
  auto counts = isa::Interpreter(k, mem).run(launch);
  EXPECT_EQ(w->verify(mem), "") << name;
  return counts;
}

}  // namespace

TEST(Workloads, Matmul256TiledMatchesReference) {
  // The reference README: nvcc's TILE 32 kernel executes 2,103,296 warp instructions and
  // 66,060,288 thread instructions; this hand-written kernel executes a similar amount.
  auto c = runAndVerify("matmul", {{"size", 256}});
  EXPECT_EQ(c.blocks, 64u);
  EXPECT_EQ(c.warps, 64u * 32u);
  EXPECT_EQ(c.warpInstructions, c.threadInstructions / 32);  // never divergent
  EXPECT_EQ(c.barriers, 64u * 8u * 2u);
  EXPECT_NEAR(static_cast<double>(c.warpInstructions), 2103296.0, 0.1 * 2103296.0);
}

TEST(Workloads, MatmulRaggedSizesMatchReference) {
  runAndVerify("matmul", {{"m", 33}, {"n", 70}, {"k", 45}});
}

TEST(Workloads, VecAdd1MMatchesReference) {
  auto c = runAndVerify("vecadd", {});
  EXPECT_EQ(c.threads, 1u << 20);
  EXPECT_EQ(c.warps, (1u << 20) / 32);
}

TEST(Workloads, VecAddRaggedMatchesReference) { runAndVerify("vecadd", {{"n", 1000}, {"block", 96}}); }

TEST(Workloads, Fig3MatchesReference) {
  runAndVerify("fig3", {{"x", 8}, {"y", 1}});
  runAndVerify("fig3", {{"x", 4}, {"y", 2}});
}

TEST(Workloads, BadOptionsAreRejected) {
  EXPECT_THROW(workloads::makeWorkload("vecadd", {{"n", 0}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeWorkload("vecadd", {{"size", 4}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeWorkload("nope"), std::invalid_argument);
}

TEST(Workloads, HintBitsDoNotChangeResults) {
  // Hinted binaries run correctly on hardware that ignores the hints (DARSIE Sec. 4.2).
  auto w = workloads::makeWorkload("matmul", {{"size", 64}});
  auto plain = workloads::loadKernel(*w);
  auto hinted = plain;
  for (auto& in : hinted.instrs) {
    in.darsie = isa::Redundancy::Definite;
    in.bow = isa::BowHint::Bypass;
  }
  hinted.reencode();
  ASSERT_NE(plain.code, hinted.code);
  isa::GlobalMemory m1, m2;
  auto l1 = w->setup(m1);
  auto l2 = w->setup(m2);
  auto c1 = isa::Interpreter(plain, m1).run(l1);
  auto c2 = isa::Interpreter(hinted, m2).run(l2);
  EXPECT_TRUE(m1 == m2);
  EXPECT_EQ(c1.warpByClass, c2.warpByClass);
}
