#include "isa/disassembler.h"

#include <cstdio>
#include <set>
#include <sstream>

namespace simtlm::isa {
namespace {

std::string reg(uint8_t r) { return "r" + std::to_string(r); }
std::string pred(uint8_t p) { return p == kPredTrue ? "pt" : "p" + std::to_string(p); }

std::string hexImm(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

// Integers print in decimal (signed), float and bit operands as exact hex bits.
std::string imm(const Instr& in) {
  std::string_view n = info(in.op).name;
  bool isInt = n.size() < 3 || (n.substr(n.size() - 3) != "f32" && n.substr(n.size() - 3) != "b32");
  int32_t v = static_cast<int32_t>(in.imm);
  // Small bit patterns read best in decimal (shift amounts, masks); f32 operands and large
  // patterns print as exact hex bits. Both forms assemble back to the same word.
  bool isF32 = n.size() >= 3 && n.substr(n.size() - 3) == "f32";
  if (isInt || (!isF32 && v > -65536 && v < 65536)) return std::to_string(v);
  return hexImm(in.imm);
}

std::string mem(const Instr& in) {
  if (!in.hasBase) return "[" + std::to_string(in.off) + "]";
  std::string s = "[" + reg(in.a);
  if (in.off > 0) s += "+" + std::to_string(in.off);
  if (in.off < 0) s += "-" + std::to_string(-static_cast<int64_t>(in.off));
  return s + "]";
}

}  // namespace

std::string targetLabel(const Kernel* kernel, uint32_t pc) {
  if (kernel) {
    auto it = kernel->labels.find(pc);
    if (it != kernel->labels.end()) return it->second;
  }
  char buf[24];
  std::snprintf(buf, sizeof buf, "L_%04x", pc);
  std::string name = buf;
  // A source may use such a name itself for another PC: lengthen the made-up one until it is free.
  auto taken = [&](const std::string& n) {
    if (!kernel) return false;
    for (const auto& [at, label] : kernel->labels)
      if (label == n) return true;
    return false;
  };
  while (taken(name)) name += "_";
  return name;
}

std::string disassemble(const Instr& in, const Kernel* kernel) {
  std::ostringstream s;
  if (in.guard != kPredTrue || in.guardNeg) s << "@" << (in.guardNeg ? "!" : "") << pred(in.guard) << " ";
  s << info(in.op).name;
  auto srcB = [&] { return in.hasImm ? imm(in) : reg(in.b); };
  switch (info(in.op).format) {
    case Format::Unary: s << " " << reg(in.d) << ", " << (in.hasImm ? imm(in) : reg(in.a)); break;
    case Format::Binary: s << " " << reg(in.d) << ", " << reg(in.a) << ", " << srcB(); break;
    case Format::Ternary:
      s << " " << reg(in.d) << ", " << reg(in.a) << ", " << reg(in.b) << ", " << reg(in.c); break;
    case Format::Select:
      s << " " << reg(in.d) << ", " << reg(in.a) << ", " << reg(in.b) << ", " << pred(in.c); break;
    case Format::Special:
      s << " " << reg(in.d) << ", %" << (in.a < kNumSpecials ? specialName(static_cast<Special>(in.a)) : "?");
      break;
    case Format::Compare: s << " " << pred(in.d) << ", " << reg(in.a) << ", " << srcB(); break;
    case Format::PredBinary: s << " " << pred(in.d) << ", " << pred(in.a) << ", " << pred(in.b); break;
    case Format::PredUnary: s << " " << pred(in.d) << ", " << pred(in.a); break;
    case Format::Load: s << " " << reg(in.d) << ", " << mem(in); break;
    case Format::Store: s << " " << mem(in) << ", " << reg(in.b); break;
    case Format::Atomic: s << " " << reg(in.d) << ", " << mem(in) << ", " << reg(in.b); break;
    case Format::AtomicCas:
      s << " " << reg(in.d) << ", " << mem(in) << ", " << reg(in.b) << ", " << reg(in.c); break;
    case Format::Branch: s << " " << targetLabel(kernel, in.imm); break;
    case Format::Barrier: s << " " << in.imm; break;
    case Format::NoOperands: break;
  }
  if (in.darsie != Redundancy::Vector || in.bow != BowHint::None) {
    static const char* kD[] = {"v", "cr", "dr"};
    static const char* kB[] = {"", "rf", "boc", "both"};
    s << " {darsie=" << kD[static_cast<int>(in.darsie)];
    if (in.bow != BowHint::None) s << ", bow=" << kB[static_cast<int>(in.bow)];
    s << "}";
  }
  return s.str();
}

std::string disassemble(const Kernel& k) {
  std::ostringstream s;
  s << ".kernel " << k.name << "\n.regs " << k.numRegs << "\n";
  if (k.sharedBytes) s << ".shared " << k.sharedBytes << "\n";
  if (k.localBytes) s << ".local " << k.localBytes << "\n";
  for (const auto& p : k.params) s << ".param " << p.name << "\n";
  std::set<uint32_t> targets;
  for (const auto& in : k.instrs)
    if (in.op == Op::BRA) targets.insert(in.imm);
  for (size_t i = 0; i < k.instrs.size(); ++i) {
    uint32_t pc = Kernel::pcOf(i);
    if (targets.count(pc) || k.labels.count(pc)) s << targetLabel(&k, pc) << ":\n";
    s << "  " << disassemble(k.instrs[i], &k) << "\n";
  }
  return s.str();
}

}  // namespace simtlm::isa
