#include "isa/assembler.h"

#include "isa/input_file.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "isa/asm_lexer.h"
#include "isa/diagnostics.h"
#include "isa/semantics.h"

namespace simtlm::isa {

namespace {

using namespace detail;

// Source type of an opcode's immediate: float literals are accepted where it is f32 or b32.
enum class ImmType { Int, Float, Bits };

ImmType immTypeOf(Op op) {
  std::string_view n = info(op).name;
  // The last type suffix is the source type (cvt.s32.f32 reads f32).
  auto dot = n.rfind('.');
  std::string_view last = dot == std::string_view::npos ? n : n.substr(dot + 1);
  if (last == "f32") return ImmType::Float;
  if (last == "b32") return ImmType::Bits;
  return ImmType::Int;
}

struct PendingBranch {
  size_t index;
  std::string label;
  int line, col;
};

class Assembler {
 public:
  Assembler(const std::string& text, std::string file) : text_(text), file_(std::move(file)) {}

  Kernel run() {
    std::istringstream in(text_);
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
      ++lineNo;
      line_ = lineNo;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      // Strip comments: '//' or '#'.
      size_t cut = line.size();
      size_t p = line.find("//");
      if (p != std::string::npos) cut = p;
      p = line.find('#');
      if (p != std::string::npos && p < cut) cut = p;
      line.resize(cut);
      // Statements are separated by ';'.
      size_t start = 0;
      while (start <= line.size()) {
        size_t semi = line.find(';', start);
        size_t end = semi == std::string::npos ? line.size() : semi;
        statement(line.substr(start, end - start), static_cast<int>(start) + 1);
        if (semi == std::string::npos) break;
        start = semi + 1;
      }
    }
    finish();
    return std::move(k_);
  }

 private:
  [[noreturn]] void fail(int col, const std::string& msg) { throw InputError(file_, line_, col, msg); }
  [[noreturn]] void fail(const Token& t, const std::string& msg) { fail(t.col, msg); }

  const Token& peek() const { return toks_[pos_]; }
  Token next() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }
  bool accept(const char* punct) {
    if (peek().kind == Token::Punct && peek().text == punct) { ++pos_; return true; }
    return false;
  }
  void expect(const char* punct, const char* what) {
    if (!accept(punct)) fail(peek(), std::string("expected ") + what + ", found " + describe(peek()));
  }

  void statement(const std::string& s, int colBase) {
    toks_ = tokenize(s, colBase);
    pos_ = 0;
    if (peek().kind == Token::End) return;
    // Labels (any number) before a directive or instruction.
    while (peek().kind == Token::Ident && toks_[pos_ + 1].kind == Token::Punct &&
           toks_[pos_ + 1].text == ":") {
      Token t = next();
      next();
      defineLabel(t);
      if (peek().kind == Token::End) return;
    }
    if (peek().kind == Token::Ident && peek().text[0] == '.') { directive(); return; }
    instruction();
  }

  void defineLabel(const Token& t) {
    if (!kernelSeen_) fail(t, "label before the .kernel directive");
    if (!validName(t.text)) fail(t, "invalid label name '" + t.text + "'");
    if (labels_.count(t.text)) fail(t, "label '" + t.text + "' is already defined");
    labels_[t.text] = static_cast<uint32_t>(k_.instrs.size());
    labelOrder_.push_back(t.text);
  }

  void endOfStatement() {
    if (peek().kind != Token::End) fail(peek(), "expected end of statement, found " + describe(peek()));
  }

  // Parses an integer token's text or fails with a message naming what is wrong.
  int64_t parseIntOrFail(const Token& at, const std::string& text) {
    int64_t v = 0;
    switch (parseInt(text, v)) {
      case IntParse::Ok: break;
      case IntParse::Malformed: fail(at, "malformed integer '" + text + "'");
      case IntParse::TooLarge: fail(at, "integer '" + text + "' does not fit in 32 bits");
    }
    return v;
  }

  float parseFloatOrFail(const Token& at, const std::string& text) {
    float f;
    if (!parseFloat(text, f)) fail(at, "malformed float literal '" + text + "'");
    if (std::isinf(f)) fail(at, "float literal '" + text + "' is out of range for f32");
    return f;
  }

