// The counters the energy layer charges (docs/statistics.md): executed warp instructions and
// active lanes per opcode class, register reads and writes per active lane group.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "model/sm/grid_runner.h"

using namespace simtlm;

namespace {

double run(stats::Registry& reg, const config::GpuConfig& c, const std::string& name) {
  // Lanes 0-4 compute under the guard (one lane group of 8), every lane does the rest.
  const std::string src = R"(.kernel lanes
.regs 4
  s2r r0, %tid.x
  setp.lt.u32 p0, r0, 5
  @p0 add.u32 r1, r0, r0
  @p0 mul.lo.u32 r2, r1, r0
  add.f32 r3, r0, r0
  exit
)";
  auto k = isa::assemble(src, "lanes.s");
  isa::LaunchConfig l;
  l.block = {32, 1, 1};
  isa::GlobalMemory mem;
  auto g = sm::runGrid(c, k, l, mem, reg, 10, 0);
  EXPECT_EQ(g.error, "");
  return reg.value("sm0." + name).value_or(-1);
}

config::GpuConfig oneSm(int laneGroup) {
  config::GpuConfig c;
  c.gpu.num_sms = 1;
  c.regfile.lane_group = laneGroup;
  return c;
}

}  // namespace

TEST(ExecCounters, ClassesAndActiveLanes) {
  stats::Registry r;
  const auto c = oneSm(8);
  run(r, c, "cycles");
  auto v = [&](const std::string& n) { return r.value("sm0." + n).value_or(-1); };
  EXPECT_EQ(v("exec.int.warp_instructions"), 1);  // the guarded add
  EXPECT_EQ(v("exec.int.lanes"), 5);
  EXPECT_EQ(v("exec.int_mul.warp_instructions"), 1);
  EXPECT_EQ(v("exec.int_mul.lanes"), 5);
  EXPECT_EQ(v("exec.fp.warp_instructions"), 1);
  EXPECT_EQ(v("exec.fp.lanes"), 32);
  EXPECT_EQ(v("exec.compare.lanes"), 32);
  EXPECT_EQ(v("exec.sfu.warp_instructions"), 0);
  // Reads: add r0 (1 reg, 1 group), mul r1,r0 (2 regs, 1 group), add.f32 r0 (1 reg, 4 groups),
  // setp r0 (1 reg, 4 groups): 1 + 2 + 4 + 4. Writes: s2r, add.f32 (4 groups each), add, mul (1).
  EXPECT_EQ(v("regfile.read_lane_groups"), 11);
  EXPECT_EQ(v("regfile.write_lane_groups"), 10);
}

TEST(ExecCounters, LaneGroupWidthChangesTheCountNotTheTiming) {
  stats::Registry a, b;
  const double cyclesA = run(a, oneSm(8), "cycles"), cyclesB = run(b, oneSm(32), "cycles");
  EXPECT_EQ(cyclesA, cyclesB);
  // One group per access with 32-lane groups: 5 registers read, 4 written.
  EXPECT_EQ(b.value("sm0.regfile.read_lane_groups").value_or(-1), 5);
  EXPECT_EQ(b.value("sm0.regfile.write_lane_groups").value_or(-1), 4);
}
