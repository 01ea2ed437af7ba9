// The BOW bypass-opportunity study (BOW Fig. 3 and 7) on hand-written kernels with exact counts:
// a window one instruction too small or too large, or counted in static instead of executed
// instructions, gives a different count.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/bow_study.h"
#include "tests/isa/test_support.h"
#include "workloads/workload.h"

using namespace simtlm;
using isa::BowDest;
using simtlm::test::dim;

namespace {

isa::BowStudyResult study(const std::string& body, uint32_t threads = 4, uint32_t warpSize = 4) {
  isa::Kernel k = isa::assemble(".kernel t\n.regs 16\n" + body);
  isa::GlobalMemory mem;
  isa::BowStudy s;
  isa::Interpreter(k, mem).run(test::launch(dim(1), dim(threads), {}, warpSize), &s);
  return s.result();
}

// {RF only, BOC only, both} at window `iw`.
std::array<uint64_t, 3> split(const isa::BowStudyResult& r, int iw) { return r.at(iw).dest; }

// r1 read at distance 1 and again at 6; r2 at distance 3 (just outside IW 3); r3 at 2; r4 at 3;
// the r5 of instruction 4 is overwritten unread (a transient, dead value).
const char* kDistances = R"(
  mov.b32 r1, 5           // 0
  add.u32 r2, r1, 1       // 1  r1 at distance 1
  mov.b32 r3, 7           // 2
  mov.b32 r4, 9           // 3
  add.u32 r5, r2, r3      // 4  r2 at 3, r3 at 2
  mov.b32 r5, 1           // 5  overwrites r5 unread
  add.u32 r6, r4, r5      // 6  r4 at 3, r5 at 1
  add.u32 r7, r1, r6      // 7  r1 at 6 (last access 1), r6 at 1
  exit
)";

}  // namespace

TEST(BowStudy, ReadBypassFollowsTheWindow) {
  auto r = study(kDistances);
  EXPECT_EQ(r.warpInstructions, 9u);
  EXPECT_EQ(r.reads, 7u);
  const uint64_t expected[] = {3, 4, 6, 6, 6, 7};  // IW 2..7
  for (int iw = 2; iw <= 7; ++iw) EXPECT_EQ(r.at(iw).readBypassed, expected[iw - 2]) << "IW " << iw;
}

TEST(BowStudy, WriteDestinationsFollowTheWindow) {
  auto r = study(kDistances);
  EXPECT_EQ(r.writes, 8u);
  EXPECT_EQ(r.partialWrites, 0u);
  // IW 2: r2, r3, r4 are first read outside (RF only); r1 is read inside and at 6 (both).
  EXPECT_EQ(split(r, 2), (std::array<uint64_t, 3>{3, 4, 1}));
  // IW 3: r3 (distance 2) becomes transient; r2 and r4 (distance 3) stay outside.
  EXPECT_EQ(split(r, 3), (std::array<uint64_t, 3>{2, 5, 1}));
  for (int iw = 4; iw <= 6; ++iw) EXPECT_EQ(split(r, iw), (std::array<uint64_t, 3>{0, 7, 1})) << "IW " << iw;
  EXPECT_EQ(split(r, 7), (std::array<uint64_t, 3>{0, 8, 0}));  // r1's read at 6 is reached
  EXPECT_EQ(r.at(3).writeBypassed(), 5u);
  // Of those, r5 (instruction 4) and r7 are never read; r3, r5, r6 end with the warp.
  EXPECT_EQ(r.bocUnread, 2u);
  EXPECT_EQ(r.bocAtExit, 3u);
  // In one basic block the IW-3 hints are the dynamic classes.
  EXPECT_EQ(r.hints, (std::array<uint64_t, 3>{2, 5, 1}));
  EXPECT_EQ(r.hintAgreement(), 8u);
}

TEST(BowStudy, CountsPerWarp) {
  auto one = study(kDistances, 4), two = study(kDistances, 8);  // two warps of 4
  EXPECT_EQ(two.reads, 2 * one.reads);
  for (int iw = 2; iw <= 7; ++iw) {
    EXPECT_EQ(two.at(iw).readBypassed, 2 * one.at(iw).readBypassed);
    for (int d = 0; d < 3; ++d) EXPECT_EQ(two.at(iw).dest[d], 2 * one.at(iw).dest[d]);
  }
}

TEST(BowStudy, WindowCountsExecutedInstructionsAcrossABranch) {
  // The branch takes a window slot; the skipped instructions do not. r1 is read 2 executed
  // instructions later (4 static ones).
  auto r = study(R"(
    mov.b32 r1, 3
    bra SKIP
    mov.b32 r9, 0
    mov.b32 r9, 0
  SKIP:
    add.u32 r2, r1, 1
    exit
  )");
  EXPECT_EQ(r.warpInstructions, 4u);
  EXPECT_EQ(r.reads, 1u);
  EXPECT_EQ(r.at(2).readBypassed, 0u);
  EXPECT_EQ(r.at(3).readBypassed, 1u);
  EXPECT_EQ(split(r, 2), (std::array<uint64_t, 3>{1, 1, 0}));
  EXPECT_EQ(split(r, 3), (std::array<uint64_t, 3>{0, 2, 0}));
  // The static hint of r1 must assume a read in another block is outside: RF only.
  EXPECT_EQ(r.hints, (std::array<uint64_t, 3>{1, 1, 0}));
  EXPECT_EQ(r.hintVsDynamic[static_cast<int>(BowDest::RegisterFile)][static_cast<int>(BowDest::Boc)], 1u);
  EXPECT_EQ(r.hintAgreement(), 1u);
}

TEST(BowStudy, PartialWriteMergesAndNeedsTheRegisterFile) {
  // Lanes 0 and 1 overwrite r1: the old value of lanes 2 and 3 must survive in the RF.
  auto r = study(R"(
    s2r r0, %tid.x
    setp.lt.u32 p0, r0, 2
    mov.b32 r1, 1
    @p0 mov.b32 r1, 2
    add.u32 r2, r1, r1
    exit
  )");
  EXPECT_EQ(r.reads, 2u);  // r0, and r1 once though named twice
  EXPECT_EQ(r.writes, 4u);
  EXPECT_EQ(r.partialWrites, 1u);
  for (int iw = 2; iw <= 7; ++iw) {
    EXPECT_EQ(r.at(iw).readBypassed, 2u);
    EXPECT_EQ(split(r, iw), (std::array<uint64_t, 3>{0, 2, 2})) << "IW " << iw;
  }
  EXPECT_EQ(r.hintAgreement(), 4u);
}

TEST(BowStudy, WorkloadCountsAddUp) {
  auto w = workloads::makeWorkload("vecadd", {{"n", 1000}, {"block", 128}});
  isa::Kernel k = workloads::loadKernel(*w);
  isa::GlobalMemory mem;
  auto launch = w->setup(mem);
  isa::BowStudy s;
  auto counts = isa::Interpreter(k, mem).run(launch, &s);
  ASSERT_EQ(w->verify(mem), "");
  const auto& r = s.result();
  EXPECT_EQ(r.warpInstructions, counts.warpInstructions);
  uint64_t prev = 0;
  for (int iw = 2; iw <= 7; ++iw) {
    const auto& c = r.at(iw);
    EXPECT_EQ(c.dest[0] + c.dest[1] + c.dest[2], r.writes);
    EXPECT_GE(c.readBypassed, prev);  // a larger window holds at least as much
    prev = c.readBypassed;
  }
  EXPECT_EQ(r.hints[0] + r.hints[1] + r.hints[2], r.writes);
}