  int64_t intArg(const char* what, int64_t lo, int64_t hi) {
    Token t = peek();
    bool neg = accept("-");
    Token n = next();
    if (n.kind != Token::Number) fail(n, std::string("expected ") + what + ", found " + describe(n));
    if (looksFloatText(n.text)) fail(n, "float literal '" + n.text + "' where an integer is expected");
    int64_t v = parseIntOrFail(n, n.text);
    if (neg) v = -v;
    if (v < lo || v > hi)
      fail(t, std::string(what) + " " + std::to_string(v) + " out of range [" + std::to_string(lo) +
                  ", " + std::to_string(hi) + "]");
    return v;
  }

  void directive() {
    Token d = next();
    if (d.text == ".kernel") {
      if (kernelSeen_) fail(d, "only one .kernel per file");
      Token n = next();
      if (n.kind != Token::Ident || !validName(n.text))
        fail(n, "expected kernel name after .kernel, found " + describe(n));
      k_.name = n.text;
      kernelSeen_ = true;
      kernelLine_ = line_;
      kernelCol_ = d.col;
    } else if (!kernelSeen_) {
      fail(d, "expected .kernel before " + d.text);
    } else if (d.text == ".regs") {
      if (!k_.instrs.empty()) fail(d, ".regs must come before the first instruction");
      k_.numRegs = static_cast<int>(intArg("register count", 1, kMaxRegs));
      regsDeclared_ = true;
    } else if (d.text == ".shared") {
      Token v = peek();
      k_.sharedBytes = static_cast<uint32_t>(intArg("shared memory bytes", 0, 1 << 20));
      if (k_.sharedBytes % 4) fail(v, ".shared size must be a multiple of 4 bytes");
    } else if (d.text == ".local") {
      if (!k_.instrs.empty()) fail(d, ".local must come before the first instruction");
      Token v = peek();
      k_.localBytes = static_cast<uint32_t>(intArg("local memory bytes per thread", 0, kMaxLocalBytes));
      if (k_.localBytes % 4) fail(v, ".local size must be a multiple of 4 bytes");
    } else if (d.text == ".param") {
      Token n = next();
      if (n.kind != Token::Ident || !validName(n.text))
        fail(n, "expected parameter name after .param, found " + describe(n));
      if (reservedName(n.text)) fail(n, "'" + n.text + "' is reserved and cannot name a parameter");
      if (symbols_.count(n.text)) fail(n, "'" + n.text + "' is already defined");
      symbols_[n.text] = std::to_string(k_.paramBytes());
      k_.params.push_back({n.text, k_.paramBytes()});
    } else if (d.text == ".const") {
      Token n = next();
      if (n.kind != Token::Ident || !validName(n.text))
        fail(n, "expected constant name after .const, found " + describe(n));
      if (reservedName(n.text)) fail(n, "'" + n.text + "' is reserved and cannot name a constant");
      if (symbols_.count(n.text)) fail(n, "'" + n.text + "' is already defined");
      std::string value = accept("-") ? "-" : "";
      Token v = next();
      if (v.kind != Token::Number) fail(v, "expected a number after .const " + n.text + ", found " + describe(v));
      if (looksFloatText(v.text)) parseFloatOrFail(v, v.text);
      else parseIntOrFail(v, v.text);
      symbols_[n.text] = value + v.text;
    } else {
      fail(d, "unknown directive '" + d.text + "' (expected .kernel, .regs, .shared, .local, .param or .const)");
    }
    endOfStatement();
  }

  // An optional '-' and a number or a .const / .param symbol, before interpretation.
  struct Literal {
    Token first;       // where the literal starts (the '-' if any)
    Token tok;         // the number or symbol
    bool neg = false;
    std::string text;  // the number's digits (a symbol's value, its sign folded into neg)
    bool special = false;  // inf or nan
  };

  Literal literal(const char* what) {
    Literal l;
    l.first = peek();
    l.neg = accept("-");
    l.tok = next();
    l.text = l.tok.text;
    if (l.tok.kind == Token::Ident) {
      if (l.tok.text == "inf" || l.tok.text == "nan") { l.special = true; return l; }
      auto it = symbols_.find(l.tok.text);
      if (it == symbols_.end())
        fail(l.tok, "unknown symbol '" + l.tok.text + "' (expected a number, .const or .param name)");
      l.text = it->second;
      if (l.text[0] == '-') { l.neg = !l.neg; l.text = l.text.substr(1); }
    } else if (l.tok.kind != Token::Number) {
      fail(l.tok, std::string("expected ") + what + ", found " + describe(l.tok));
    }
    return l;
  }

