// heartwall (Rodinia's HT, CUDA-only; docs/workloads/heartwall.md): the nvcc kernel on the
// interpreter tracks the synthetic wall as the C++ reference does, and verify() catches a
// wrong position, score or template.
#include <gtest/gtest.h>

#include "isa/semantics.h"
#include "workloads/workload.h"

using namespace simtlm;

namespace {

// The small contract scenario's options (tests/cuda_small/heartwall.yaml).
const workloads::Options kSmall = {
    {"width", 48}, {"height", 48}, {"frames", 3}, {"points", 4},
    {"tsize", 2},  {"ssize", 3},   {"threads", 64}};

}  // namespace

TEST(HeartWall, SmallRunMatchesItsReference) {
  auto w = workloads::makeWorkload("heartwall", kSmall);
  isa::GlobalMemory mem;
  const auto c = workloads::runOnInterpreter(*w, mem);
  EXPECT_EQ(w->verify(mem), "");
  EXPECT_EQ(c.blocks, 3u * 4u);          // a launch per frame, a block per point
  EXPECT_EQ(c.barriers, 3u * 4u * 15u);  // per block: 1 + (1 + 6) + (1 + 6), log2(64) = 6
  EXPECT_EQ(c.warpInstructions, 15702u);
}

TEST(HeartWall, VerifyCatchesAWrongWord) {
  auto w = workloads::makeWorkload("heartwall", kSmall);
  for (const char* buffer : {"track", "score", "templates"}) {
    isa::GlobalMemory mem;
    workloads::runOnInterpreter(*w, mem);
    auto v = mem.words(buffer);
    v[v.size() - 1] ^= 1u;
    mem.setWords(buffer, v);
    EXPECT_NE(w->verify(mem).find(buffer), std::string::npos) << buffer;
  }
}

// The default sequence contracts the tissue about the centre (64, 64) by 256/262, 256/268 and
// 256/274 in frames 1-3: the outer wall's left point (point 13, radius 40: column 24) is
// followed right to column 27 (40 * 256/274 = 37.4 from the centre), the inner wall's right
// point (point 0, radius 24: column 88) left to column 87 (22.4), both on row 64; frame 0 finds
// every point's own template.
TEST(HeartWall, TracksTheContractingWall) {
  auto w = workloads::makeWorkload("heartwall");
  isa::GlobalMemory mem;
  workloads::runOnInterpreter(*w, mem);
  ASSERT_EQ(w->verify(mem), "");
  const auto track = mem.words("track"), score = mem.words("score");
  const uint32_t points = 20, left[4] = {24, 25, 26, 27}, right[4] = {88, 88, 87, 87};
  for (uint32_t f = 0; f < 4; ++f) {
    EXPECT_EQ(track[2 * (f * points + 13)], 64u) << f;
    EXPECT_EQ(track[2 * (f * points + 13) + 1], left[f]) << f;
    EXPECT_EQ(track[2 * (f * points)], 64u) << f;
    EXPECT_EQ(track[2 * (f * points) + 1], right[f]) << f;
  }
  for (uint32_t p = 0; p < points; ++p) EXPECT_EQ(isa::F(score[p]), 1.0f) << p;
  EXPECT_EQ(isa::F(score[3 * points + 13]), 0.947421551f);
}

TEST(HeartWall, BadOptionsAreRejected) {
  EXPECT_THROW(workloads::makeWorkload("heartwall", {{"threads", 96}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeWorkload("heartwall", {{"tsize", 6}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeWorkload("heartwall", {{"width", 16}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeWorkload("heartwall", {{"nope", 1}}), std::invalid_argument);
}
