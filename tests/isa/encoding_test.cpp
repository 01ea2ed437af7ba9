// The opcode table's integrity and the 64-bit instruction encoding (isa/instruction.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <string>

#include "isa/instruction.h"
#include "isa/opcode.h"

namespace {

namespace isa = simtlm::isa;
using isa::Format;
using isa::Instr;
using isa::Op;

// Field-by-field equality (Instr::operator== compares encodings, which is what is under test).
void expectSameFields(const Instr& want, const Instr& got, const std::string& ctx) {
  EXPECT_EQ(static_cast<int>(got.op), static_cast<int>(want.op)) << ctx;
  EXPECT_EQ(got.guard, want.guard) << ctx;
  EXPECT_EQ(got.guardNeg, want.guardNeg) << ctx;
  EXPECT_EQ(static_cast<int>(got.darsie), static_cast<int>(want.darsie)) << ctx;
  EXPECT_EQ(static_cast<int>(got.bow), static_cast<int>(want.bow)) << ctx;
  EXPECT_EQ(got.hasImm, want.hasImm) << ctx;
  EXPECT_EQ(got.hasBase, want.hasBase) << ctx;
  EXPECT_EQ(got.d, want.d) << ctx;
  EXPECT_EQ(got.a, want.a) << ctx;
  EXPECT_EQ(got.b, want.b) << ctx;
  EXPECT_EQ(got.c, want.c) << ctx;
  EXPECT_EQ(got.off, want.off) << ctx;
  EXPECT_EQ(got.imm, want.imm) << ctx;
}

// A random instruction of opcode `op` whose fields respect the format and the field widths:
// fields the format does not use stay zero, so decode(encode(x)) must give x back exactly.
Instr randomInstr(Op op, std::mt19937& rng) {
  auto pick = [&](uint32_t lo, uint32_t hi) {
    return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
  };
  auto reg = [&] { return static_cast<uint8_t>(pick(0, isa::kMaxRegs - 1)); };
  auto pred = [&] { return static_cast<uint8_t>(pick(0, isa::kNumPreds - 1)); };
  auto predOrTrue = [&] { return static_cast<uint8_t>(pick(0, isa::kPredTrue)); };
  auto off = [&] {
    return static_cast<int32_t>(pick(0, (1u << 20) - 1)) + isa::kMinOffset;
  };
  Instr in;
  in.op = op;
  in.guard = predOrTrue();
  in.guardNeg = in.guard != isa::kPredTrue && pick(0, 1);
  in.darsie = static_cast<isa::Redundancy>(pick(0, 2));
  in.bow = static_cast<isa::BowHint>(pick(0, 3));
  bool imm = pick(0, 1);
  switch (isa::info(op).format) {
    case Format::Unary:
      in.d = reg();
      if (imm) { in.hasImm = true; in.imm = pick(0, 0xFFFFFFFFu); } else { in.a = reg(); }
      break;
    case Format::Binary:
      in.d = reg(); in.a = reg();
      if (imm) { in.hasImm = true; in.imm = pick(0, 0xFFFFFFFFu); } else { in.b = reg(); }
      break;
    case Format::Ternary:
      in.d = reg(); in.a = reg(); in.b = reg(); in.c = reg();
      break;
    case Format::Select:
      in.d = reg(); in.a = reg(); in.b = reg(); in.c = predOrTrue();
      break;
    case Format::Special:
      in.d = reg(); in.a = static_cast<uint8_t>(pick(0, isa::kNumSpecials - 1));
      break;
    case Format::Compare:
      in.d = pred(); in.a = reg();
      if (imm) { in.hasImm = true; in.imm = pick(0, 0xFFFFFFFFu); } else { in.b = reg(); }
      break;
    case Format::PredBinary:
      in.d = pred(); in.a = predOrTrue(); in.b = predOrTrue();
      break;
    case Format::PredUnary:
      in.d = pred(); in.a = predOrTrue();
      break;
    case Format::Load:
      in.d = reg(); in.hasBase = pick(0, 1); if (in.hasBase) in.a = reg(); in.off = off();
      break;
    case Format::Store:
      in.hasBase = pick(0, 1); if (in.hasBase) in.a = reg(); in.off = off(); in.b = reg();
      break;
    case Format::Atomic:
      in.d = reg(); in.hasBase = true; in.a = reg(); in.off = off(); in.b = reg();
      break;
    case Format::AtomicCas:
      in.d = reg(); in.hasBase = true; in.a = reg(); in.off = off(); in.b = reg(); in.c = reg();
      break;
    case Format::Branch:
      in.hasImm = true; in.imm = pick(0, 0x3FFFFFFF) * 8;
      break;
    case Format::Barrier:
      in.hasImm = true; in.imm = pick(0, 15);
      break;
    case Format::NoOperands:
      break;
  }
  return in;
}

std::string name(Op op) { return std::string(isa::info(op).name); }

// ---------------------------------------------------------------------------------------------
// The opcode table
// ---------------------------------------------------------------------------------------------

TEST(EncodingTable, NamesAreUniqueAndWellFormed) {
  std::set<std::string> names;
  for (int i = 0; i < isa::kNumOps; ++i) {
    std::string n = name(static_cast<Op>(i));
    EXPECT_FALSE(n.empty()) << "row " << i;
    EXPECT_EQ(n.find_first_of(" \t,;[]{}@#"), std::string::npos) << n;
    EXPECT_TRUE(names.insert(n).second) << "duplicate mnemonic " << n;
  }
  EXPECT_EQ(names.size(), static_cast<size_t>(isa::kNumOps));
}

TEST(EncodingTable, OpcodeIsTheRowIndexAndFitsEightBits) {
  ASSERT_LE(isa::kNumOps, 256);
  std::set<uint64_t> opcodes;
  for (int i = 0; i < isa::kNumOps; ++i) {
    Op op = static_cast<Op>(i);
    EXPECT_EQ(static_cast<int>(isa::info(op).op), i) << "row " << i << " is out of order";
    Instr in;
    in.op = op;
    uint64_t w = isa::encode(in);
    EXPECT_EQ(w & 0xFF, static_cast<uint64_t>(i)) << name(op);
    EXPECT_TRUE(opcodes.insert(w & 0xFF).second) << name(op);
  }
}

TEST(EncodingTable, OpByNameRoundTripsEveryOp) {
  for (int i = 0; i < isa::kNumOps; ++i) {
    Op op = static_cast<Op>(i);
    auto found = isa::opByName(isa::info(op).name);
    ASSERT_TRUE(found.has_value()) << name(op);
    EXPECT_EQ(*found, op) << name(op);
  }
  EXPECT_FALSE(isa::opByName("").has_value());
  EXPECT_FALSE(isa::opByName("add").has_value());
  EXPECT_FALSE(isa::opByName("ADD.U32").has_value());  // mnemonics are case-sensitive
  EXPECT_FALSE(isa::opByName("add.u32 ").has_value());
}

TEST(EncodingTable, FormatPropertiesAreConsistent) {
  for (int i = 0; i < isa::kNumOps; ++i) {
    Format f = isa::info(static_cast<Op>(i)).format;
    EXPECT_FALSE(isa::writesGpr(f) && isa::writesPred(f)) << name(static_cast<Op>(i));
    if (isa::allowsImmediate(f)) {
      EXPECT_FALSE(isa::isMemory(f));
    }
  }
  EXPECT_EQ(isa::numGprSources(Format::Ternary), 3);
  EXPECT_EQ(isa::numGprSources(Format::AtomicCas), 2);
  EXPECT_TRUE(isa::isMemory(Format::Atomic));
  EXPECT_TRUE(isa::writesPred(Format::Compare));
}

// ---------------------------------------------------------------------------------------------
// Encode / decode
// ---------------------------------------------------------------------------------------------

TEST(EncodingRoundTrip, DefaultInstrIsNopUnderPt) {
  Instr in;
  EXPECT_EQ(isa::encode(in), static_cast<uint64_t>(Op::NOP) | (7ull << 8));
  Instr out;
  ASSERT_TRUE(isa::decode(isa::encode(in), out));
  expectSameFields(in, out, "default");
}

TEST(EncodingRoundTrip, RandomInstructionsOfEveryFormat) {
  std::mt19937 rng(12345);
  std::set<Format> formats;
  for (int i = 0; i < isa::kNumOps; ++i) {
    Op op = static_cast<Op>(i);
    formats.insert(isa::info(op).format);
    for (int n = 0; n < 300; ++n) {
      Instr in = randomInstr(op, rng);
      uint64_t w = isa::encode(in);
      Instr out;
      ASSERT_TRUE(isa::decode(w, out)) << name(op) << " word " << std::hex << w;
      expectSameFields(in, out, name(op));
      EXPECT_EQ(isa::encode(out), w);
      EXPECT_TRUE(out == in);
      if (HasFailure()) return;
    }
  }
  EXPECT_EQ(formats.size(), 15u) << "a format was added: extend randomInstr";
}

TEST(EncodingRoundTrip, ExtremeFieldValues) {
  struct { int32_t off; } offs[] = {{isa::kMinOffset}, {isa::kMaxOffset}, {-1}, {0}, {1}, {-4}};
  for (auto o : offs) {
    Instr in;
    in.op = Op::LD_GLOBAL;
    in.d = 63;
    in.a = 63;
    in.hasBase = true;
    in.off = o.off;
    Instr out;
    ASSERT_TRUE(isa::decode(isa::encode(in), out));
    expectSameFields(in, out, "offset " + std::to_string(o.off));
  }
  for (uint32_t v : {0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu}) {
    Instr in;
    in.op = Op::ADD_F32;
    in.d = 63;
    in.a = 63;
    in.hasImm = true;
    in.imm = v;
    Instr out;
    ASSERT_TRUE(isa::decode(isa::encode(in), out));
    expectSameFields(in, out, "imm " + std::to_string(v));
    EXPECT_EQ(isa::encode(in) >> 32, v);
  }
}

// decode is the inverse of encode on every word it accepts: random words either are rejected
// (for a documented reason) or re-encode to themselves.
TEST(EncodingRoundTrip, RandomWordsDecodeOrAreRejected) {
  std::mt19937_64 rng(777);
  int accepted = 0;
  for (int n = 0; n < 200000; ++n) {
    uint64_t w = rng();
    if (n % 2) w = (w & ~0xFFull) | (w % isa::kNumOps);  // mostly valid opcodes
    bool valid = (w & 0xFF) < static_cast<uint64_t>(isa::kNumOps) && ((w >> 30) & 3) == 0 &&
                 ((w >> 12) & 3) != 3;
    Instr out;
    bool ok = isa::decode(w, out);
    ASSERT_EQ(ok, valid) << std::hex << w;
    if (ok) {
      ++accepted;
      ASSERT_EQ(isa::encode(out), w) << std::hex << w;
    }
  }
  EXPECT_GT(accepted, 10000);
}

TEST(EncodingRoundTrip, DecodeRejectsOpcodesOutsideTheTable) {
  for (unsigned opc = isa::kNumOps; opc < 256; ++opc) {
    Instr out;
    EXPECT_FALSE(isa::decode(static_cast<uint64_t>(opc) | (7ull << 8), out)) << opc;
  }
  Instr out;
  EXPECT_TRUE(isa::decode(static_cast<uint64_t>(isa::kNumOps - 1) | (7ull << 8), out));
}

TEST(EncodingRoundTrip, DecodeRejectsReservedBitsAndDarsieThree) {
  Instr in;
  in.op = Op::ADD_U32;
  in.d = 1; in.a = 2; in.b = 3;
  uint64_t w = isa::encode(in);
  Instr out;
  ASSERT_TRUE(isa::decode(w, out));
  EXPECT_FALSE(isa::decode(w | (1ull << 30), out));
  EXPECT_FALSE(isa::decode(w | (1ull << 31), out));
  EXPECT_FALSE(isa::decode(w | (3ull << 30), out));
  EXPECT_FALSE(isa::decode(w | (3ull << 12), out)) << "DARSIE hint value 3 is undefined";
  EXPECT_TRUE(isa::decode(w | (2ull << 12), out));
  EXPECT_EQ(out.darsie, isa::Redundancy::Definite);
  EXPECT_TRUE(isa::decode(w | (3ull << 14), out)) << "every BOW value is defined";
  EXPECT_EQ(out.bow, isa::BowHint::Both);
}

// ---------------------------------------------------------------------------------------------
// Field placement: the table in instruction.h (and isa/ISA.md)
// ---------------------------------------------------------------------------------------------

TEST(EncodingLayout, FieldsSitWhereDocumented) {
  auto only = [](auto set) {
    Instr in;
    in.op = static_cast<Op>(0);
    in.guard = 0;
    set(in);
    return isa::encode(in);
  };
  EXPECT_EQ(only([](Instr&) {}), 0u);
  EXPECT_EQ(only([](Instr& i) { i.guard = 7; }), 7ull << 8);
  EXPECT_EQ(only([](Instr& i) { i.guardNeg = true; }), 1ull << 11);
  EXPECT_EQ(only([](Instr& i) { i.darsie = isa::Redundancy::Conditional; }), 1ull << 12);
  EXPECT_EQ(only([](Instr& i) { i.darsie = isa::Redundancy::Definite; }), 2ull << 12);
  EXPECT_EQ(only([](Instr& i) { i.bow = isa::BowHint::RegisterFile; }), 1ull << 14);
  EXPECT_EQ(only([](Instr& i) { i.bow = isa::BowHint::Bypass; }), 2ull << 14);
  EXPECT_EQ(only([](Instr& i) { i.bow = isa::BowHint::Both; }), 3ull << 14);
  EXPECT_EQ(only([](Instr& i) { i.hasImm = true; }), 1ull << 16);
  EXPECT_EQ(only([](Instr& i) { i.d = 63; }), 63ull << 17);
  EXPECT_EQ(only([](Instr& i) { i.a = 63; }), 63ull << 23);
  EXPECT_EQ(only([](Instr& i) { i.hasBase = true; }), 1ull << 29);
  EXPECT_EQ(only([](Instr& i) { i.b = 63; }), 63ull << 32);
  EXPECT_EQ(only([](Instr& i) { i.c = 63; }), 63ull << 38);
  EXPECT_EQ(only([](Instr& i) { i.off = -1; }), 0xFFFFFull << 44);
  EXPECT_EQ(only([](Instr& i) { i.off = 1; }), 1ull << 44);
  EXPECT_EQ(only([](Instr& i) { i.hasImm = true; i.imm = 0xFFFFFFFFu; }),
            (1ull << 16) | (0xFFFFFFFFull << 32));
  // With an immediate, rB, rC and the offset are not encoded (the immediate holds [63:32]).
  EXPECT_EQ(only([](Instr& i) { i.hasImm = true; i.b = 5; i.c = 6; i.off = 7; }), 1ull << 16);
  // Reserved bits [31:30] are never produced.
  std::mt19937 rng(1);
  for (int n = 0; n < 1000; ++n) {
    Instr in = randomInstr(static_cast<Op>(rng() % isa::kNumOps), rng);
    EXPECT_EQ((isa::encode(in) >> 30) & 3, 0u);
  }
}

TEST(EncodingLayout, HintBitsAreExactlyBits12To15) {
  std::mt19937 rng(99);
  for (int n = 0; n < 5000; ++n) {
    Instr in = randomInstr(static_cast<Op>(rng() % isa::kNumOps), rng);
    uint64_t w = isa::encode(in);
    for (int d = 0; d < 3; ++d) {
      for (int b = 0; b < 4; ++b) {
        Instr h = in;
        h.darsie = static_cast<isa::Redundancy>(d);
        h.bow = static_cast<isa::BowHint>(b);
        uint64_t hw = isa::encode(h);
        // Only the hint bits differ, and they hold exactly the hint values.
        EXPECT_EQ((hw ^ w) & ~0xF000ull, 0u);
        EXPECT_EQ((hw >> 12) & 3, static_cast<uint64_t>(d));
        EXPECT_EQ((hw >> 14) & 3, static_cast<uint64_t>(b));
        // Decoding gives back every other field unchanged.
        Instr out;
        ASSERT_TRUE(isa::decode(hw, out));
        Instr expect = in;
        expect.darsie = h.darsie;
        expect.bow = h.bow;
        expectSameFields(expect, out, name(in.op));
        if (HasFailure()) return;
      }
    }
  }
}

TEST(EncodingLayout, SpecialRegisterNames) {
  std::set<std::string> names;
  for (int i = 0; i < isa::kNumSpecials; ++i)
    EXPECT_TRUE(names.insert(isa::specialName(static_cast<isa::Special>(i))).second);
  EXPECT_STREQ(isa::specialName(isa::Special::TidX), "tid.x");
  EXPECT_STREQ(isa::specialName(isa::Special::NctaidZ), "nctaid.z");
  EXPECT_STREQ(isa::specialName(isa::Special::LaneId), "laneid");
  EXPECT_STREQ(isa::specialName(isa::Special::WarpId), "warpid");
  EXPECT_LE(isa::kNumSpecials, 64);  // fits the 6-bit rA field
}

}  // namespace
