// Semantics of the opcodes of isa/opcodes.def (see tests/isa/semantics_cases.h): every
// table row through an assembled kernel on the interpreter, and immediates in f32 and
// integer context.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "isa/diagnostics.h"
#include "tests/isa/semantics_cases.h"
#include "tests/isa/test_support.h"

namespace simtlm::test {

// ---------------------------------------------------------------------------------------------
// Layer 2: every table row through an assembled kernel on the interpreter
// ---------------------------------------------------------------------------------------------

namespace {

// Kernel computing r4 = op(r1, r2, r3) per lane, with r1..r3 loaded from A, B, C[tid] and r4
// stored to D[tid]. Atomics run on M[tid] (global) or shared[tid], whose new word goes to M.
// With `immediate`, the last source is `immText` instead of a register.
std::string laneKernel(Op op, bool immediate = false, const std::string& immText = "") {
  const std::string n(isa::info(op).name);
  std::string body;
  switch (isa::info(op).format) {
    case isa::Format::Unary:
      body = n + " r4, " + (immediate ? immText : "r1") + "\n";
      break;
    case isa::Format::Binary:
      body = n + " r4, r1, " + (immediate ? immText : "r2") + "\n";
      break;
    case isa::Format::Ternary:
      body = n + " r4, r1, r2, r3\n";
      break;
    case isa::Format::Select:
      body = "setp.ne.b32 p1, r3, 0\n" + n + " r4, r1, r2, p1\n";
      break;
    case isa::Format::Special:
      body = "mov.b32 r4, r1\n";  // s2r reads special registers: see SemanticsInterp.Specials
      break;
    case isa::Format::Compare:
      body = "mov.b32 r4, 0\n" + n + " p1, r1, " + (immediate ? immText : "r2") +
             "\n@p1 mov.b32 r4, 1\n";
      break;
    case isa::Format::PredBinary:
      body = "setp.ne.b32 p1, r1, 0\nsetp.ne.b32 p2, r2, 0\n" + n +
             " p3, p1, p2\nmov.b32 r4, 0\n@p3 mov.b32 r4, 1\n";
      break;
    case isa::Format::PredUnary:
      body = "setp.ne.b32 p1, r1, 0\n" + n + " p3, p1\nmov.b32 r4, 0\n@p3 mov.b32 r4, 1\n";
      break;
    case isa::Format::Atomic:
    case isa::Format::AtomicCas: {
      std::string extra = isa::info(op).format == isa::Format::AtomicCas ? ", r3" : "";
      if (isa::info(op).cls == isa::OpClass::AtomicGlobal) {
        body = "ld.param.b32 r7, [M]\nadd.u32 r7, r7, r0\nst.global.b32 [r7], r1\n" + n +
               " r4, [r7], r2" + extra + "\n";
      } else {
        body = "st.shared.b32 [r0+0], r1\n" + n + " r4, [r0], r2" + extra +
               "\nld.shared.b32 r8, [r0]\nld.param.b32 r7, [M]\nadd.u32 r7, r7, r0\n"
               "st.global.b32 [r7], r8\n";
      }
      break;
    }
    default:
      ADD_FAILURE() << "laneKernel: no lane kernel for " << n;
  }
  return ".kernel lane\n.regs 9\n.shared 128\n.param A\n.param B\n.param C\n.param D\n.param M\n"
         "  s2r r0, %tid.x\n  shl.b32 r0, r0, 2\n"
         "  ld.param.b32 r5, [A]; add.u32 r5, r5, r0; ld.global.b32 r1, [r5]\n"
         "  ld.param.b32 r5, [B]; add.u32 r5, r5, r0; ld.global.b32 r2, [r5]\n"
         "  ld.param.b32 r5, [C]; add.u32 r5, r5, r0; ld.global.b32 r3, [r5]\n"
         "  ld.param.b32 r6, [D]; add.u32 r6, r6, r0\n" +
         body + "  st.global.b32 [r6], r4\n  exit\n";
}

// Runs `cases` (all of one op) as lanes of one block; checks D (and M for atomics).
void runLaneCases(Op op, const std::vector<Case>& cases, bool immediate) {
  const isa::OpInfo& oi = isa::info(op);
  bool atomic = oi.format == isa::Format::Atomic || oi.format == isa::Format::AtomicCas;
  if (immediate) {
    // One single-thread launch per case: the immediate is part of the code.
    for (const Case& k : cases) {
      uint32_t immValue = oi.format == isa::Format::Unary ? k.a : k.b;
      std::string text = laneKernel(op, true, hexWord(immValue));
      RunResult r = runKernel(text, {{"A", {k.a}}, {"B", {k.b}}, {"C", {k.c}}, {"D", {0}}, {"M", {0}}},
                              dim(1), dim(1));
      uint32_t got = r["D"][0];
      EXPECT_TRUE(matches(k.want, got)) << describe(k) << " (immediate " << hexWord(immValue)
                                        << "), interpreter got " << hexWord(got);
    }
    return;
  }
  for (size_t first = 0; first < cases.size(); first += 32) {
    size_t n = std::min<size_t>(32, cases.size() - first);
    std::vector<uint32_t> A(n), B(n), C(n), Z(n, 0);
    for (size_t i = 0; i < n; ++i) {
      A[i] = cases[first + i].a;
      B[i] = cases[first + i].b;
      C[i] = cases[first + i].c;
    }
    RunResult r = runKernel(laneKernel(op), {{"A", A}, {"B", B}, {"C", C}, {"D", Z}, {"M", Z}},
                            dim(1), dim(static_cast<uint32_t>(n)));
    auto D = r["D"], M = r["M"];
    for (size_t i = 0; i < n; ++i) {
      const Case& k = cases[first + i];
      if (atomic) {
        EXPECT_EQ(D[i], k.a) << describe(k) << ": the destination must receive the old word";
        EXPECT_TRUE(matches(k.want, M[i])) << describe(k) << ", memory got " << hexWord(M[i]);
      } else {
        EXPECT_TRUE(matches(k.want, D[i])) << describe(k) << ", interpreter got " << hexWord(D[i]);
      }
    }
  }
}

std::vector<std::pair<Op, std::vector<Case>>> casesByOp() {
  std::vector<std::pair<Op, std::vector<Case>>> out;
  std::vector<Case> all = allCases();
  for (int i = 0; i < isa::kNumOps; ++i) {
    Op op = static_cast<Op>(i);
    std::vector<Case> mine;
    for (const Case& k : all)
      if (k.op == op) mine.push_back(k);
    if (!mine.empty()) out.emplace_back(op, std::move(mine));
  }
  return out;
}

}  // namespace

TEST(SemanticsInterp, EveryTableRowThroughRegisters) {
  int ran = 0;
  for (auto& [op, cases] : casesByOp()) {
    if (isa::info(op).format == isa::Format::Special) continue;
    SCOPED_TRACE(std::string(isa::info(op).name));
    runLaneCases(op, cases, false);
    ++ran;
  }
  EXPECT_EQ(ran, static_cast<int>(casesByOp().size()) - 1);
  EXPECT_GT(ran, 80);
}

TEST(SemanticsInterp, EveryTableRowThroughHexImmediates) {
  int ran = 0;
  for (auto& [op, cases] : casesByOp()) {
    if (!isa::allowsImmediate(isa::info(op).format)) continue;
    SCOPED_TRACE(std::string(isa::info(op).name));
    runLaneCases(op, cases, true);
    ++ran;
  }
  EXPECT_GT(ran, 50);
}

// ---------------------------------------------------------------------------------------------
// Layer 3: hand-written kernels
// ---------------------------------------------------------------------------------------------

const char* const kFloatImmKernel = R"(
.kernel fimm
.param OUT
.const HALF 0.5
.const MINUS3 -3
  ld.param.b32 r0, [OUT]
  mov.b32 r1, 2.0              // float literal in b32 context: its bits
  add.f32 r2, r1, 1.5          // 3.5
  add.f32 r3, r1, 0x3f800000   // hex = raw bits (1.0): 3.0
  add.f32 r4, r1, 2            // decimal integer in f32 context converts: 2.0 + 2.0
  mul.f32 r5, r1, -0.25        // -0.5
  add.f32 r6, r1, inf
  add.f32 r7, r1, -inf
  mul.f32 r8, r1, nan
  mov.b32 r9, 1                // decimal in b32 context: the integer 1
  add.u32 r10, r1, 0x10        // integer add on the bits of 2.0
  add.f32 r11, r1, HALF        // .const symbol in f32 context: 2.5
  add.u32 r12, r9, MINUS3      // .const symbol in integer context: 1 - 3
  cvt.s32.f32 r13, -2.5        // unary immediate, f32 source: trunc(-2.5) = -2
  cvt.f32.s32 r14, -3          // unary immediate, s32 source: -3.0
  mov.b32 r15, 1e3             // 1000.0
  add.f32 r16, r1, 1.25e-1     // 2.125
  setp.lt.f32 p0, r1, 2.5      # compare immediate in f32 context
  mov.b32 r17, 0; @p0 mov.b32 r17, 1
  setp.gt.f32 p1, r1, 0x40000000   # 2.0 > 2.0 is false
  mov.b32 r18, 0; @p1 mov.b32 r18, 1
  add.f32 r19, r1, -0          // -0.0 in f32 context: 2.0 + -0.0
  mov.b32 r20, -0.0            // bits of -0.0
  add.f32 r21, r1, 16777217    // decimal converts with rounding: 16777216 + 2
  st.global.b32 [r0], r2;      st.global.b32 [r0+4], r3;   st.global.b32 [r0+8], r4
  st.global.b32 [r0+12], r5;   st.global.b32 [r0+16], r6;  st.global.b32 [r0+20], r7
  st.global.b32 [r0+24], r8;   st.global.b32 [r0+28], r9;  st.global.b32 [r0+32], r10
  st.global.b32 [r0+36], r11;  st.global.b32 [r0+40], r12; st.global.b32 [r0+44], r13
  st.global.b32 [r0+48], r14;  st.global.b32 [r0+52], r15; st.global.b32 [r0+56], r16
  st.global.b32 [r0+60], r17;  st.global.b32 [r0+64], r18; st.global.b32 [r0+68], r19
  st.global.b32 [r0+72], r20;  st.global.b32 [r0+76], r21
  exit
)";

