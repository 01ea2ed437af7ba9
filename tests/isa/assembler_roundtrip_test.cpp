// Assembler and disassembler round trips (workload kernels, every format, every opcode, random
// instructions), and robustness against mutated input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "isa/assembler.h"
#include "isa/diagnostics.h"
#include "isa/disassembler.h"
#include "isa/kernel.h"
#include "tests/isa/test_support.h"

using namespace simtlm;
using simtlm::test::filesWithExtension;
using simtlm::test::kernelDir;
using simtlm::test::readFile;

namespace {

// ---------------------------------------------------------------------------------------------
// Round trips: assemble -> disassemble -> assemble gives the same words, and disassembling
// again gives the same text.

void expectRoundTrip(const isa::Kernel& k1, const std::string& what) {
  SCOPED_TRACE(what);
  std::string t1 = isa::disassemble(k1);
  isa::Kernel k2;
  try {
    k2 = isa::assemble(t1, what + " (disassembled)");
  } catch (const InputError& e) {
    FAIL() << "disassembly does not assemble: " << e.what() << "\n" << t1;
  }
  EXPECT_EQ(k1.code, k2.code) << t1;
  EXPECT_EQ(k1.name, k2.name);
  EXPECT_EQ(k1.numRegs, k2.numRegs);
  EXPECT_EQ(k1.sharedBytes, k2.sharedBytes);
  EXPECT_EQ(k1.localBytes, k2.localBytes);
  ASSERT_EQ(k1.params.size(), k2.params.size());
  for (size_t i = 0; i < k1.params.size(); ++i) {
    EXPECT_EQ(k1.params[i].name, k2.params[i].name);
    EXPECT_EQ(k1.params[i].offset, k2.params[i].offset);
  }
  EXPECT_EQ(t1, isa::disassemble(k2));
}

TEST(AssemblerRoundTrip, WorkloadKernels) {
  auto files = filesWithExtension(kernelDir(), ".s");
  ASSERT_GE(files.size(), 3u) << kernelDir();
  for (const auto& f : files) expectRoundTrip(isa::assembleFile(f.string()), f.string());
}

// A label the source names like one the disassembler makes up (L_ and four hex digits), while
// another branch target has no label (a binary may keep only some labels): the made-up name
// must not collide (a fuzzer found "label 'L_0000' is already defined").
TEST(AssemblerRoundTrip, MadeUpLabelsAvoidTheKernelsOwnNames) {
  isa::Kernel k = isa::assemble(R"(.kernel collide
.regs 2
top:
  add.u32 r0, r0, 1
L_0000:
  bra top
  bra L_0000
  exit
)", "collide.s");
  ASSERT_EQ(k.labels.size(), 2u);
  k.labels.erase(0);  // `top` is gone: the disassembler names PC 0 itself
  expectRoundTrip(k, "collide.s without its first label");
}

// Hand-written: every format, hints, guards, negative offsets, labels, all kinds of immediates.
const char* kEveryFormat = R"(// every format of the instruction set
.kernel every_format
.regs 64
.shared 1024
.param IN
.param OUT
.param N
.const FOUR 4
.const MINUS_EIGHT -8
.const HALF 0.5
top:
  s2r r0, %tid.x
  s2r r1, %ctaid.y {darsie=dr}
  s2r r2, %laneid ; s2r r3, %warpid ; s2r r4, %nctaid.z
  mov.b32 r5, 0x3f800000
  mov.b32 r6, -1 {bow=rf}
  mov.b32 r7, 2.5
  mov.b32 r8, r7
  neg.s32 r9, -2147483648
  abs.f32 r10, -1.25
  cvt.f32.s32 r11, -12
  cvt.s32.f32 r12, 7.75 {darsie=cr, bow=boc}
  add.u32 r13, r0, FOUR
  sub.u32 r14, r13, MINUS_EIGHT
  add.f32 r15, r7, HALF
  mul.f32 r16, r15, 3
  fma.f32 r17, r15, r16, r7 {darsie=v, bow=both}
  mad.lo.u32 r18, r0, r1, r2
  selp.b32 r19, r5, r6, p0
  selp.b32 r20, r5, r6, pt
  setp.lt.s32 p0, r0, 32
  setp.ge.f32 p1, r15, -0.5
  setp.ne.b32 p2, r19, r20
  pand p3, p0, p1
  por p4, pt, p2
  pnot p5, p3
  @p0 ld.param.b32 r21, [IN]
  @!p1 ld.param.b32 r22, [8]
  ld.global.b32 r23, [r21]
  ld.global.b32 r24, [r21+16]
  ld.global.b32 r25, [r21-524288]
  ld.shared.b32 r26, [r0+524287]
  ld.shared.b32 r27, [1020]
  st.shared.b32 [r0-4], r26
  st.shared.b32 [0], r27
  st.global.b32 [r22+0x10], r23 {darsie=dr}
  atom.global.add.u32 r28, [r21+4], r0
  atom.global.cas.b32 r29, [r21-4], r28, r0
  atom.shared.max.s32 r30, [64], r0
  atom.shared.cas.b32 r31, [r0], r1, r2
  @p6 bra done
  @!p5 bra top
  bar.sync
  bar.sync 15 {darsie=dr}
  membar
  nop
done: exit
  add.u32 r63, r63, r62
  exit
)";

