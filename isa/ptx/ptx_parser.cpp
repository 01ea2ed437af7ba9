// PTX text -> Module. A small hand-written lexer and recursive-descent parser for the part of
// the PTX grammar nvcc writes for kernels: module directives, `.entry` with parameters, `.reg`
// / `.shared` / `.local` declarations, labels, guarded instructions and their operands.
#include <cctype>
#include <cstring>

#include "isa/diagnostics.h"
#include "isa/ptx/ptx_module.h"

namespace simtlm::isa::ptx {

void unsupported(const std::string& file, SourcePos pos, const std::string& what) {
  throw InputError(file, pos.line, pos.col, "PTX '" + what + "' is not supported (docs/ptx.md lists the subset)");
}

namespace {

struct Token {
  enum class Kind { Ident, Number, Punct, String, End } kind = Kind::End;
  std::string text;
  SourcePos pos;
};

// Identifiers take PTX's followers of letters: digits, '_', '$', '%', '.' (so that
// `ld.global.f32`, `%tid.x` and `.reg` are single tokens).
bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == '.'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == '.'; }

std::vector<Token> lex(const std::string& text, const std::string& file) {
  std::vector<Token> out;
  int line = 1;
  size_t lineStart = 0;
  const size_t n = text.size();
  for (size_t i = 0; i < n;) {
    const char c = text[i];
    const SourcePos pos{line, static_cast<int>(i - lineStart) + 1};
    if (c == '\n') {
      ++line;
      lineStart = ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      while (i < n && text[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      size_t end = text.find("*/", i + 2);
      if (end == std::string::npos) throw InputError(file, pos.line, pos.col, "unterminated comment");
      for (size_t k = i; k < end; ++k)
        if (text[k] == '\n') ++line, lineStart = k + 1;
      i = end + 2;
      continue;
    }
    Token t;
    t.pos = pos;
    if (identStart(c)) {
      size_t j = i;
      while (j < n && identChar(text[j])) ++j;
      t.kind = Token::Kind::Ident;
      t.text = text.substr(i, j - i);
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < n && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '.')) ++j;
      t.kind = Token::Kind::Number;
      t.text = text.substr(i, j - i);
      i = j;
    } else if (c == '"') {
      size_t j = text.find('"', i + 1);
      if (j == std::string::npos || text.find('\n', i) < j) throw InputError(file, pos.line, pos.col, "unterminated string");
      t.kind = Token::Kind::String;
      t.text = text.substr(i + 1, j - i - 1);
      i = j + 1;
    } else if (std::strchr(",;:[]{}()+-|!@<>=", c)) {
      t.kind = Token::Kind::Punct;
      t.text = std::string(1, c);
      ++i;
    } else {
      throw InputError(file, pos.line, pos.col, "unexpected character '" + std::string(1, c) + "' in PTX");
    }
    out.push_back(std::move(t));
  }
  Token end;
  end.pos = {line, static_cast<int>(n - lineStart) + 1};
  out.push_back(end);
  return out;
}

// Integer literal: decimal, 0x hex, 0b binary, leading-0 octal, optional U suffix; two's
// complement in 64 bits.
bool parseInt(const std::string& s, uint64_t& v) {
  std::string t = s;
  if (!t.empty() && (t.back() == 'U' || t.back() == 'u')) t.pop_back();
  if (t.empty()) return false;
  int base = 10;
  size_t i = 0;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) base = 16, i = 2;
  else if (t.size() > 2 && t[0] == '0' && (t[1] == 'b' || t[1] == 'B')) base = 2, i = 2;
  else if (t.size() > 1 && t[0] == '0') base = 8, i = 1;
  v = 0;
  for (; i < t.size(); ++i) {
    int d;
    char c = t[i];
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return false;
    if (d >= base) return false;
    if (v > (UINT64_MAX - d) / base) return false;
    v = v * base + d;
  }
  return true;
}

class Parser {
 public:
  Parser(const std::string& text, std::string file) : file_(std::move(file)), toks_(lex(text, file_)) {
    mod_.file = file_;
    // nvcc's header: "// Cuda compilation tools, release 13.0, V13.0.88".
    size_t p = text.find("Cuda compilation tools, ");
    if (p != std::string::npos) {
      size_t e = text.find('\n', p);
      mod_.nvccVersion = text.substr(p + 24, e == std::string::npos ? std::string::npos : e - p - 24);
      while (!mod_.nvccVersion.empty() && (mod_.nvccVersion.back() == '\r' || mod_.nvccVersion.back() == ' '))
        mod_.nvccVersion.pop_back();
    }
  }

