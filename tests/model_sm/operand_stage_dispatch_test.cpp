// The operand stage's dispatch order: oldest first, or round-robin over the warps when a
// mechanism asks for it (MechanismResources::dispatchRoundRobin, BOW's one collector per warp).
#include <gtest/gtest.h>

#include <vector>

#include "isa/instruction.h"
#include "model/common/config.h"
#include "model/sm/operand_stage.h"

using namespace simtlm;

namespace {

isa::Instr movImm(uint8_t d) {  // no register source: dispatchable from its accept cycle + 2
  isa::Instr in;
  in.op = isa::Op::MOV_B32;
  in.d = d;
  in.hasImm = true;
  return in;
}

// Warps 2, 0, 3, 1 each put one instruction into a collector in cycle 0; then one instruction
// leaves per cycle (one unit instance). Returns the warps in the order they left.
std::vector<int> order(bool roundRobin, int perWarp = 1) {
  config::GpuConfig cfg;
  sm::MechanismResources res;
  res.dispatchRoundRobin = roundRobin;
  sm::OperandStage ops(cfg, res);
  ops.allocate({0, 1, 2, 3}, 8);
  for (int i = 0; i < perWarp; ++i)
    for (int slot : {2, 0, 3, 1}) ops.accept(slot, movImm(static_cast<uint8_t>(i + 1)), ~0u, 0, 0);
  std::vector<int> out;
  for (uint64_t cycle = 1; cycle < 40 && static_cast<int>(out.size()) < 4 * perWarp; ++cycle) {
    int taken = 0;
    ops.dispatch(cycle, [&](isa::Unit, const sm::CollectedInstr&) { return taken == 0; },
                 [&](const sm::CollectedInstr& c) {
                   ++taken;
                   out.push_back(c.slot);
                 });
    if (!ops.idle()) ops.tick(cycle);
  }
  return out;
}

}  // namespace

TEST(OperandStageDispatch, OldestFirstByDefault) { EXPECT_EQ(order(false), (std::vector<int>{2, 0, 3, 1})); }

TEST(OperandStageDispatch, RoundRobinOverWarpsStartsAfterTheLastDispatched) {
  // Warp 0 first (nothing dispatched yet), then each next warp in turn, whatever their age.
  EXPECT_EQ(order(true), (std::vector<int>{0, 1, 2, 3}));
  // Two instructions per warp: the turn goes round the warps twice, each warp's in issue order.
  EXPECT_EQ(order(true, 2), (std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3}));
  EXPECT_EQ(order(false, 2), (std::vector<int>{2, 0, 3, 1, 2, 0, 3, 1}));
}