  // A signed integer (memory offsets): magnitude up to 32 bits, no wrap-around.
  int64_t signedInteger(const char* what) {
    Literal l = literal(what);
    if (l.special || looksFloatText(l.text))
      fail(l.first, "float literal '" + (l.special ? l.tok.text : l.text) + "' where an integer is expected");
    int64_t v = parseIntOrFail(l.tok, l.text);
    return l.neg ? -v : v;
  }

  // Parses an immediate for an instruction of type `ty`: a number, an optional '-', or a
  // .const / .param symbol.
  uint32_t immediate(ImmType ty, const char* what = "an immediate") {
    Literal l = literal(what);
    if (l.special) {
      if (ty == ImmType::Int) fail(l.first, "float literal '" + l.tok.text + "' where an integer is expected");
      float f = l.tok.text == "inf" ? std::numeric_limits<float>::infinity()
                                    : std::numeric_limits<float>::quiet_NaN();
      return U(l.neg ? -f : f);
    }
    bool isHex = isHexText(l.text);
    if (looksFloatText(l.text)) {
      if (ty == ImmType::Int) fail(l.first, "float literal '" + l.text + "' where an integer is expected");
      float f = parseFloatOrFail(l.tok, l.text);
      return U(l.neg ? -f : f);
    }
    int64_t v = parseIntOrFail(l.tok, l.text);
    if (ty == ImmType::Float && !isHex) {  // decimal integer in f32 context: its float value
      float f = static_cast<float>(v);
      return U(l.neg ? -f : f);
    }
    if (l.neg) {
      if (v > 0x80000000ll) fail(l.first, "integer -" + l.text + " does not fit in 32 bits");
      v = -v;
    }
    return static_cast<uint32_t>(v);
  }

  uint8_t gpr(const char* role) {
    Token t = next();
    if (!isGprToken(t))
      fail(t, std::string("expected a register r0..r63 for ") + role + ", found " + describe(t));
    for (size_t i = 1; i < t.text.size(); ++i)
      if (!isDigit(t.text[i])) fail(t, "malformed register '" + t.text + "' (expected r0..r63)");
    int64_t n = 0;
    if (parseInt(t.text.substr(1), n) != IntParse::Ok || n >= kMaxRegs)
      fail(t, "register '" + t.text + "' out of range (r0..r" + std::to_string(kMaxRegs - 1) + ")");
    if (regsDeclared_ && n >= k_.numRegs)
      fail(t, "register '" + t.text + "' exceeds the kernel's .regs " + std::to_string(k_.numRegs));
    maxReg_ = std::max(maxReg_, static_cast<int>(n));
    return static_cast<uint8_t>(n);
  }

  uint8_t pred(const char* role, bool allowTrue) {
    Token t = next();
    if (t.kind == Token::Ident && t.text == "pt") {
      if (!allowTrue) fail(t, std::string("pt cannot be ") + role);
      return kPredTrue;
    }
    if (t.kind != Token::Ident || t.text.size() != 2 || t.text[0] != 'p' || t.text[1] < '0' ||
        t.text[1] > '6')
      fail(t, std::string("expected a predicate p0..p6") + (allowTrue ? " or pt" : "") + " for " +
                  role + ", found " + describe(t));
    return static_cast<uint8_t>(t.text[1] - '0');
  }

  // rB or an immediate, for formats that allow one as their last source.
  void gprOrImm(Instr& in, uint8_t& field, const char* role) {
    const Token& t = peek();
    if (isGprToken(t)) {
      field = gpr(role);
    } else {
      if (t.kind != Token::Number && t.kind != Token::Ident && !(t.kind == Token::Punct && t.text == "-"))
        fail(t, std::string("expected a register or an immediate for ") + role + ", found " + describe(t));
      in.imm = immediate(immTypeOf(in.op));
      in.hasImm = true;
    }
  }