TEST(AssemblerRoundTrip, HandWrittenEveryFormat) {
  isa::Kernel k = isa::assemble(kEveryFormat, "every_format.s");
  EXPECT_EQ(k.numRegs, 64);
  EXPECT_EQ(k.sharedBytes, 1024u);
  expectRoundTrip(k, "every_format");
}

// One line per opcode (two where an immediate or an absolute address is allowed), with guards
// and hints cycling over all their values.
std::string everyOpcodeKernel() {
  std::ostringstream s;
  s << ".kernel every_opcode\n.shared 256\n.local 64\n.param P\nfirst:\n";
  int n = 0;
  auto emit = [&](const std::string& body) {
    static const char* kGuards[] = {"", "@p0 ", "@!p6 ", "@pt ", "@!p3 "};
    static const char* kHints[] = {"",          " {darsie=cr}",          " {bow=rf}",
                                   " {bow=boc}", " {darsie=dr, bow=both}", " {darsie=v, bow=rf}"};
    s << "  " << kGuards[n % 5] << body << kHints[n % 6] << "\n";
    ++n;
  };
  for (int i = 0; i < isa::kNumOps; ++i) {
    auto op = static_cast<isa::Op>(i);
    const auto& inf = isa::info(op);
    std::string m(inf.name);
    bool f32 = m.size() >= 3 && m.substr(m.size() - 3) == "f32";
    bool b32 = m.size() >= 3 && m.substr(m.size() - 3) == "b32";
    std::string imm = f32 ? "-1.5" : b32 ? "0xdeadbeef" : "-7";
    bool global = m.find("global") != std::string::npos;
    switch (inf.format) {
      case isa::Format::Unary: emit(m + " r1, r2"); emit(m + " r3, " + imm); break;
      case isa::Format::Binary: emit(m + " r4, r5, r6"); emit(m + " r7, r8, " + imm); break;
      case isa::Format::Ternary: emit(m + " r9, r10, r11, r12"); break;
      case isa::Format::Select: emit(m + " r13, r14, r15, p1"); emit(m + " r13, r14, r15, pt"); break;
      case isa::Format::Special:
        for (int sp = 0; sp < isa::kNumSpecials; ++sp)
          emit(m + " r16, %" + isa::specialName(static_cast<isa::Special>(sp)));
        break;
      case isa::Format::Compare: emit(m + " p2, r17, r18"); emit(m + " p3, r19, " + imm); break;
      case isa::Format::PredBinary: emit(m + " p4, p5, pt"); break;
      case isa::Format::PredUnary: emit(m + " p6, p0"); break;
      case isa::Format::Load:
        emit(m + " r20, [r21]"); emit(m + " r22, [r23+12]"); emit(m + " r24, [r25-16]");
        if (!global) emit(m + " r26, [4]");
        break;
      case isa::Format::Store:
        emit(m + " [r27], r28"); emit(m + " [r29-8], r30");
        if (!global) emit(m + " [8], r31");
        break;
      case isa::Format::Atomic:
        emit(m + " r32, [r33+4], r34");
        if (!global) emit(m + " r35, [12], r36");
        break;
      case isa::Format::AtomicCas:
        emit(m + " r37, [r38-4], r39, r40");
        if (!global) emit(m + " r41, [16], r42, r43");
        break;
      case isa::Format::Branch: emit(m + " first"); emit(m + " last"); break;
      case isa::Format::Barrier: emit(m); emit(m + " 7"); break;
      case isa::Format::NoOperands: emit(m); break;
    }
  }
  s << "last:\n  exit\n";
  return s.str();
}

