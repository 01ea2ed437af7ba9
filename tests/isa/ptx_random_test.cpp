// The PTX front end checked against an evaluator that does not go through it: random PTX
// modules (tests/ptx/random_ptx.h) are parsed, translated (isa/ptx/ptx_translate.h) and run by
// the interpreter, and the same modules run on the reference PTX evaluator
// (tests/ptx/ptx_reference.h), which works on PTX's own registers with PTX's semantics; the
// output buffers must be bit-identical. Hand-written kernels then pin edge semantics (shift
// clamping, signed high products, division rounding, saturating conversions, NaN handling of
// min and of unordered compares, bit fields) to specific values through both paths.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "isa/interpreter.h"
#include "isa/memory.h"
#include "isa/ptx/ptx_module.h"
#include "isa/ptx/ptx_translate.h"
#include "tests/ptx/ptx_reference.h"
#include "tests/ptx/random_ptx.h"

namespace simtlm::test {
namespace {

using Words = std::vector<uint32_t>;

std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

// Allocates out, inA, inB in `mem` (always in this order, so both memories get the same
// addresses) and returns the launch.
isa::LaunchConfig prepare(isa::GlobalMemory& mem, const RandomPtxInputs& in) {
  const uint32_t threads = static_cast<uint32_t>(in.grid.count() * in.block.count());
  const uint32_t out = mem.allocate("out", threads * kPtxOutWordsPerThread * 4);
  const uint32_t a = mem.allocate("inA", kPtxInputWords * 4);
  const uint32_t b = mem.allocate("inB", kPtxInputWords * 4);
  mem.setWords("inA", in.inA);
  mem.setWords("inB", in.inB);
  isa::LaunchConfig l;
  l.grid = in.grid;
  l.block = in.block;
  l.warpSize = 32;
  l.params = {out, a, b, in.scalar, in.fscalar};
  l.maxWarpInstructions = 50'000'000;
  return l;
}

// Runs the module `text` on the inputs of `seed`; "" when the interpreter's and the reference's
// outputs agree, else what differs.
std::string checkModule(const std::string& text, uint64_t seed) {
  const std::string file = "rand_" + std::to_string(seed) + ".ptx";
  isa::ptx::Module m;
  isa::Kernel k;
  try {
    m = isa::ptx::parseModule(text, file);
    k = isa::ptx::translate(m, "rand_kernel");
  } catch (const std::exception& e) {
    return std::string("parse/translate failed: ") + e.what();
  }
  const RandomPtxInputs in = randomPtxInputs(seed);
  isa::GlobalMemory memI, memR;
  const isa::LaunchConfig launchI = prepare(memI, in), launchR = prepare(memR, in);
  try {
    isa::Interpreter(k, memI).run(launchI);
  } catch (const std::exception& e) {
    return std::string("interpreter failed: ") + e.what();
  }
  try {
    runPtxReference(m, "rand_kernel", launchR, memR);
  } catch (const std::exception& e) {
    return std::string("reference failed: ") + e.what();
  }
  const Words wi = memI.words("out"), wr = memR.words("out");
  if (wi == wr) return "";
  std::ostringstream os;
  int shown = 0, total = 0;
  for (size_t i = 0; i < wi.size(); ++i)
    if (wi[i] != wr[i]) {
      ++total;
      if (shown++ < 8)
        os << "\n  thread " << i / kPtxOutWordsPerThread << " word " << i % kPtxOutWordsPerThread << ": translated " << hex32(wi[i])
           << ", reference " << hex32(wr[i]);
    }
  return "outputs differ in " + std::to_string(total) + " words:" + os.str();
}

std::string checkSeed(uint64_t seed, std::string* moduleText) {
  *moduleText = randomPtxModule(seed);
  return checkModule(*moduleText, seed);
}

// Seeds 1..300 in six tests of 50 (each its own process under ctest), every failing seed
// reported with what differs and its module text.
class PtxRandom : public ::testing::TestWithParam<int> {};

TEST_P(PtxRandom, TranslatedKernelMatchesReference) {
  const uint64_t first = static_cast<uint64_t>(GetParam()) * 50 + 1;
  std::vector<uint64_t> failing;
  for (uint64_t seed = first; seed < first + 50; ++seed) {
    std::string text;
    const std::string diff = checkSeed(seed, &text);
    if (diff.empty()) continue;
    failing.push_back(seed);
    ADD_FAILURE() << "seed " << seed << ": " << diff << "\n--- module (randomPtxModule(" << seed << ")) ---\n" << text;
  }
  if (!failing.empty()) {
    std::ostringstream os;
    for (uint64_t s : failing) os << ' ' << s;
    ADD_FAILURE() << failing.size() << " of 50 seeds differ:" << os.str();
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, PtxRandom, ::testing::Range(0, 6),
                         [](const ::testing::TestParamInfo<int>& i) {
                           return "seeds_" + std::to_string(i.param * 50 + 1) + "_" + std::to_string(i.param * 50 + 50);
                         });

// Checks of the test itself: a seed gives one module, and the modules leave most of what
// they compute where the comparison sees it (the checksum, word 0 of each thread, is written
// by the threads that reach the final stores; it starts at the thread's index and is
// practically never 0 after).
TEST(PtxRandomGenerator, DeterministicAndMostThreadsReachTheFinalStores) {
  EXPECT_EQ(randomPtxModule(7), randomPtxModule(7));
  EXPECT_NE(randomPtxModule(7), randomPtxModule(8));
  uint64_t threads = 0, finished = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const isa::ptx::Module m = isa::ptx::parseModule(randomPtxModule(seed), "rand.ptx");
    const RandomPtxInputs in = randomPtxInputs(seed);
    isa::GlobalMemory mem;
    runPtxReference(m, "rand_kernel", prepare(mem, in), mem);
    const Words out = mem.words("out");
    for (size_t t = 0; t < out.size() / kPtxOutWordsPerThread; ++t, ++threads) finished += out[t * kPtxOutWordsPerThread] != 0;
  }
  EXPECT_GE(finished * 10, threads * 8) << finished << " of " << threads << " threads reached the final stores";
}

// The reference refuses what it does not model instead of running it wrongly.
TEST(PtxReference, RefusesBarriersSharedMemoryAndAtomics) {
  const std::string head =
      ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 k_param_0)\n{\n"
      "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t.shared .align 4 .b8 sh[64];\n\tld.param.u64 %rd1, [k_param_0];\n";
  for (const char* stmt : {"bar.sync 0;", "ld.shared.u32 %r1, [sh];", "atom.global.add.u32 %r1, [%rd1], 1;",
                           "add.sat.s32 %r1, %r1, 1;", "div.approx.f32 %r1, %r1, %r2;"}) {
    const isa::ptx::Module m = isa::ptx::parseModule(head + "\t" + stmt + "\n\tret;\n}\n", "k.ptx");
    isa::GlobalMemory mem;
    isa::LaunchConfig l;
    l.params = {mem.allocate("out", 64)};
    EXPECT_THROW(runPtxReference(m, "k", l, mem), std::runtime_error) << stmt;
  }
}

// ---------------------------------------------------------------------------------------------
// Edge semantics, through the translator and the reference, against specific values
// ---------------------------------------------------------------------------------------------

struct Both {
  Words translated, reference;
};

// A kernel (out, in) whose body is `body`: %rd1 is the output, %rd2 the input buffer (both
// global addresses). One block of one thread; the output has `outWords` words. With
// `constWords`, the module declares `.const .align 4 .b8 cdata[...]` holding them (its address
// is the launch's hidden parameter).
Both runBoth(const std::string& body, const Words& in, uint32_t outWords, const Words& constWords = {}) {
  const std::string constDecl =
      constWords.empty() ? "" : ".const .align 4 .b8 cdata[" + std::to_string(4 * constWords.size()) + "];\n";
  const std::string text = std::string(".version 9.0\n.target sm_75\n.address_size 64\n") + constDecl +
                           std::string(
                               ".visible .entry edge(.param .u64 edge_param_0, .param .u64 edge_param_1)\n{\n"
                               "\t.reg .pred %p<20>;\n\t.reg .b32 %r<64>;\n\t.reg .f32 %f<32>;\n\t.reg .b64 %rd<16>;\n"
                               "\tld.param.u64 %rd3, [edge_param_0];\n\tcvta.to.global.u64 %rd1, %rd3;\n"
                               "\tld.param.u64 %rd4, [edge_param_1];\n\tcvta.to.global.u64 %rd2, %rd4;\n") +
                           body + "\n\tret;\n}\n";
  Both out;
  const isa::ptx::Module m = isa::ptx::parseModule(text, "edge.ptx");
  const isa::Kernel k = isa::ptx::translate(m, "edge");
  for (int side = 0; side < 2; ++side) {
    isa::GlobalMemory mem;
    const uint32_t o = mem.allocate("out", outWords * 4);
    const uint32_t i = mem.allocate("in", static_cast<uint32_t>(std::max<size_t>(in.size(), 1) * 4));
    mem.setWords("in", in);
    isa::LaunchConfig l;
    l.params = {o, i};
    if (!constWords.empty()) {
      l.params.push_back(mem.allocate("cdata", static_cast<uint32_t>(4 * constWords.size())));
      mem.setWords("cdata", constWords);
    }
    if (side == 0) isa::Interpreter(k, mem).run(l);
    else runPtxReference(m, "edge", l, mem);
    (side == 0 ? out.translated : out.reference) = mem.words("out");
  }
  return out;
}

// Expects both paths to give `expected` (words named by `names` in messages).
void expectBoth(const Both& b, const Words& expected, const std::vector<std::string>& names) {
  ASSERT_EQ(b.translated.size(), expected.size());
  ASSERT_EQ(b.reference.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const std::string n = i < names.size() ? names[i] : "word " + std::to_string(i);
    EXPECT_EQ(hex32(b.reference[i]), hex32(expected[i])) << "reference: " << n;
    EXPECT_EQ(hex32(b.translated[i]), hex32(expected[i])) << "translated: " << n;
  }
}

// `ld.global.u32 %rN, [%rd2+4*(N-1)]` for N = 1..n: the inputs in %r1..%rn.
std::string loadInputs(int n, const char* reg = "%r", const char* type = "u32") {
  std::string s;
  for (int k = 1; k <= n; ++k) s += "\tld.global." + std::string(type) + " " + reg + std::to_string(k) + ", [%rd2+" + std::to_string(4 * (k - 1)) + "];\n";
  return s;
}
// `st.global.u32 [%rd1+4*i], REG` for each register in order.
std::string storeAll(const std::vector<std::string>& regs) {
  std::string s;
  for (size_t i = 0; i < regs.size(); ++i) s += "\tst.global.u32 [%rd1+" + std::to_string(4 * i) + "], " + regs[i] + ";\n";
  return s;
}

TEST(PtxEdgeSemantics, ShiftsClampAtTheWidth) {
  // in: a = 0x80000001, 32, 40, 31, b = 0x70000000
  const std::string body = loadInputs(5) +
                           "\tshl.b32 %r10, %r1, %r2;\n\tshl.b32 %r11, %r1, %r3;\n"
                           "\tshr.u32 %r12, %r1, %r2;\n\tshr.u32 %r13, %r1, %r3;\n"
                           "\tshr.s32 %r14, %r1, %r2;\n\tshr.s32 %r15, %r1, %r3;\n"
                           "\tshr.s32 %r16, %r5, %r3;\n\tshr.u32 %r17, %r1, %r4;\n"
                           "\tshl.b32 %r18, %r1, 32;\n\tshr.s32 %r19, %r1, 40;\n\tshr.u32 %r20, %r1, 40;\n" +
                           storeAll({"%r10", "%r11", "%r12", "%r13", "%r14", "%r15", "%r16", "%r17", "%r18", "%r19", "%r20"});
  expectBoth(runBoth(body, {0x80000001u, 32, 40, 31, 0x70000000u}, 11),
             {0, 0, 0, 0, 0xffffffffu, 0xffffffffu, 0, 1, 0, 0xffffffffu, 0},
             {"shl 32", "shl 40", "shr.u 32", "shr.u 40", "shr.s 32", "shr.s 40", "shr.s positive 40", "shr.u 31", "shl imm 32",
              "shr.s imm 40", "shr.u imm 40"});
}

TEST(PtxEdgeSemantics, MulHiAndWideOfNegatives) {
  // in: -3, -5, 5, INT_MIN, 0xffffffff, -1, 2
  const std::string body = loadInputs(7) +
                           "\tmul.hi.s32 %r10, %r1, %r2;\n\tmul.hi.s32 %r11, %r1, %r3;\n\tmul.hi.s32 %r12, %r4, %r4;\n"
                           "\tmul.hi.u32 %r13, %r5, %r5;\n\tmul.hi.u32 %r14, %r1, %r3;\n"
                           "\tmul.wide.s32 %rd5, %r6, %r7;\n\tcvt.u32.u64 %r15, %rd5;\n"
                           "\tmul.lo.s32 %r16, %r1, %r2;\n" +
                           storeAll({"%r10", "%r11", "%r12", "%r13", "%r14", "%r15", "%r16"});
  expectBoth(runBoth(body, {0xfffffffdu, 0xfffffffbu, 5, 0x80000000u, 0xffffffffu, 0xffffffffu, 2}, 7),
             {0, 0xffffffffu, 0x40000000u, 0xfffffffeu, 4, 0xfffffffeu, 15},
             {"mul.hi.s32 -3*-5", "mul.hi.s32 -3*5", "mul.hi.s32 INT_MIN^2", "mul.hi.u32 max^2", "mul.hi.u32 0xfffffffd*5",
              "mul.wide.s32 -1*2 (low)", "mul.lo -3*-5"});
}

TEST(PtxEdgeSemantics, DivisionTruncatesTowardZero) {
  // in: -7, 2, 7, -2
  const std::string body = loadInputs(4) +
                           "\tdiv.s32 %r10, %r1, %r2;\n\trem.s32 %r11, %r1, %r2;\n\tdiv.s32 %r12, %r3, %r4;\n"
                           "\trem.s32 %r13, %r3, %r4;\n\tdiv.u32 %r14, %r1, %r2;\n\trem.u32 %r15, %r1, %r2;\n"
                           "\tdiv.s32 %r16, %r1, -2;\n\trem.s32 %r17, %r1, 2;\n" +
                           storeAll({"%r10", "%r11", "%r12", "%r13", "%r14", "%r15", "%r16", "%r17"});
  expectBoth(runBoth(body, {0xfffffff9u, 2, 7, 0xfffffffeu}, 8),
             {0xfffffffdu, 0xffffffffu, 0xfffffffdu, 1, 0x7ffffffcu, 1, 3, 0xffffffffu},
             {"div.s32 -7/2", "rem.s32 -7%2", "div.s32 7/-2", "rem.s32 7%-2", "div.u32", "rem.u32", "div.s32 -7/-2 imm",
              "rem.s32 -7%2 imm"});
}

TEST(PtxEdgeSemantics, FloatToIntConversionsSaturate) {
  // in: NaN, 1e10, -1e10, -2.5, 2.5, 3.5, -0.0, 0.5
  const std::string body = loadInputs(8, "%f", "f32") +
                           "\tcvt.rzi.s32.f32 %r10, %f1;\n\tcvt.rzi.s32.f32 %r11, %f2;\n\tcvt.rzi.s32.f32 %r12, %f3;\n"
                           "\tcvt.rzi.s32.f32 %r13, %f4;\n\tcvt.rni.s32.f32 %r14, %f5;\n\tcvt.rni.s32.f32 %r15, %f6;\n"
                           "\tcvt.rmi.s32.f32 %r16, %f4;\n\tcvt.rzi.u32.f32 %r17, %f4;\n\tcvt.rzi.u32.f32 %r18, %f2;\n"
                           "\tcvt.rzi.u32.f32 %r19, %f1;\n"
                           "\tcvt.rmi.f32.f32 %f10, %f4;\n\tcvt.rmi.f32.f32 %f11, %f7;\n\tcvt.rmi.f32.f32 %f12, %f8;\n"
                           "\tcvt.rmi.f32.f32 %f13, %f1;\n\tcvt.rn.f32.s32 %f14, %r13;\n"
                           "\tmov.b32 %r20, %f10;\n\tmov.b32 %r21, %f11;\n\tmov.b32 %r22, %f12;\n\tmov.b32 %r23, %f13;\n"
                           "\tmov.b32 %r24, %f14;\n" +
                           storeAll({"%r10", "%r11", "%r12", "%r13", "%r14", "%r15", "%r16", "%r17", "%r18", "%r19", "%r20",
                                     "%r21", "%r22", "%r23", "%r24"});
  expectBoth(runBoth(body, {0x7fc00000u, 0x501502F9u, 0xD01502F9u, 0xC0200000u, 0x40200000u, 0x40600000u, 0x80000000u, 0x3F000000u},
                     15),
             {0, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 2, 4, 0xfffffffdu, 0, 0xffffffffu, 0, 0xC0400000u, 0x80000000u, 0,
              0x7fffffffu, 0xC0000000u},
             {"rzi NaN", "rzi 1e10", "rzi -1e10", "rzi -2.5", "rni 2.5", "rni 3.5", "rmi -2.5", "rzi.u32 -2.5", "rzi.u32 1e10",
              "rzi.u32 NaN", "rmi.f32 -2.5", "rmi.f32 -0", "rmi.f32 0.5", "rmi.f32 NaN", "cvt.rn.f32.s32 -2"});
}

TEST(PtxEdgeSemantics, MinMaxF32AndNaN) {
  // in: NaN, 1.0, -0.0, +0.0, -1.0, NaN (another payload)
  const std::string body = loadInputs(6, "%f", "f32") +
                           "\tmin.f32 %f10, %f1, %f2;\n\tmin.f32 %f11, %f2, %f1;\n\tmin.f32 %f12, %f1, %f6;\n"
                           "\tmin.f32 %f13, %f3, %f4;\n\tmin.f32 %f14, %f4, %f3;\n\tmax.f32 %f15, %f3, %f4;\n"
                           "\tmax.f32 %f16, %f1, %f5;\n\tadd.f32 %f17, %f1, %f2;\n\tmin.f32 %f18, %f2, 0f7FC00000;\n" +
                           [] {
                             std::string s;
                             for (int i = 10; i <= 18; ++i) s += "\tmov.b32 %r" + std::to_string(i) + ", %f" + std::to_string(i) + ";\n";
                             return s;
                           }() +
                           storeAll({"%r10", "%r11", "%r12", "%r13", "%r14", "%r15", "%r16", "%r17", "%r18"});
  expectBoth(runBoth(body, {0x7fc00000u, 0x3F800000u, 0x80000000u, 0, 0xBF800000u, 0xffc00001u}, 9),
             {0x3F800000u, 0x3F800000u, 0x7fffffffu, 0x80000000u, 0x80000000u, 0, 0xBF800000u, 0x7fffffffu, 0x3F800000u},
             {"min(NaN,1)", "min(1,NaN)", "min(NaN,NaN)", "min(-0,+0)", "min(+0,-0)", "max(-0,+0)", "max(NaN,-1)", "NaN+1",
              "min(1,NaN imm)"});
}

TEST(PtxEdgeSemantics, UnorderedComparesWithNaN) {
  // in: NaN, 1.0, 2.0
  std::string body = loadInputs(3, "%f", "f32");
  const char* kCmp[] = {"ltu", "geu", "num", "nan", "lt", "ne", "neu", "equ"};
  std::vector<std::string> regs;
  int k = 0, reg = 10;
  for (const char* c : kCmp) {
    for (const char* args : {"%f1, %f2", "%f2, %f3"}) {
      body += "\tsetp." + std::string(c) + ".f32 %p" + std::to_string(k + 1) + ", " + args + ";\n";
      body += "\tselp.u32 %r" + std::to_string(reg) + ", 1, 0, %p" + std::to_string(k + 1) + ";\n";
      regs.push_back("%r" + std::to_string(reg++));
      ++k;
    }
  }
  body += storeAll(regs);
  // (NaN, 1) then (1, 2) for ltu, geu, num, nan, lt, ne, neu, equ
  expectBoth(runBoth(body, {0x7fc00000u, 0x3F800000u, 0x40000000u}, 16), {1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 1, 1, 0},
             {"ltu NaN", "ltu 1<2", "geu NaN", "geu 1>=2", "num NaN", "num", "nan NaN", "nan", "lt NaN", "lt 1<2", "ne NaN", "ne 1,2",
              "neu NaN", "neu 1,2", "equ NaN", "equ 1,2"});
}

TEST(PtxEdgeSemantics, BitFieldsAndCounts) {
  // in: 0x0000F000, 0x80000000, 0xABCD1234, 0xF, 0xFFFF0000, 0, 1, 0x12345678, 0xffffffff, 0xF0F0, 12, 4,
  // 260 (a position register beyond 255: its low byte, 4, counts; an immediate must be <= 255)
  const std::string body = loadInputs(13) +
                           "\tbfe.s32 %r20, %r1, 12, 4;\n\tbfe.u32 %r21, %r1, 12, 4;\n\tbfe.s32 %r22, %r2, 31, 8;\n"
                           "\tbfe.u32 %r23, %r3, 8, 0;\n\tbfe.s32 %r24, %r3, 8, 0;\n\tbfe.u32 %r25, %r3, %r13, 8;\n"
                           "\tbfe.s32 %r26, %r1, %r11, %r12;\n\tbfe.s32 %r27, %r3, 40, 8;\n"
                           "\tbfi.b32 %r28, %r4, %r5, 4, 8;\n\tbfi.b32 %r29, %r4, %r6, 28, 8;\n\tbfi.b32 %r30, %r4, %r5, 4, 0;\n"
                           "\tbfi.b32 %r31, %r4, %r6, %r12, %r11;\n"
                           "\tbrev.b32 %r32, %r7;\n\tbrev.b32 %r33, %r8;\n\tclz.b32 %r34, %r6;\n\tclz.b32 %r35, %r7;\n"
                           "\tclz.b32 %r36, %r2;\n\tpopc.b32 %r37, %r9;\n\tpopc.b32 %r38, %r6;\n\tpopc.b32 %r39, %r10;\n" +
                           storeAll({"%r20", "%r21", "%r22", "%r23", "%r24", "%r25", "%r26", "%r27", "%r28", "%r29", "%r30", "%r31",
                                     "%r32", "%r33", "%r34", "%r35", "%r36", "%r37", "%r38", "%r39"});
  expectBoth(runBoth(body, {0x0000F000u, 0x80000000u, 0xABCD1234u, 0xF, 0xFFFF0000u, 0, 1, 0x12345678u, 0xffffffffu, 0xF0F0, 12, 4, 260},
                     20),
             {0xffffffffu, 0xF, 0xffffffffu, 0, 0, 0x23, 0xffffffffu, 0xffffffffu, 0xFFFF00F0u, 0xF0000000u, 0xFFFF0000u, 0xF0,
              0x80000000u, 0x1E6A2C48u, 32, 31, 0, 32, 0, 8},
             {"bfe.s32 0xF000,12,4", "bfe.u32 0xF000,12,4", "bfe.s32 past msb", "bfe.u32 len 0", "bfe.s32 len 0",
              "bfe.u32 pos reg 260", "bfe.s32 reg field", "bfe.s32 pos 40", "bfi 4,8", "bfi 28,8 (clipped)", "bfi len 0",
              "bfi reg field", "brev 1", "brev 0x12345678", "clz 0", "clz 1", "clz 0x80000000", "popc ~0", "popc 0",
              "popc 0xF0F0"});
}

TEST(PtxEdgeSemantics, SelpAbsNeg) {
  // in: 5, 9, INT_MIN, -4
  const std::string body = loadInputs(4) +
                           "\tsetp.lt.s32 %p1, %r1, %r2;\n\tsetp.gt.s32 %p2, %r1, %r2;\n"
                           "\tselp.b32 %r10, %r1, %r2, %p1;\n\tselp.b32 %r11, %r1, %r2, %p2;\n\tselp.s32 %r12, 7, -7, %p2;\n"
                           "\tabs.s32 %r13, %r3;\n\tneg.s32 %r14, %r3;\n\tabs.s32 %r15, %r4;\n\tneg.s32 %r16, %r4;\n"
                           "\tselp.b32 %r17, %r1, %r2, !%p1;\n" +
                           storeAll({"%r10", "%r11", "%r12", "%r13", "%r14", "%r15", "%r16", "%r17"});
  expectBoth(runBoth(body, {5, 9, 0x80000000u, 0xfffffffcu}, 8), {5, 9, 0xfffffff9u, 0x80000000u, 0x80000000u, 4, 4, 9},
             {"selp true", "selp false", "selp imm false", "abs INT_MIN", "neg INT_MIN", "abs -4", "neg -4", "selp !p"});
}

// A module's __constant__ data: the address of a .const symbol is a hidden parameter after the
// declared ones, read by name or through a register.
TEST(PtxEdgeSemantics, ConstSymbols) {
  const std::string body =
      "\tld.const.u32 %r1, [cdata+4];\n\tmov.u64 %rd5, cdata;\n\tld.const.u32 %r2, [%rd5+8];\n" + storeAll({"%r1", "%r2"});
  expectBoth(runBoth(body, {0}, 2, {10, 20, 30, 40}), {20, 30}, {"[cdata+4]", "[%rd+8]"});
}

// setp with a second destination and a boolean combination: p = (a < b) OP c, q = !(a < b) OP c,
// where c is read before either is written, also when c is p itself.
TEST(PtxEdgeSemantics, SetpTwoDestinationsReadCBeforeWriting) {
  // in: 1, 2 (1 < 2 is true), 3, 2 (3 < 2 is false)
  const std::string body = loadInputs(4) +
                           // c = true, compare false: p = false & true = false, q = true & true = true
                           "\tsetp.eq.s32 %p1, %r1, %r1;\n\tsetp.lt.and.s32 %p2|%p3, %r3, %r4, %p1;\n"
                           // the same with c being p itself
                           "\tsetp.eq.s32 %p4, %r1, %r1;\n\tsetp.lt.and.s32 %p4|%p5, %r3, %r4, %p4;\n"
                           // .or with c = p, compare true, c false: p = true, q = false | false = false
                           "\tsetp.ne.s32 %p6, %r1, %r1;\n\tsetp.lt.or.s32 %p6|%p7, %r1, %r2, %p6;\n"
                           "\tselp.u32 %r10, 1, 0, %p2;\n\tselp.u32 %r11, 1, 0, %p3;\n\tselp.u32 %r12, 1, 0, %p4;\n"
                           "\tselp.u32 %r13, 1, 0, %p5;\n\tselp.u32 %r14, 1, 0, %p6;\n\tselp.u32 %r15, 1, 0, %p7;\n" +
                           storeAll({"%r10", "%r11", "%r12", "%r13", "%r14", "%r15"});
  expectBoth(runBoth(body, {1, 2, 3, 2}, 6), {0, 1, 0, 1, 1, 0}, {"p", "q", "p (c = p)", "q (c = p)", "p .or (c = p)", "q .or (c = p)"});
}

// Valid PTX whose predicate pressure is low, which the translation must accept. simtlm has 7
// predicate registers and does not spill them, so its allocation must not overstate how many
// are live.

// The temporaries of a guarded setp that lowers to several instructions (here: !c, the
// compare, its negation) are written under the guard; they must not count as live from the
// kernel's start. At most 5 predicates are ever live here.
TEST(PtxTranslatorLimits, GuardedSetpTemporariesAreNotLiveFromTheStart) {
  // in: 1.0, 2.0. p1 = true, p2 = false; each guarded setp makes p2 = (1 >= 2 unordered) | !p2 = !p2.
  const std::string body = loadInputs(2, "%f", "f32") +
                           "\tsetp.lt.f32 %p1, %f1, %f2;\n\tsetp.gt.f32 %p2, %f1, %f2;\n"
                           "\t@%p1 setp.geu.or.f32 %p2, %f1, %f2, !%p2;\n"
                           "\t@%p1 setp.geu.or.f32 %p2, %f1, %f2, !%p2;\n"
                           "\t@%p1 setp.geu.or.f32 %p2, %f1, %f2, !%p2;\n"
                           "\tselp.u32 %r10, 1, 0, %p2;\n" +
                           storeAll({"%r10"});
  expectBoth(runBoth(body, {0x3F800000u, 0x40000000u}, 1), {1}, {"p2 after three negations"});
}

// Eight predicate names, each defined and used twice in a row (one live at a time): a live
// range is the span from first to last use, so the eight spans overlap.
TEST(PtxTranslatorLimits, ReusedPredicateNamesWithOneLiveAtATime) {
  std::string body = loadInputs(1) + "\tmov.u32 %r2, 0;\n";
  for (int round = 0; round < 2; ++round)
    for (int i = 1; i <= 8; ++i)
      body += "\tsetp.eq.s32 %p" + std::to_string(i) + ", %r1, " + std::to_string(i + 8 * round) + ";\n\t@%p" +
              std::to_string(i) + " add.s32 %r2, %r2, " + std::to_string(i) + ";\n";
  body += storeAll({"%r2"});
  expectBoth(runBoth(body, {5}, 1), {5}, {"sum"});
}

}  // namespace
}  // namespace simtlm::test