  // Parses "[rA]", "[rA+off]", "[rA-off]" or "[off]"; returns the column of the '['.
  int memOperand(Instr& in) {
    int col = peek().col;
    expect("[", "'[' to open a memory operand");
    const Token& t = peek();
    int64_t off = 0;
    if (isGprToken(t)) {
      in.a = gpr("the address base");
      in.hasBase = true;
      if (peek().kind == Token::Punct && (peek().text == "+" || peek().text == "-")) {
        bool neg = next().text == "-";
        Token ot = peek();
        off = signedInteger("a memory offset");
        if (neg) off = -off;
        if (off < kMinOffset || off > kMaxOffset)
          fail(ot, "memory offset " + std::to_string(off) + " out of range [" +
                       std::to_string(kMinOffset) + ", " + std::to_string(kMaxOffset) + "]");
      }
    } else {
      Token ot = peek();
      off = signedInteger("a base register or an address");
      if (off < 0 || off > kMaxOffset)
        fail(ot, "absolute address " + std::to_string(off) + " out of range [0, " +
                     std::to_string(kMaxOffset) + "]");
    }
    in.off = static_cast<int32_t>(off);
    expect("]", "']' to close the memory operand");
    return col;
  }

  void comma() { expect(",", "','"); }

  // ld.local / st.local need the kernel's .local size, declared before; an absolute offset
  // must lie inside it.
  void localOperand(const Instr& in, const Token& mnemonic, int col) {
    if (!isLocal(in.op)) return;
    if (k_.localBytes == 0)
      fail(mnemonic, mnemonic.text + " needs a .local size (bytes per thread) declared before the first instruction");
    if (!in.hasBase && static_cast<uint64_t>(in.off) + 4 > k_.localBytes)
      fail(col, "local offset " + std::to_string(in.off) + " is outside the " + std::to_string(k_.localBytes) +
                    " bytes of .local");
  }

  void instruction() {
    if (!kernelSeen_) fail(peek(), "expected .kernel before the first instruction");
    Instr in;
    if (accept("@")) {
      in.guardNeg = accept("!");
      in.guard = pred("guard", true);
      if (in.guard == kPredTrue && in.guardNeg) fail(toks_[pos_ - 1], "'@!pt' would never execute");
    }
    Token m = next();
    if (m.kind != Token::Ident) fail(m, "expected an opcode, found " + describe(m));
    auto op = opByName(m.text);
    if (!op) fail(m, "unknown opcode '" + m.text + "'");
    in.op = *op;
    switch (info(in.op).format) {
      case Format::Unary:
        in.d = gpr("the destination"); comma(); gprOrImm(in, in.a, "source a"); break;
      case Format::Binary:
        in.d = gpr("the destination"); comma(); in.a = gpr("source a"); comma();
        gprOrImm(in, in.b, "source b"); break;
      case Format::Ternary:
        in.d = gpr("the destination"); comma(); in.a = gpr("source a"); comma();
        in.b = gpr("source b"); comma(); in.c = gpr("source c"); break;
      case Format::Select:
        in.d = gpr("the destination"); comma(); in.a = gpr("source a"); comma();
        in.b = gpr("source b"); comma(); in.c = pred("the selector", true); break;
      case Format::Special: {
        in.d = gpr("the destination"); comma();
        Token s = next();
        bool found = false;
        for (int i = 0; i < kNumSpecials && !found; ++i)
          if (s.text == std::string("%") + specialName(static_cast<Special>(i))) { in.a = i; found = true; }
        if (!found) fail(s, "expected a special register (%tid.x, %ntid.y, %ctaid.z, %nctaid.x, %laneid, %warpid, ...), found " + describe(s));
        break;
      }
      case Format::Compare:
        in.d = pred("the destination", false); comma(); in.a = gpr("source a"); comma();
        gprOrImm(in, in.b, "source b"); break;
      case Format::PredBinary:
        in.d = pred("the destination", false); comma(); in.a = pred("source a", true); comma();
        in.b = pred("source b", true); break;
      case Format::PredUnary:
        in.d = pred("the destination", false); comma(); in.a = pred("source a", true); break;
      case Format::Load: {
        in.d = gpr("the destination"); comma();
        int col = memOperand(in);
        if ((in.op == Op::LD_GLOBAL || in.op == Op::LD_GLOBAL_NC) && !in.hasBase)
          fail(col, std::string(info(in.op).name.substr(0, info(in.op).name.size() - 4)) + " needs a base register");
        localOperand(in, m, col);
        break;
      }
      case Format::Store: {
        int col = memOperand(in); comma(); in.b = gpr("the stored value");
        if (in.op == Op::ST_GLOBAL && !in.hasBase) fail(col, "st.global needs a base register");
        localOperand(in, m, col);
        break;
      }
      case Format::Atomic:
      case Format::AtomicCas: {
        in.d = gpr("the destination"); comma();
        int col = memOperand(in); comma(); in.b = gpr("operand b");
        if (info(in.op).format == Format::AtomicCas) { comma(); in.c = gpr("the swap value"); }
        if (in.op <= Op::ATOM_G_CAS && !in.hasBase) fail(col, "global atomics need a base register");
        break;
      }
      case Format::Branch: {
        Token l = next();
        if (l.kind != Token::Ident || !validName(l.text)) fail(l, "expected a label after bra, found " + describe(l));
        branches_.push_back({k_.instrs.size(), l.text, line_, l.col});
        in.hasImm = true;
        break;
      }
      case Format::Barrier:
        in.hasImm = true;
        in.imm = peek().kind == Token::End || (peek().kind == Token::Punct && peek().text == "{")
                     ? 0
                     : static_cast<uint32_t>(intArg("barrier id", 0, 15));
        break;
      case Format::NoOperands:
        break;
    }
    hints(in);
    endOfStatement();
    k_.instrs.push_back(in);
    k_.sourceLines.push_back(line_);
  }