TEST(AssemblerRoundTrip, EveryOpcode) {
  std::string text = everyOpcodeKernel();
  isa::Kernel k = isa::assemble(text, "every_opcode.s");
  EXPECT_EQ(k.numRegs, 44);  // inferred: r43 is the highest register
  std::vector<bool> seen(isa::kNumOps, false);
  for (const auto& in : k.instrs) seen[static_cast<int>(in.op)] = true;
  for (int i = 0; i < isa::kNumOps; ++i) EXPECT_TRUE(seen[i]) << isa::info(static_cast<isa::Op>(i)).name;
  expectRoundTrip(k, "every_opcode");
}

// Random instructions built directly (not from text): the disassembler must print every field
// value the assembler can produce.
isa::Instr randomInstr(std::mt19937& rng, size_t kernelSize) {
  auto r = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  isa::Instr in;
  in.op = static_cast<isa::Op>(r(isa::kNumOps));
  in.guard = static_cast<uint8_t>(r(8));
  in.guardNeg = in.guard != isa::kPredTrue && r(2);
  in.darsie = static_cast<isa::Redundancy>(r(3));
  in.bow = static_cast<isa::BowHint>(r(4));
  auto reg = [&] { return static_cast<uint8_t>(r(isa::kMaxRegs)); };
  auto predAny = [&] { return static_cast<uint8_t>(r(8)); };
  auto predDst = [&] { return static_cast<uint8_t>(r(isa::kNumPreds)); };
  auto imm = [&] {
    in.hasImm = true;
    switch (r(4)) {
      case 0: in.imm = 0; break;
      case 1: in.imm = 0xFFFFFFFFu; break;
      case 2: in.imm = 0x80000000u; break;
      default: in.imm = static_cast<uint32_t>(rng()); break;
    }
  };
  auto mem = [&](bool needsBase) {
    in.hasBase = needsBase || r(2);
    if (in.hasBase) {
      in.a = reg();
      in.off = static_cast<int32_t>(r(isa::kMaxOffset - isa::kMinOffset + 1)) + isa::kMinOffset;
      if (r(4) == 0) in.off = r(2) ? isa::kMinOffset : isa::kMaxOffset;
    } else {
      in.off = static_cast<int32_t>(r(isa::kMaxOffset + 1));
      if (isa::isLocal(in.op)) in.off = std::min(in.off, static_cast<int32_t>(isa::kMaxLocalBytes - 4));
    }
  };
  std::string name(isa::info(in.op).name);
  bool global = name.find("global") != std::string::npos;
  switch (isa::info(in.op).format) {
    case isa::Format::Unary: in.d = reg(); if (r(2)) imm(); else in.a = reg(); break;
    case isa::Format::Binary: in.d = reg(); in.a = reg(); if (r(2)) imm(); else in.b = reg(); break;
    case isa::Format::Ternary: in.d = reg(); in.a = reg(); in.b = reg(); in.c = reg(); break;
    case isa::Format::Select: in.d = reg(); in.a = reg(); in.b = reg(); in.c = predAny(); break;
    case isa::Format::Special: in.d = reg(); in.a = static_cast<uint8_t>(r(isa::kNumSpecials)); break;
    case isa::Format::Compare: in.d = predDst(); in.a = reg(); if (r(2)) imm(); else in.b = reg(); break;
    case isa::Format::PredBinary: in.d = predDst(); in.a = predAny(); in.b = predAny(); break;
    case isa::Format::PredUnary: in.d = predDst(); in.a = predAny(); break;
    case isa::Format::Load: in.d = reg(); mem(global); break;
    case isa::Format::Store: in.b = reg(); mem(global); break;
    case isa::Format::Atomic: in.d = reg(); in.b = reg(); mem(global); break;
    case isa::Format::AtomicCas: in.d = reg(); in.b = reg(); in.c = reg(); mem(global); break;
    case isa::Format::Branch: in.hasImm = true; in.imm = isa::Kernel::pcOf(r(static_cast<uint32_t>(kernelSize))); break;
    case isa::Format::Barrier: in.hasImm = true; in.imm = r(16); break;
    case isa::Format::NoOperands: break;
  }
  return in;
}

