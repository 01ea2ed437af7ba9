// The hotspot workload (Rodinia HotSpot, 16x16 blocks): bit-exact against its C++ reference on
// the interpreter and on the SM timing model under baseline and DARSIE; the verification can
// fail; exact instruction, barrier and limit-study counts.
#include <gtest/gtest.h>

#include <iostream>

#include "isa/limit_study.h"
#include "model/sm/grid_runner.h"
#include "tests/model_sm/workload_test_support.h"
#include "workloads/workload.h"

using namespace simtlm;

namespace {

struct HotspotRun {
  isa::ExecCounts counts;
  isa::LimitStudyResult limit;
  std::string verify;
};

HotspotRun interpret(const workloads::Options& o) {
  auto w = workloads::makeHotspot(o);
  isa::GlobalMemory mem;
  isa::LimitStudy study;
  HotspotRun r;
  r.counts = workloads::runOnInterpreter(*w, mem, &study);
  r.limit = study.result();
  r.verify = w->verify(mem);
  return r;
}

void timed(config::Mechanism m) {
  const test::TimedRun r = test::runAgainstInterpreter(*workloads::makeHotspot({{"size", 64}}), m);
  ASSERT_TRUE(test::matchesInterpreter(r));
  if (m == config::Mechanism::Darsie) {
    EXPECT_GT(r.skipped, 0u);
  }
  std::cout << "hotspot size 64, 2 SMs: " << r.cycles << " cycles, " << r.skipped << " skipped\n";
}

}  // namespace

TEST(WorkloadHotspot, InterpreterMatchesReference) {
  const HotspotRun r = interpret({});
  EXPECT_EQ(r.verify, "");
  // 22x22 blocks of 8 warps (256x256, small blocks of 12): exact count of the default size.
  EXPECT_EQ(r.counts.warpInstructions, 572000u);
  EXPECT_EQ(r.counts.barriers, 22u * 22u * 4u);  // load + 2 steps + 1 copy-back per block
  const auto& l = r.limit;
  std::cout << "warp instructions " << l.warpInstructions << ", tb_redundant " << l.tbRedundant << " ("
            << 100.0 * l.fraction(l.tbRedundant) << "%), uniform " << l.tbByStructure[0] << ", affine "
            << l.tbByStructure[1] << ", unstructured " << l.tbByStructure[2] << ", grid " << l.gridRedundant
            << ", warp " << l.warpRedundant << "\n";
  // 16x16 blocks: the tx-only address and predicate arithmetic repeats in every warp (lanes
  // 0..15 and 16..31 both hold tx = 0..15: unstructured, not affine, across the lanes).
  EXPECT_GT(l.tbByStructure[static_cast<int>(isa::Structure::Unstructured)], 0u);
  EXPECT_GT(l.tbRedundant, l.warpInstructions / 5);
}

TEST(WorkloadHotspot, RaggedSizesAndEveryPyramidHeight) {
  for (long it = 1; it <= 7; ++it) {
    const HotspotRun r = interpret({{"rows", 37}, {"cols", 53}, {"iterations", it}});
    EXPECT_EQ(r.verify, "") << "iterations " << it;
  }
}

TEST(WorkloadHotspot, TimingBaselineEqualsInterpreter) { timed(config::Mechanism::Baseline); }
TEST(WorkloadHotspot, TimingDarsieEqualsInterpreter) { timed(config::Mechanism::Darsie); }

TEST(WorkloadHotspot, CorruptedInputFailsVerification) {
  auto w = workloads::makeHotspot({{"size", 40}});
  isa::Kernel k = workloads::loadKernel(*w);
  isa::GlobalMemory mem;
  auto launch = w->setup(mem);
  auto t = mem.words("temp_src");
  t[5 * 40 + 7] ^= 0x00400000u;  // one temperature changed
  mem.setWords("temp_src", t);
  isa::Interpreter(k, mem).run(launch);
  EXPECT_NE(w->verify(mem), "");
}

TEST(WorkloadHotspot, RejectsBadOptions) {
  EXPECT_THROW(workloads::makeHotspot({{"iterations", 8}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeHotspot({{"size", 0}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeHotspot({{"bogus", 1}}), std::invalid_argument);
}