  Module run() {
    while (peek().kind != Token::Kind::End) topLevel();
    return std::move(mod_);
  }

 private:
  const Token& peek(size_t k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  Token next() {
    Token t = peek();
    if (pos_ < toks_.size() - 1) ++pos_;
    return t;
  }
  [[noreturn]] void fail(const Token& t, const std::string& msg) const {
    throw InputError(file_, t.pos.line, t.pos.col, msg);
  }
  static std::string shown(const Token& t) { return t.kind == Token::Kind::End ? "the end of the file" : "'" + t.text + "'"; }
  bool isPunct(const char* p, size_t k = 0) const { return peek(k).kind == Token::Kind::Punct && peek(k).text == p; }
  void expect(const char* p) {
    if (!isPunct(p)) fail(peek(), "expected '" + std::string(p) + "', found " + shown(peek()));
    next();
  }
  std::string ident(const char* what) {
    if (peek().kind != Token::Kind::Ident) fail(peek(), "expected " + std::string(what) + ", found " + shown(peek()));
    return next().text;
  }
  uint64_t number(const char* what) {
    const Token t = next();
    uint64_t v = 0;
    if (t.kind != Token::Kind::Number || !parseInt(t.text, v)) fail(t, "expected " + std::string(what) + ", found " + shown(t));
    return v;
  }
  void skipToSemicolon() {
    while (peek().kind != Token::Kind::End && !isPunct(";")) next();
    expect(";");
  }

  void topLevel() {
    const Token t = peek();
    if (t.kind != Token::Kind::Ident) fail(t, "expected a PTX directive, found " + shown(t));
    if (t.text == ".version" || t.text == ".address_size") {
      next();
      next();
      return;
    }
    if (t.text == ".target") {
      next();
      mod_.target = ident("a target");
      while (isPunct(",")) next(), ident("a target option");
      return;
    }
    if (t.text == ".visible" || t.text == ".extern" || t.text == ".weak") {
      next();
      return topLevel();
    }
    if (t.text == ".entry") return entry();
    if (t.text == ".func") return func();
    if (t.text == ".const" || t.text == ".shared" || t.text == ".global") {
      Symbol s = symbolDecl();
      mod_.symbols.push_back(s);
      return;
    }
    if (t.text == ".file" || t.text == ".section") fail(t, "debug information (" + t.text + ") is not supported; compile without -g/-lineinfo");
    unsupported(file_, t.pos, t.text);
  }

  // A device function: skipped (an entry that calls it fails at its `call`).
  void func() {
    next();
    int depth = 0;
    while (peek().kind != Token::Kind::End) {
      const Token t = next();
      if (t.kind == Token::Kind::Punct && t.text == ";" && depth == 0) return;  // a declaration
      if (t.kind == Token::Kind::Punct && t.text == "{") ++depth;
      if (t.kind == Token::Kind::Punct && t.text == "}" && --depth == 0) return;
    }
  }

  // `.shared|.local|.const|.global [.align N] .type name[N] [= {...}];`
  Symbol symbolDecl() {
    const Token sp = next();
    Symbol s;
    s.pos = sp.pos;
    s.space = sp.text == ".shared" ? Space::Shared : sp.text == ".local" ? Space::Local
            : sp.text == ".const" ? Space::Const : Space::Global;
    uint32_t elem = 4;
    while (peek().kind == Token::Kind::Ident && peek().text[0] == '.') {
      const Token q = next();
      if (q.text == ".align") s.align = static_cast<uint32_t>(number("an alignment"));
      else if (q.text == ".b8" || q.text == ".u8" || q.text == ".s8") elem = 1;
      else if (q.text == ".b16" || q.text == ".u16" || q.text == ".s16" || q.text == ".f16") elem = 2;
      else if (q.text == ".b32" || q.text == ".u32" || q.text == ".s32" || q.text == ".f32") elem = 4;
      else if (q.text == ".b64" || q.text == ".u64" || q.text == ".s64" || q.text == ".f64") elem = 8;
      else unsupported(file_, q.pos, sp.text + " " + q.text);
    }
    s.name = ident("a symbol name");
    uint64_t count = 1;
    if (isPunct("[")) {
      next();
      if (isPunct("]")) s.unsized = true, count = 0;
      else count = number("an array size");
      expect("]");
    }
    if (count * elem > 0xffffffffull) fail(sp, "symbol '" + s.name + "' is too large");
    s.bytes = static_cast<uint32_t>(count * elem);
    if (isPunct("=")) {
      s.initialized = true;
      while (!isPunct(";") && peek().kind != Token::Kind::End) next();
    }
    expect(";");
    return s;
  }

  void entry() {
    next();
    Entry e;
    e.pos = peek().pos;
    e.name = ident("a kernel name");
    for (const auto& other : mod_.entries)
      if (other.name == e.name) fail(toks_[pos_ - 1], "kernel '" + e.name + "' is defined twice");
    expect("(");
    while (!isPunct(")")) {
      const Token p = peek();
      if (p.text != ".param") fail(p, "expected '.param' or ')', found " + shown(p));
      next();
      Param prm;
      prm.pos = p.pos;
      while (peek().kind == Token::Kind::Ident && peek().text[0] == '.') {
        const std::string q = next().text;
        if (q == ".align") number("an alignment");
        else if (q == ".ptr" || q == ".global" || q == ".const" || q == ".shared" || q == ".local") continue;
        else prm.type = q.substr(1);
      }
      prm.name = ident("a parameter name");
      if (isPunct("[")) {
        next();
        prm.arrayBytes = static_cast<uint32_t>(number("an array size"));
        expect("]");
      }
      e.params.push_back(prm);
      if (isPunct(",")) next();
      else if (!isPunct(")")) fail(peek(), "expected ',' or ')', found " + shown(peek()));
    }
    expect(")");
    // Performance directives (.maxntid 256, 1, 1 ...) do not change what the kernel computes.
    while (peek().kind == Token::Kind::Ident && peek().text[0] == '.' && peek().text != ".entry") {
      next();
      while (peek().kind == Token::Kind::Number || isPunct(",")) next();
    }
    if (isPunct(";")) {  // a declaration without body
      next();
      return;
    }
    expect("{");
    body(e, 1);
    mod_.entries.push_back(std::move(e));
  }

  void body(Entry& e, int depth) {
    while (true) {
      const Token t = peek();
      if (t.kind == Token::Kind::End) fail(t, "kernel '" + e.name + "' has no closing '}'");
      if (isPunct("}")) {
        next();
        return;
      }
      if (isPunct("{")) {  // a nested scope: its declarations are the entry's
        next();
        body(e, depth + 1);
        continue;
      }
      if (t.kind == Token::Kind::Ident && t.text == ".reg") {
        regDecl(e);
        continue;
      }
      if (t.kind == Token::Kind::Ident && (t.text == ".shared" || t.text == ".local" || t.text == ".const" || t.text == ".global")) {
        Symbol s = symbolDecl();
        e.symbols.push_back(s);
        continue;
      }
      if (t.kind == Token::Kind::Ident && (t.text == ".pragma" || t.text == ".loc")) {
        skipToSemicolon();
        continue;
      }
      if (t.kind == Token::Kind::Ident && t.text[0] == '.') unsupported(file_, t.pos, t.text);
      if (t.kind == Token::Kind::Ident && isPunct(":", 1)) {
        const std::string label = next().text;
        next();
        if (e.labels.count(label)) fail(t, "label '" + label + "' is defined twice");
        e.labels[label] = e.body.size();
        continue;
      }
      e.body.push_back(statement());
    }
  }

  // `.reg .type %r<N>;` or `.reg .type %a, %b;`
  void regDecl(Entry& e) {
    next();
    RegDecl d;
    while (peek().kind == Token::Kind::Ident && peek().text[0] == '.') {
      const std::string q = next().text;
      if (q == ".v2" || q == ".v4") unsupported(file_, toks_[pos_ - 1].pos, ".reg " + q);
      d.type = q.substr(1);
    }
    if (d.type.empty()) fail(peek(), "expected a register type");
    while (true) {
      const Token nameTok = peek();
      const std::string name = ident("a register name");
      if (isPunct("<")) {
        next();
        const uint64_t count = number("a register count");
        expect(">");
        if (count > 100000) fail(nameTok, "too many registers declared");
        for (uint64_t i = 0; i < count; ++i) e.regs[name + std::to_string(i)] = d;
      } else {
        e.regs[name] = d;
      }
      if (isPunct(",")) {
        next();
        continue;
      }
      expect(";");
      return;
    }
  }

  Statement statement() {
    Statement s;
    s.pos = peek().pos;
    if (isPunct("@")) {
      next();
      if (isPunct("!")) next(), s.guardNeg = true;
      s.guard = ident("a guard predicate");
    }
    const Token op = peek();
    if (op.kind != Token::Kind::Ident) fail(op, "expected an instruction, found " + shown(op));
    s.opcode = next().text;
    s.pos = op.pos;
    if (s.opcode == "call" || s.opcode.rfind("call.", 0) == 0) unsupported(file_, op.pos, s.opcode);
    while (!isPunct(";")) {
      if (peek().kind == Token::Kind::End) fail(peek(), "expected ';' after '" + s.opcode + "'");
      s.operands.push_back(operand());
      if (isPunct("|")) {  // setp's second destination: p|q
        next();
        s.dsts2.push_back(operand());
      }
      if (isPunct(",")) next();
      else if (!isPunct(";")) fail(peek(), "expected ',' or ';', found " + shown(peek()));
    }
    next();
    return s;
  }

  Operand operand() {
    Operand o;
    o.pos = peek().pos;
    if (isPunct("!")) {
      next();
      o = operand();
      o.negated = true;
      return o;
    }
    if (isPunct("-")) {
      next();
      const Token t = next();
      uint64_t v = 0;
      if (t.kind != Token::Kind::Number || !parseInt(t.text, v)) fail(t, "expected a number after '-'");
      o.kind = Operand::Kind::Imm;
      o.value = 0 - v;
      return o;
    }
    if (isPunct("[")) {
      next();
      o.kind = Operand::Kind::Address;
      if (peek().kind == Token::Kind::Ident) {
        o.name = next().text;
        o.baseIsReg = o.name[0] == '%';
        if (isPunct("+")) {
          next();
          bool neg = false;
          if (isPunct("-")) next(), neg = true;
          uint64_t v = number("an offset");
          o.value = neg ? 0 - v : v;
        } else if (isPunct("-")) {
          next();
          o.value = 0 - number("an offset");
        }
      } else {
        bool neg = false;
        if (isPunct("-")) next(), neg = true;
        uint64_t v = number("an address");
        o.value = neg ? 0 - v : v;
      }
      expect("]");
      return o;
    }
    if (isPunct("{")) {
      next();
      o.kind = Operand::Kind::Vector;
      while (!isPunct("}")) {
        o.elems.push_back(operand());
        if (isPunct(",")) next();
        else if (!isPunct("}")) fail(peek(), "expected ',' or '}', found " + shown(peek()));
      }
      next();
      return o;
    }
    const Token t = next();
    if (t.kind == Token::Kind::Number) {
      if (t.text.size() > 2 && t.text[0] == '0' && (t.text[1] == 'f' || t.text[1] == 'F' || t.text[1] == 'd' || t.text[1] == 'D')) {
        o.kind = Operand::Kind::FloatImm;
        o.isDouble = t.text[1] == 'd' || t.text[1] == 'D';
        if (!parseInt("0x" + t.text.substr(2), o.value) || t.text.size() != (o.isDouble ? 18u : 10u))
          fail(t, "bad floating-point immediate '" + t.text + "'");
        return o;
      }
      if (t.text.find('.') != std::string::npos) fail(t, "PTX writes floating-point immediates as 0f (hex bits), not '" + t.text + "'");
      if (!parseInt(t.text, o.value)) fail(t, "bad integer immediate '" + t.text + "'");
      o.kind = Operand::Kind::Imm;
      return o;
    }
    if (t.kind != Token::Kind::Ident) fail(t, "expected an operand, found " + shown(t));
    o.name = t.text;
    if (o.name == "_") o.kind = Operand::Kind::Sink;
    else if (o.name[0] == '%') o.kind = isSpecialName(o.name) ? Operand::Kind::Special : Operand::Kind::Reg;
    else o.kind = Operand::Kind::Symbol;
    return o;
  }

  static bool isSpecialName(const std::string& n) {
    static const char* kSpecials[] = {"%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%nwarpid",
                                      "%smid", "%nsmid", "%gridid", "%clock", "%clock64", "%lanemask_eq",
                                      "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt",
                                      "%globaltimer", "%dynamic_smem_size", "%total_smem_size", "%envreg"};
    for (const char* s : kSpecials) {
      const size_t len = std::strlen(s);
      if (n.compare(0, len, s) == 0 && (n.size() == len || n[len] == '.' || std::isdigit(static_cast<unsigned char>(n[len])))) return true;
    }
    return false;
  }

  std::string file_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  Module mod_;
};

}  // namespace

Module parseModule(const std::string& text, const std::string& file) { return Parser(text, file).run(); }

}  // namespace simtlm::isa::ptx