  // Optional hint annotations: {darsie=v|cr|dr, bow=rf|boc|both}
  void hints(Instr& in) {
    if (!accept("{")) return;
    do {
      Token key = next();
      if (key.kind != Token::Ident)
        fail(key, "expected a hint name (darsie or bow), found " + describe(key));
      if (key.text != "darsie" && key.text != "bow")
        fail(key, "unknown hint " + describe(key) + " (expected darsie or bow)");
      expect("=", "'=' after a hint name");
      Token val = next();
      if (key.text == "darsie") {
        if (val.text == "v") in.darsie = Redundancy::Vector;
        else if (val.text == "cr") in.darsie = Redundancy::Conditional;
        else if (val.text == "dr") in.darsie = Redundancy::Definite;
        else fail(val, "expected v, cr or dr for the darsie hint, found " + describe(val));
      } else {
        if (val.text == "rf") in.bow = BowHint::RegisterFile;
        else if (val.text == "boc") in.bow = BowHint::Bypass;
        else if (val.text == "both") in.bow = BowHint::Both;
        else fail(val, "expected rf, boc or both for the bow hint, found " + describe(val));
      }
    } while (accept(","));
    expect("}", "'}' to close the hints");
  }

  void finish() {
    line_ = 0;
    if (!kernelSeen_) throw InputError(file_, 1, 1, "expected a .kernel directive; the file defines no kernel");
    if (k_.instrs.empty())
      throw InputError(file_, kernelLine_, kernelCol_, "kernel '" + k_.name + "' has no instructions");
    for (const auto& b : branches_) {
      auto it = labels_.find(b.label);
      if (it == labels_.end()) throw InputError(file_, b.line, b.col, "undefined label '" + b.label + "'");
      if (it->second >= k_.instrs.size())
        throw InputError(file_, b.line, b.col, "label '" + b.label + "' is past the last instruction");
      k_.instrs[b.index].imm = Kernel::pcOf(it->second);
    }
    // Several labels at one PC: the first defined names it (deterministic disassembly).
    for (const auto& name : labelOrder_) {
      uint32_t index = labels_.at(name);
      if (index < k_.instrs.size()) k_.labels.emplace(Kernel::pcOf(index), name);
    }
    if (!regsDeclared_) k_.numRegs = maxReg_ + 1;
    k_.sourceFile = file_;
    k_.reencode();
  }

  const std::string& text_;
  std::string file_;
  Kernel k_;
  int line_ = 0;
  int kernelLine_ = 1, kernelCol_ = 1;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  bool kernelSeen_ = false, regsDeclared_ = false;
  int maxReg_ = 0;
  std::unordered_map<std::string, uint32_t> labels_;
  std::vector<std::string> labelOrder_;
  std::unordered_map<std::string, std::string> symbols_;
  std::vector<PendingBranch> branches_;
};

}  // namespace

Kernel assemble(const std::string& text, const std::string& fileName) {
  return Assembler(text, fileName).run();
}

Kernel assembleFile(const std::string& path) {
  return assemble(readInputFile(path, "assembly file"), path);
}

}  // namespace simtlm::isa
