// Which registers an instruction reads and writes in the vector register file.
#include <gtest/gtest.h>

#include "isa/instruction.h"
#include "isa/liveness.h"
#include "isa/opcode.h"
#include "model/regfile/operands.h"

using namespace simtlm;
using namespace simtlm::regfile;

namespace {
isa::Instr make(isa::Op op, uint8_t d, uint8_t a, uint8_t b, uint8_t c) {
  isa::Instr in;
  in.op = op;
  in.d = d;
  in.a = a;
  in.b = b;
  in.c = c;
  return in;
}
}  // namespace

TEST(Operands, SourcesAndDestination) {
  isa::Instr fma = make(isa::Op::FMA_F32, 9, 21, 22, 9);
  EXPECT_EQ(sourceGprs(fma), (1ull << 21) | (1ull << 22) | (1ull << 9));
  EXPECT_EQ(destGpr(fma), 9);
  isa::Instr st = make(isa::Op::ST_GLOBAL, 0, 4, 5, 0);
  st.hasBase = true;
  EXPECT_EQ(sourceGprs(st), (1ull << 4) | (1ull << 5));
  EXPECT_FALSE(destGpr(st).has_value());
  isa::Instr addImm = make(isa::Op::ADD_U32, 1, 2, 0, 0);
  addImm.hasImm = true;
  EXPECT_EQ(sourceGprs(addImm), 1ull << 2);
}

TEST(Operands, GuardedWriteDoesNotReadItsDestination) {
  isa::Instr add = make(isa::Op::ADD_U32, 7, 2, 3, 0);
  add.guard = 1;
  EXPECT_EQ(sourceGprs(add), (1ull << 2) | (1ull << 3));
  EXPECT_EQ(destGpr(add), 7);
}

TEST(Operands, PhysicalAndDeduplicated) {
  RegisterMap m(64, 4, 4, BankMapping::Interleaved);
  ASSERT_TRUE(m.allocateBlock({0, 1}, 16));
  isa::Instr mad = make(isa::Op::MAD_LO_U32, 3, 2, 2, 5);  // r2 named twice: read once
  Sources s = physSources(m, 1, mad);
  ASSERT_EQ(s.count, 2);
  EXPECT_EQ(s.reg[0], PhysReg{18});
  EXPECT_EQ(s.reg[1], PhysReg{21});
  EXPECT_EQ(physDest(m, 1, mad), PhysReg{19});
  Sources dup{PhysReg{1}, PhysReg{1}, PhysReg{2}};
  EXPECT_EQ(dup.count, 2);
}

// The table-driven writtenRegs and accessesMemory agree with the ISA's definitions for every
// opcode, destination and guard.
TEST(Operands, WritesOfMatchesTheIsa) {
  for (int op = 0; op < isa::kNumOps; ++op) {
    for (int d = 0; d < isa::kMaxRegs; ++d) {
      for (uint8_t guard : {isa::kPredTrue, uint8_t{0}}) {
        isa::Instr in = make(static_cast<isa::Op>(op), static_cast<uint8_t>(d), 1, 2, 3);
        in.guard = guard;
        const isa::RegSet want = isa::writesOf(in), got = writtenRegs(in);
        EXPECT_EQ(got.gpr, want.gpr) << isa::info(in.op).name << " d=" << d;
        EXPECT_EQ(got.pred, want.pred) << isa::info(in.op).name << " d=" << d;
      }
    }
    const auto o = static_cast<isa::Op>(op);
    EXPECT_EQ(accessesMemory(o), isa::isMemory(isa::info(o).format));
  }
}

// The table-driven sourceGprs and destGpr agree with isa::operandReadsOf and isa::writesOf for
// every opcode, with and without an immediate and a base, registers equal or distinct, in range
// or not (255 is no register).
TEST(Operands, SourcesMatchTheIsa) {
  const uint8_t regs[] = {0, 5, 17, 63, 64, 255};
  int checked = 0;
  for (int op = 0; op < isa::kNumOps; ++op)
    for (int flags = 0; flags < 4; ++flags)
      for (uint8_t a : regs)
        for (uint8_t b : regs)
          for (uint8_t c : {uint8_t{5}, uint8_t{40}, uint8_t{64}}) {
            isa::Instr in = make(static_cast<isa::Op>(op), b, a, b, c);
            in.hasImm = flags & 1;
            in.hasBase = flags & 2;
            ASSERT_EQ(sourceGprs(in), isa::operandReadsOf(in).gpr)
                << isa::info(in.op).name << " a=" << int{a} << " b=" << int{b} << " c=" << int{c} << " flags=" << flags;
            const uint64_t w = isa::writesOf(in).gpr;
            ASSERT_EQ(destGpr(in).has_value(), w != 0) << isa::info(in.op).name;
            if (w) {
              ASSERT_EQ(uint64_t{1} << *destGpr(in), w);
            }
            ++checked;
          }
  EXPECT_EQ(checked, isa::kNumOps * 4 * 6 * 6 * 3);
}