TEST(SemanticsInterp, ImmediatesInFloatContext) {
  RunResult r = runKernel(kFloatImmKernel, {{"OUT", std::vector<uint32_t>(20, 0)}}, dim(1), dim(1));
  auto o = r["OUT"];
  EXPECT_EQ(o[0], f(3.5f));
  EXPECT_EQ(o[1], f(3.0f));
  EXPECT_EQ(o[2], f(4.0f));
  EXPECT_EQ(o[3], f(-0.5f));
  EXPECT_EQ(o[4], kInf);
  EXPECT_EQ(o[5], kNegInf);
  EXPECT_TRUE(std::isnan(isa::F(o[6])));
  EXPECT_EQ(o[7], 1u);
  EXPECT_EQ(o[8], 0x40000010u);
  EXPECT_EQ(o[9], f(2.5f));
  EXPECT_EQ(o[10], s(-2));
  EXPECT_EQ(o[11], s(-2));
  EXPECT_EQ(o[12], f(-3.0f));
  EXPECT_EQ(o[13], f(1000.0f));
  EXPECT_EQ(o[14], f(2.125f));
  EXPECT_EQ(o[15], 1u);
  EXPECT_EQ(o[16], 0u);
  EXPECT_EQ(o[17], f(2.0f));
  EXPECT_EQ(o[18], kNegZero);
  EXPECT_EQ(o[19], f(16777218.0f));
}

