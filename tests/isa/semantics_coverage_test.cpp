// Semantics of the opcodes of isa/opcodes.def (see tests/isa/semantics_cases.h): every
// opcode of the table has a test, and ops without a lane expression evaluate to 0.
#include <gtest/gtest.h>

#include <set>

#include "isa/assembler.h"
#include "tests/isa/semantics_cases.h"

namespace simtlm::test {

namespace {

bool hasLaneExpression(isa::Format fmt) {
  switch (fmt) {
    case isa::Format::Load: case isa::Format::Store: case isa::Format::Branch:
    case isa::Format::Barrier: case isa::Format::NoOperands:
      return false;
    default:
      return true;
  }
}

}  // namespace

TEST(SemanticsCoverage, EveryOpcodeIsTested) {
  // Ops with a lane expression need rows in the tables (which also run on the interpreter);
  // all others must appear in a hand-written kernel of coverageKernels().
  std::set<Op> inTables;
  for (const Case& k : allCases()) inTables.insert(k.op);
  std::set<Op> inKernels;
  for (const char* text : coverageKernels()) {
    isa::Kernel k = isa::assemble(text);
    for (const auto& in : k.instrs) inKernels.insert(in.op);
  }
  for (int i = 0; i < isa::kNumOps; ++i) {
    Op op = static_cast<Op>(i);
    const isa::OpInfo& oi = isa::info(op);
    if (hasLaneExpression(oi.format)) {
      EXPECT_TRUE(inTables.count(op)) << oi.name << " has no rows in the semantics tables";
    } else {
      EXPECT_TRUE(inKernels.count(op)) << oi.name << " appears in no interpreter test kernel";
    }
  }
  EXPECT_TRUE(inKernels.count(Op::S2R));
}

// Formats without a lane expression (memory, control) evaluate to 0.
TEST(SemanticsLane, OpsWithoutLaneExpressionGiveZero) {
  for (int i = 0; i < isa::kNumOps; ++i) {
    Op op = static_cast<Op>(i);
    switch (isa::info(op).format) {
      case isa::Format::Load: case isa::Format::Store: case isa::Format::Branch:
      case isa::Format::Barrier: case isa::Format::NoOperands:
        EXPECT_EQ(isa::evalLane(op, 1, 2, 3), 0u) << isa::info(op).name;
        break;
      default:
        break;
    }
  }
}

}  // namespace simtlm::test