TEST(AssemblerRoundTrip, RandomInstructions) {
  std::mt19937 rng(20240611);
  for (int kernel = 0; kernel < 50; ++kernel) {
    isa::Kernel k;
    k.name = "random" + std::to_string(kernel);
    k.numRegs = isa::kMaxRegs;
    k.sharedBytes = 4 * (rng() % 1024);
    k.localBytes = isa::kMaxLocalBytes;  // any absolute local offset is inside
    for (int p = 0; p < kernel % 5; ++p) k.params.push_back({"P" + std::to_string(p), 4u * p});
    size_t n = 1 + rng() % 200;
    for (size_t i = 0; i < n; ++i) k.instrs.push_back(randomInstr(rng, n));
    k.sourceLines.assign(n, 0);
    k.reencode();
    expectRoundTrip(k, k.name);
    if (HasFailure()) return;
  }
}

// ---------------------------------------------------------------------------------------------
// Robustness: mutated kernels either assemble (and then round-trip) or throw InputError with
// a one-line, printable message at a real position. Deterministic (fixed seed).

class Mutator {
 public:
  explicit Mutator(uint32_t seed) : rng_(seed) {}

  std::string mutate(const std::string& base) {
    std::string s = base;
    switch (r(11)) {
      case 0:  // byte flips
        for (uint32_t i = 0, n = 1 + r(8); i < n && !s.empty(); ++i) s[r(s.size())] = static_cast<char>(r(256));
        break;
      case 1:  // truncation
        s.resize(r(s.size() + 1));
        break;
      case 2:  // inserted punctuation
        for (uint32_t i = 0, n = 1 + r(5); i < n; ++i) {
          static const char kPunct[] = ",;:[]{}@!-+%#./=\"'()*&^~`<>?|\\$_";
          s.insert(r(s.size() + 1), 1, kPunct[r(sizeof kPunct - 1)]);
        }
        break;
      case 3:  // deleted range
        if (!s.empty()) {
          size_t at = r(s.size());
          s.erase(at, r(64));
        }
        break;
      case 4:  // duplicated or swapped lines
        s = shuffleLines(s);
        break;
      case 5:  // random token soup, with or without a .kernel header
        s = soup();
        break;
      case 6:  // a very long line
        s.insert(r(s.size() + 1), longLine());
        break;
      case 7:  // non-ASCII bytes
        for (uint32_t i = 0, n = 1 + r(6); i < n; ++i)
          s.insert(r(s.size() + 1), 1, static_cast<char>(0x80 + r(128)));
        break;
      case 8:  // NUL bytes
        for (uint32_t i = 0, n = 1 + r(4); i < n; ++i) s.insert(r(s.size() + 1), 1, '\0');
        break;
      case 9:  // a token replaced by another token
        s = replaceToken(s);
        break;
      default:  // a combination
        for (uint32_t i = 0, n = 2 + r(3); i < n; ++i) {
          switch (r(4)) {
            case 0: if (!s.empty()) s[r(s.size())] = static_cast<char>(r(256)); break;
            case 1: s = replaceToken(s); break;
            case 2: s.insert(r(s.size() + 1), 1, ",;:[]{}@!-"[r(10)]); break;
            default: s = shuffleLines(s); break;
          }
        }
        break;
    }
    return s;
  }

 private:
  uint32_t r(size_t n) { return n == 0 ? 0 : static_cast<uint32_t>(rng_() % n); }

  const std::string& token() {
    static const std::vector<std::string> kTokens = {
        ".kernel", ".regs", ".shared", ".param", ".const", ".foo", "k", "loop", "done", "A", "N",
        "add.u32", "add.f32", "mov.b32", "fma.f32", "selp.b32", "s2r", "setp.lt.s32", "pand", "pnot",
        "ld.global.b32", "ld.shared.b32", "ld.param.b32", "st.global.b32", "st.shared.b32",
        "atom.global.cas.b32", "atom.shared.add.u32", "bra", "bar.sync", "exit", "membar", "nop",
        "r0", "r1", "r63", "r64", "r", "r999999999999", "p0", "p6", "p7", "pt", "%tid.x", "%laneid", "%",
        "0", "1", "-1", "15", "16", "0x", "0x10", "0xffffffff", "0x1ffffffff", "99999999999999999999",
        "1.5", "-2.5e3", "1e", "1e999", "inf", "nan", "12abc", "524287", "524288",
        "[", "]", "+", "-", ",", ":", ";", "@", "!", "{", "}", "=", "darsie", "bow", "dr", "both",
        "//", "#", "\n", "\n", "\n", "\t", "\r", "\xff", std::string(1, '\0')};
    return kTokens[r(kTokens.size())];
  }