TEST(SemanticsInterp, FloatLiteralRejectedInIntegerContext) {
  EXPECT_THROW(isa::assemble(".kernel k\n add.u32 r1, r2, 1.5\n exit\n"), simtlm::InputError);
  EXPECT_THROW(isa::assemble(".kernel k\n shr.u32 r1, r2, inf\n exit\n"), simtlm::InputError);
  EXPECT_THROW(isa::assemble(".kernel k\n setp.lt.s32 p0, r2, 2.5\n exit\n"), simtlm::InputError);
  // b32 accepts float literals (their bits), like f32.
  EXPECT_EQ(isa::assemble(".kernel k\n and.b32 r1, r2, -0.0\n exit\n").instrs[0].imm, kNegZero);
}

const char* const kIntImmKernel = R"(
.kernel iimm
.param OUT
  ld.param.b32 r0, [OUT]
  mov.b32 r1, -8
  shr.s32 r2, r1, 33           // sign fill: -1
  shr.u32 r3, r1, 31           // 1
  shl.b32 r4, r1, 32           // 0
  div.s32 r5, r1, 0            // all ones
  rem.s32 r6, r1, 0            // -8
  div.u32 r7, r1, 0xffffffff   // 0xfffffff8 / 0xffffffff = 0
  mov.b32 r8, 0x80000000
  div.s32 r9, r8, -1           // INT_MIN
  rem.s32 r10, r8, -1          // 0
  mul.hi.s32 r11, r1, 3        // -24 >> 32 = -1
  mul.hi.u32 r12, r1, 3        // 0xfffffff8 * 3 >> 32 = 2
  setp.lt.s32 p0, r1, 1        // -8 < 1 signed: true
  setp.lt.u32 p1, r1, 1        // unsigned: false
  selp.b32 r13, r1, r8, p0     // -8
  selp.b32 r14, r1, r8, p1     // 0x80000000
  min.u32 r15, r1, 5           // 5
  min.s32 r16, r1, 5           // -8
  st.global.b32 [r0], r2;      st.global.b32 [r0+4], r3;   st.global.b32 [r0+8], r4
  st.global.b32 [r0+12], r5;   st.global.b32 [r0+16], r6;  st.global.b32 [r0+20], r7
  st.global.b32 [r0+24], r9;   st.global.b32 [r0+28], r10; st.global.b32 [r0+32], r11
  st.global.b32 [r0+36], r12;  st.global.b32 [r0+40], r13; st.global.b32 [r0+44], r14
  st.global.b32 [r0+48], r15;  st.global.b32 [r0+52], r16
  exit
)";

TEST(SemanticsInterp, IntegerEdgeCasesWithImmediates) {
  RunResult r = runKernel(kIntImmKernel, {{"OUT", std::vector<uint32_t>(14, 0)}}, dim(1), dim(1));
  auto o = r["OUT"];
  std::vector<uint32_t> want = {kAllOnes, 1, 0, kAllOnes, s(-8), 0, kIntMin, 0, kAllOnes, 2,
                                s(-8), kIntMin, 5, s(-8)};
  EXPECT_EQ(o, want);
}

}  // namespace simtlm::test
