// Assembler parsing semantics: constants, parameters, labels, statements and comments,
// immediates in integer, bit and f32 context, memory operands, guards, hints and metadata.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "isa/assembler.h"
#include "isa/instruction.h"
#include "isa/kernel.h"

using namespace simtlm;

namespace {

uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// ---------------------------------------------------------------------------------------------
// Parsing semantics.

isa::Kernel asmText(const std::string& body) { return isa::assemble(".kernel t\n" + body, "t.s"); }

TEST(AssemblerSemantics, ConstSubstitution) {
  auto k = asmText(
      ".const TILE 32\n.const NEG -3\n.const HEX 0x10\n.const HALF 0.5\n"
      "add.u32 r0, r0, TILE\nadd.u32 r0, r0, NEG\nsub.u32 r0, r0, -NEG\n"
      "and.b32 r0, r0, HEX\nmul.f32 r1, r1, HALF\nmul.f32 r1, r1, -HALF\nld.shared.b32 r2, [r3+TILE]\n"
      "ld.shared.b32 r2, [r3+NEG]\nsetp.lt.s32 p0, r0, TILE\nexit\n");
  ASSERT_EQ(k.size(), 10u);
  EXPECT_TRUE(k.instrs[0].hasImm);
  EXPECT_EQ(k.instrs[0].imm, 32u);
  EXPECT_EQ(k.instrs[1].imm, static_cast<uint32_t>(-3));
  EXPECT_EQ(k.instrs[2].imm, 3u);
  EXPECT_EQ(k.instrs[3].imm, 16u);
  EXPECT_EQ(k.instrs[4].imm, floatBits(0.5f));
  EXPECT_EQ(k.instrs[5].imm, floatBits(-0.5f));
  EXPECT_EQ(k.instrs[6].off, 32);
  EXPECT_EQ(k.instrs[7].off, -3);
  EXPECT_EQ(k.instrs[8].imm, 32u);
}

TEST(AssemblerSemantics, ParamOffsets) {
  auto k = asmText(".param A\n.param B\n.param C\n.param D\n"
                   "ld.param.b32 r0, [A]\nld.param.b32 r1, [B]\nld.param.b32 r2, [D]\n"
                   "add.u32 r3, r3, C\nexit\n");
  ASSERT_EQ(k.params.size(), 4u);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(k.params[i].offset, 4 * i);
  EXPECT_EQ(k.params[2].name, "C");
  EXPECT_EQ(k.paramBytes(), 16u);
  EXPECT_FALSE(k.instrs[0].hasBase);
  EXPECT_EQ(k.instrs[0].off, 0);
  EXPECT_EQ(k.instrs[1].off, 4);
  EXPECT_EQ(k.instrs[2].off, 12);
  EXPECT_EQ(k.instrs[3].imm, 8u);
}

TEST(AssemblerSemantics, LabelsOnInstructionLines) {
  auto k = asmText("mov.b32 r0, 0\nloop: add.u32 r0, r0, 1\nsetp.lt.u32 p0, r0, 10\n"
                   "@p0 bra loop\nbra end\nalso: end: exit\n");
  ASSERT_EQ(k.size(), 6u);
  EXPECT_EQ(k.instrs[3].op, isa::Op::BRA);
  EXPECT_EQ(k.instrs[3].imm, isa::Kernel::pcOf(1));
  EXPECT_EQ(k.instrs[3].guard, 0);
  EXPECT_EQ(k.instrs[4].imm, isa::Kernel::pcOf(5));
  EXPECT_EQ(k.labels.at(isa::Kernel::pcOf(1)), "loop");
  // Two labels at one PC: the first defined names it.
  EXPECT_EQ(k.labels.at(isa::Kernel::pcOf(5)), "also");
}

TEST(AssemblerSemantics, MultipleStatementsPerLine) {
  auto k = asmText("mov.b32 r0, 1; mov.b32 r1, 2 ;mov.b32 r2, 3;\n;; exit ;\n");
  ASSERT_EQ(k.size(), 4u);
  EXPECT_EQ(k.instrs[2].imm, 3u);
  EXPECT_EQ(k.sourceLines[0], 2);
  EXPECT_EQ(k.sourceLines[2], 2);
  EXPECT_EQ(k.sourceLines[3], 3);
  EXPECT_EQ(k.instrs[3].op, isa::Op::EXIT);
}

TEST(AssemblerSemantics, Comments) {
  auto k = isa::assemble(
      "// leading comment\n# hash comment\n.kernel c // trailing\n.regs 4 # trailing hash\n"
      "  mov.b32 r0, 1 // ; mov.b32 r1, 2 is inside the comment\n"
      "  mov.b32 r1, 2 # exit\n\r\n  exit\r\n// add.u32 r0, r0, r0\n",
      "c.s");
  EXPECT_EQ(k.name, "c");
  EXPECT_EQ(k.numRegs, 4);
  ASSERT_EQ(k.size(), 3u);
  EXPECT_EQ(k.instrs[2].op, isa::Op::EXIT);
  EXPECT_EQ(k.sourceLines[2], 8);
}

TEST(AssemblerSemantics, FloatImmediates) {
  auto k = asmText("add.f32 r0, r0, 1.5\nadd.f32 r0, r0, -2.5\nmul.f32 r0, r0, 1e3\n"
                   "mul.f32 r0, r0, 2.5E-1\nmov.b32 r1, 1.0\nsetp.lt.f32 p0, r0, inf\n"
                   "min.f32 r0, r0, -inf\ncvt.s32.f32 r2, 7.75\nexit\n");
  EXPECT_EQ(k.instrs[0].imm, floatBits(1.5f));
  EXPECT_EQ(k.instrs[1].imm, floatBits(-2.5f));
  EXPECT_EQ(k.instrs[2].imm, floatBits(1000.0f));
  EXPECT_EQ(k.instrs[3].imm, floatBits(0.25f));
  EXPECT_EQ(k.instrs[4].imm, 0x3f800000u);
  EXPECT_EQ(k.instrs[5].imm, 0x7f800000u);
  EXPECT_EQ(k.instrs[6].imm, 0xff800000u);
  EXPECT_EQ(k.instrs[7].imm, floatBits(7.75f));
  auto nan = asmText("add.f32 r0, r0, nan\nexit\n");
  EXPECT_EQ(nan.instrs[0].imm & 0x7f800000u, 0x7f800000u);
  EXPECT_NE(nan.instrs[0].imm & 0x007fffffu, 0u);
}

TEST(AssemblerSemantics, DecimalIntegerInF32ContextIsConverted) {
  auto k = asmText("mul.f32 r0, r0, 2\nadd.f32 r0, r0, -1\nsetp.gt.f32 p0, r0, 0\n"
                   "fma.f32 r0, r0, r0, r0\ncvt.u32.f32 r1, 16777217\nexit\n");
  EXPECT_EQ(k.instrs[0].imm, 0x40000000u);
  EXPECT_EQ(k.instrs[1].imm, 0xbf800000u);
  EXPECT_EQ(k.instrs[2].imm, 0u);
  EXPECT_EQ(k.instrs[4].imm, floatBits(16777216.0f));  // rounded to the nearest float
  // In b32 (bit) context a decimal integer stays an integer.
  EXPECT_EQ(asmText("mov.b32 r0, 2\nexit\n").instrs[0].imm, 2u);
}

TEST(AssemblerSemantics, HexInF32ContextIsRawBits) {
  auto k = asmText("add.f32 r0, r0, 0x3f800000\nsetp.eq.f32 p0, r0, 0x7fc00000\nmov.b32 r1, 0XDEADBEEF\n"
                   "add.u32 r2, r2, 0x1e5\nexit\n");
  EXPECT_EQ(k.instrs[0].imm, 0x3f800000u);
  EXPECT_EQ(k.instrs[1].imm, 0x7fc00000u);
  EXPECT_EQ(k.instrs[2].imm, 0xdeadbeefu);
  EXPECT_EQ(k.instrs[3].imm, 0x1e5u);  // hex 'e' is a digit, not an exponent
}

TEST(AssemblerSemantics, NegativeImmediates) {
  auto k = asmText("add.u32 r0, r0, -1\nadd.u32 r0, r0, -2147483648\nmov.b32 r0, -0x10\n"
                   "setp.gt.s32 p0, r0, - 5\nadd.u32 r0, r0, 4294967295\nexit\n");
  EXPECT_EQ(k.instrs[0].imm, 0xffffffffu);
  EXPECT_EQ(k.instrs[1].imm, 0x80000000u);
  EXPECT_EQ(k.instrs[2].imm, static_cast<uint32_t>(-16));
  EXPECT_EQ(k.instrs[3].imm, static_cast<uint32_t>(-5));
  EXPECT_EQ(k.instrs[4].imm, 0xffffffffu);
}

TEST(AssemblerSemantics, MemoryOperands) {
  auto k = asmText("ld.shared.b32 r0, [64]\nld.param.b32 r1, [8]\nst.shared.b32 [16], r1\n"
                   "ld.global.b32 r2, [r3-8]\nld.global.b32 r2, [r3+0x10]\nld.global.b32 r2, [ r3 ]\n"
                   "atom.shared.add.u32 r4, [0], r5\nld.shared.b32 r0, [r1-0]\nexit\n");
  EXPECT_FALSE(k.instrs[0].hasBase);
  EXPECT_EQ(k.instrs[0].off, 64);
  EXPECT_FALSE(k.instrs[1].hasBase);
  EXPECT_EQ(k.instrs[1].off, 8);
  EXPECT_FALSE(k.instrs[2].hasBase);
  EXPECT_EQ(k.instrs[2].off, 16);
  EXPECT_EQ(k.instrs[2].b, 1);
  EXPECT_TRUE(k.instrs[3].hasBase);
  EXPECT_EQ(k.instrs[3].a, 3);
  EXPECT_EQ(k.instrs[3].off, -8);
  EXPECT_EQ(k.instrs[4].off, 16);
  EXPECT_TRUE(k.instrs[5].hasBase);
  EXPECT_EQ(k.instrs[5].off, 0);
  EXPECT_FALSE(k.instrs[6].hasBase);
  EXPECT_EQ(k.instrs[7].off, 0);
}

TEST(AssemblerSemantics, RegsInferredWhenAbsent) {
  EXPECT_EQ(asmText("mov.b32 r13, 1\nadd.u32 r2, r13, r5\nexit\n").numRegs, 14);
  EXPECT_EQ(asmText("ld.global.b32 r0, [r9+4]\nexit\n").numRegs, 10);  // the base counts
  EXPECT_EQ(asmText("st.shared.b32 [0], r20\nexit\n").numRegs, 21);
  EXPECT_EQ(asmText("mov.b32 r63, 1\nexit\n").numRegs, 64);
  EXPECT_EQ(asmText("nop\nexit\n").numRegs, 1);
  EXPECT_EQ(asmText(".regs 32\nmov.b32 r3, 1\nexit\n").numRegs, 32);  // declared wins
}

TEST(AssemblerSemantics, GuardsAndHintsEncode) {
  auto k = asmText("@!p3 add.u32 r1, r2, r3 {darsie=dr, bow=both}\n@pt exit {bow=boc}\n"
                   "bar.sync {darsie=dr}\nbar.sync 3\n");
  const auto& a = k.instrs[0];
  EXPECT_EQ(a.guard, 3);
  EXPECT_TRUE(a.guardNeg);
  EXPECT_EQ(a.darsie, isa::Redundancy::Definite);
  EXPECT_EQ(a.bow, isa::BowHint::Both);
  EXPECT_EQ(k.instrs[1].guard, isa::kPredTrue);
  EXPECT_FALSE(k.instrs[1].guardNeg);
  EXPECT_EQ(k.instrs[1].bow, isa::BowHint::Bypass);
  EXPECT_EQ(k.instrs[1].darsie, isa::Redundancy::Vector);
  EXPECT_EQ(k.instrs[2].imm, 0u);
  EXPECT_EQ(k.instrs[2].darsie, isa::Redundancy::Definite);
  EXPECT_EQ(k.instrs[3].imm, 3u);
  // The code words decode back to the same instructions.
  for (size_t i = 0; i < k.size(); ++i) {
    isa::Instr d;
    ASSERT_TRUE(isa::decode(k.code[i], d));
    EXPECT_EQ(isa::encode(d), k.code[i]);
    EXPECT_EQ(d.guard, k.instrs[i].guard);
  }
}

TEST(AssemblerSemantics, KernelMetadata) {
  auto k = isa::assemble(".kernel meta\n.regs 8\n.shared 4096\n.param X\nexit\n", "meta.s");
  EXPECT_EQ(k.name, "meta");
  EXPECT_EQ(k.sourceFile, "meta.s");
  EXPECT_EQ(k.numRegs, 8);
  EXPECT_EQ(k.sharedBytes, 4096u);
  ASSERT_EQ(k.code.size(), 1u);
  EXPECT_EQ(k.sourceLines[0], 5);
}

}  // namespace