  std::string soup() {
    std::string s = r(3) ? ".kernel k\n" : "";
    for (uint32_t i = 0, n = r(120); i < n; ++i) {
      s += token();
      if (r(3)) s += ' ';
    }
    return s;
  }

  std::string longLine() {
    static const char* kUnits[] = {"r1, ", "a", "9", "-", "[r1+", "{darsie=dr, ", "; ", "p0 ", "\xe2\x82\xac"};
    std::string unit = kUnits[r(sizeof kUnits / sizeof *kUnits)];
    std::string s = r(2) ? "  add.u32 r0, " : "";
    size_t target = 10000 + r(40000);
    while (s.size() < target) s += unit;
    return s + "\n";
  }

  std::vector<std::string> lines(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    std::string l;
    while (std::getline(in, l)) out.push_back(l);
    return out;
  }

  std::string shuffleLines(const std::string& s) {
    auto ls = lines(s);
    if (ls.empty()) return s;
    size_t a = r(ls.size()), b = r(ls.size());
    if (r(2)) std::swap(ls[a], ls[b]);
    else ls.insert(ls.begin() + static_cast<std::ptrdiff_t>(a), ls[b]);
    std::string out;
    for (const auto& l : ls) out += l + "\n";
    return out;
  }

  std::string replaceToken(const std::string& s) {
    // Replace a maximal run of identifier characters (or a single other character).
    if (s.empty()) return token();
    size_t at = r(s.size());
    auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '%'; };
    size_t b = at, e = at + 1;
    if (ident(s[at])) {
      while (b > 0 && ident(s[b - 1])) --b;
      while (e < s.size() && ident(s[e])) ++e;
    }
    return s.substr(0, b) + token() + s.substr(e);
  }

  std::mt19937 rng_;
};

TEST(AssemblerRobustness, MutatedKernelsNeverCrash) {
  std::vector<std::string> bases;
  for (const auto& f : filesWithExtension(kernelDir(), ".s")) bases.push_back(readFile(f));
  bases.push_back(kEveryFormat);
  bases.push_back(everyOpcodeKernel());
  ASSERT_GE(bases.size(), 3u);

  Mutator mut(12345);
  int assembled = 0, rejected = 0;
  const int kIterations = 6000;
  for (int it = 0; it < kIterations; ++it) {
    const std::string& base = bases[static_cast<size_t>(it) % bases.size()];
    std::string text = mut.mutate(base);
    try {
      isa::Kernel k = isa::assemble(text, "fuzz.s");
      ++assembled;
      // Whatever assembles must survive the disassembler round trip too.
      std::string t1 = isa::disassemble(k);
      isa::Kernel k2 = isa::assemble(t1, "fuzz-disassembled.s");
      ASSERT_EQ(k.code, k2.code) << "iteration " << it << "\n" << t1;
      ASSERT_EQ(t1, isa::disassemble(k2)) << "iteration " << it;
    } catch (const InputError& e) {
      ++rejected;
      std::string what = e.what();
      ASSERT_EQ(what.find('\n'), std::string::npos) << "iteration " << it << ": " << what;
      for (char c : what)
        ASSERT_TRUE(c >= 0x20 && c < 0x7f) << "iteration " << it << ": unprintable byte in: " << what;
      ASSERT_GE(e.line(), 1) << "iteration " << it << ": " << what;
      ASSERT_GE(e.col(), 1) << "iteration " << it << ": " << what;
      ASSERT_EQ(what.rfind("fuzz.s:", 0), 0u) << what;
    }
    // Any other exception type escapes and fails the test.
  }
  std::printf("fuzz: %d assembled, %d rejected\n", assembled, rejected);
  EXPECT_GT(assembled, kIterations / 20);
  EXPECT_GT(rejected, kIterations / 4);
}

}  // namespace
