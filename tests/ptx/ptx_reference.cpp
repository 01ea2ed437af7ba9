// The reference PTX evaluator (see ptx_reference.h). Two steps: decode() turns every statement
// of the entry into an Instr (opcode split into operation, types and modifiers; operands
// resolved to register indices, immediates, specials and addresses), refusing anything outside
// the subset; then every thread runs the decoded instructions from the first to `ret`.
// Semantics follow the PTX ISA specification (the "Instructions" chapter), section by section.
#include "tests/ptx/ptx_reference.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace simtlm::test {

namespace {

using isa::ptx::Entry;
using isa::ptx::Module;
using isa::ptx::Operand;
using isa::ptx::Space;
using isa::ptx::Statement;

// ---------------------------------------------------------------------------------------------
// Types and helpers
// ---------------------------------------------------------------------------------------------

enum class Kind : uint8_t { None, U, S, B, F, Pred };
struct Type {
  Kind kind = Kind::None;
  int bits = 0;
  bool isInt() const { return kind == Kind::U || kind == Kind::S || kind == Kind::B; }
};

bool parseTypeName(const std::string& m, Type& t) {
  if (m == "pred") {
    t = {Kind::Pred, 1};
    return true;
  }
  if (m.size() < 2) return false;
  Kind k;
  switch (m[0]) {
    case 'u': k = Kind::U; break;
    case 's': k = Kind::S; break;
    case 'b': k = Kind::B; break;
    case 'f': k = Kind::F; break;
    default: return false;
  }
  const std::string n = m.substr(1);
  if (n != "8" && n != "16" && n != "32" && n != "64") return false;
  t = {k, std::stoi(n)};
  return true;
}

inline uint64_t maskOf(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
inline int64_t sext(uint64_t v, int bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  const int sh = 64 - bits;
  return static_cast<int64_t>(v << sh) >> sh;
}
inline float asFloat(uint64_t v) {
  const uint32_t w = static_cast<uint32_t>(v);
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}
inline uint32_t bitsOf(float f) {
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}
// The bits of an f32 arithmetic result: a NaN is PTX's canonical NaN.
inline uint32_t fpResult(float f) { return std::isnan(f) ? 0x7fffffffu : bitsOf(f); }

// ---------------------------------------------------------------------------------------------
// Decoded program
// ---------------------------------------------------------------------------------------------

enum class Op : uint8_t {
  Add, Sub, MulLo, MulHi, MulWide, MadLo, MadHi, MadWide, Div, Rem, Min, Max, Abs, Neg,
  And, Or, Xor, Not, Shl, Shr, Popc, Clz, Brev, Bfe, Bfi,
  FAdd, FSub, FMul, FFma, FDiv, FMin, FMax, FAbs, FNeg, FSqrt, FRcp,
  PAnd, POr, PXor, PNot, PMov,
  Setp, Selp, Mov, Cvt, CvtaGlobal, Ld, St, Bra, Ret, Nop,
};

enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };
enum class BoolOp : uint8_t { None, And, Or, Xor };
enum class Rnd : uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi };
enum class Mem : uint8_t { Global, Local, Param, Const };

enum Special : uint8_t { TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ, LaneId, kNumSpecials };

struct Src {
  enum class K : uint8_t { Reg, Imm, Special, Addr, Sink, Vec } k = K::Imm;
  int reg = -1;         // Reg; Addr: the base register or -1
  bool neg = false;     // !%p
  uint64_t imm = 0;     // Imm (also resolved symbol addresses); Addr: the offset, symbol included
  int special = 0;      // Special
  int param = -1;       // Addr of a parameter
  std::vector<Src> elems;  // Vec
};

struct Instr {
  Op op = Op::Nop;
  Type t;            // the instruction type (cvt: destination; mul/mad.wide: the source type)
  Type t2;           // cvt: source type
  Cmp cmp = Cmp::Eq;
  BoolOp bop = BoolOp::None;
  Rnd rnd = Rnd::None;
  Mem space = Mem::Global;
  int vec = 1;
  int guard = -1;
  bool guardNeg = false;
  std::vector<Src> o;
  bool hasQ = false;
  Src q;
  int target = -1;
  int line = 0;
};

struct Program {
  std::vector<Instr> code;
  std::vector<int> regWidth;   // per register: 1 (pred), 8, 16, 32, 64
  std::vector<bool> regIsPred;
  uint32_t localBytes = 0;
};

class Decoder {
 public:
  Decoder(const Module& m, const Entry& e, const isa::LaunchConfig& launch) : m_(m), e_(e), launch_(launch) {}

  Program run() {
    for (const auto& [name, decl] : e_.regs) {
      Type t;
      if (!parseTypeName(decl.type, t)) throw std::runtime_error("ptx reference: register type ." + decl.type + " of " + name);
      regIndex_[name] = static_cast<int>(p_.regWidth.size());
      p_.regWidth.push_back(t.kind == Kind::F && t.bits != 32 ? 0 : t.bits);  // 0: unusable (f16/f64)
      p_.regIsPred.push_back(t.kind == Kind::Pred);
    }
    for (size_t i = 0; i < e_.params.size(); ++i) {
      const auto& prm = e_.params[i];
      if (prm.arrayBytes) throw std::runtime_error("ptx reference: array parameter " + prm.name);
      params_[prm.name] = static_cast<int>(i);
    }
    // Local symbols at offsets from 0, aligned as declared.
    for (const auto& s : e_.symbols) {
      if (s.space == Space::Local) {
        const uint32_t a = std::max<uint32_t>(1, s.align);
        p_.localBytes = (p_.localBytes + a - 1) / a * a;
        localOffset_[s.name] = p_.localBytes;
        p_.localBytes += s.bytes;
      } else {
        otherSymbols_[s.name] = s.space;
      }
    }
    for (const auto& s : m_.symbols) {
      if (localOffset_.count(s.name) || otherSymbols_.count(s.name)) continue;
      otherSymbols_[s.name] = s.space;
    }
    for (const auto& st : e_.body) {
      st_ = &st;
      p_.code.push_back(decode(st));
    }
    return std::move(p_);
  }

 private:
  [[noreturn]] void fail(const std::string& msg) const {
    std::ostringstream os;
    os << "ptx reference: line " << (st_ ? st_->pos.line : 0) << ": '" << (st_ ? st_->opcode : "") << "': " << msg;
    throw std::runtime_error(os.str());
  }

  int regOf(const Operand& o) const {
    auto it = regIndex_.find(o.name);
    if (it == regIndex_.end()) fail("undeclared register " + o.name);
    if (p_.regWidth[it->second] == 0) fail("register " + o.name + " has an unsupported type");
    return it->second;
  }

  // The address of symbol `name` outside an address operand (mov, or a base).
  uint64_t symbolAddress(const std::string& name, Mem* space = nullptr) {
    auto l = localOffset_.find(name);
    if (l != localOffset_.end()) {
      if (space) *space = Mem::Local;
      return l->second;
    }
    auto o = otherSymbols_.find(name);
    if (o == otherSymbols_.end()) {
      if (params_.count(name)) fail("the address of parameter " + name);
      fail("unknown symbol " + name);
    }
    if (o->second == Space::Shared) fail("shared memory is outside the reference's subset");
    if (o->second == Space::Global) fail(".global variables are outside the reference's subset");
    // .const: a hidden parameter after the declared ones, in order of first use.
    auto it = std::find(constOrder_.begin(), constOrder_.end(), name);
    size_t idx = static_cast<size_t>(it - constOrder_.begin());
    if (it == constOrder_.end()) constOrder_.push_back(name);
    const size_t word = e_.params.size() + idx;
    if (word >= launch_.params.size()) fail("no launch parameter word holds the address of .const " + name);
    if (space) *space = Mem::Const;
    return launch_.params[word];
  }

  // A value source: register, immediate, special, or a symbol's address.
  Src value(const Operand& o, bool floatCtx = false) {
    Src s;
    switch (o.kind) {
      case Operand::Kind::Reg:
        s.k = Src::K::Reg;
        s.reg = regOf(o);
        if (p_.regIsPred[s.reg]) fail("predicate " + o.name + " where a value is expected");
        if (o.negated) fail("'!' on a value register");
        return s;
      case Operand::Kind::Imm:
        if (floatCtx) fail("an integer immediate in a floating-point instruction");
        s.k = Src::K::Imm;
        s.imm = o.value;
        return s;
      case Operand::Kind::FloatImm:
        if (o.isDouble) fail("a 0d (f64) immediate");
        s.k = Src::K::Imm;
        s.imm = o.value;
        return s;
      case Operand::Kind::Special: {
        static const std::pair<const char*, Special> kMap[] = {
            {"%tid.x", TidX},       {"%tid.y", TidY},       {"%tid.z", TidZ},       {"%ntid.x", NtidX},
            {"%ntid.y", NtidY},     {"%ntid.z", NtidZ},     {"%ctaid.x", CtaidX},   {"%ctaid.y", CtaidY},
            {"%ctaid.z", CtaidZ},   {"%nctaid.x", NctaidX}, {"%nctaid.y", NctaidY}, {"%nctaid.z", NctaidZ},
            {"%laneid", LaneId}};
        for (const auto& [n, sp] : kMap)
          if (o.name == n) {
            s.k = Src::K::Special;
            s.special = sp;
            return s;
          }
        fail("special register " + o.name);
      }
      case Operand::Kind::Symbol:
        s.k = Src::K::Imm;
        s.imm = symbolAddress(o.name);
        return s;
      default:
        fail("unexpected operand kind");
    }
  }

  Src dest(const Operand& o) {
    if (o.kind == Operand::Kind::Sink) {
      Src s;
      s.k = Src::K::Sink;
      return s;
    }
    if (o.kind != Operand::Kind::Reg) fail("a destination must be a register");
    Src s = value(o);
    return s;
  }

  Src pred(const Operand& o, bool allowImm = false) {
    Src s;
    if (allowImm && o.kind == Operand::Kind::Imm) {
      s.k = Src::K::Imm;
      s.imm = o.value != 0;
      return s;
    }
    if (o.kind == Operand::Kind::Sink) {
      s.k = Src::K::Sink;
      return s;
    }
    if (o.kind != Operand::Kind::Reg) fail("expected a predicate");
    s.k = Src::K::Reg;
    s.reg = regOf(o);
    if (!p_.regIsPred[s.reg]) fail(o.name + " is not a predicate");
    s.neg = o.negated;
    return s;
  }

  Src address(const Operand& o, Mem space) {
    if (o.kind != Operand::Kind::Address) fail("expected an address");
    Src s;
    s.k = Src::K::Addr;
    s.imm = o.value;
    if (o.name.empty()) {
      if (space == Mem::Global || space == Mem::Param) fail("an absolute address");
      return s;
    }
    if (o.baseIsReg) {
      s.reg = regOf(o);
      if (p_.regIsPred[s.reg]) fail("a predicate as an address");
      if (space == Mem::Param) fail("ld.param through a register");
      return s;
    }
    if (space == Mem::Param) {
      auto it = params_.find(o.name);
      if (it == params_.end()) fail("unknown parameter " + o.name);
      s.param = it->second;
      return s;
    }
    Mem symSpace = Mem::Global;
    const uint64_t a = symbolAddress(o.name, &symSpace);
    if (symSpace != space) fail("symbol " + o.name + " is in another state space");
    s.imm += a;
    return s;
  }

  void need(const Statement& st, size_t n) const {
    if (st.operands.size() != n) fail("takes " + std::to_string(n) + " operands");
    if (!st.dsts2.empty() && st.opcode.rfind("setp", 0) != 0) fail("a second destination");
  }

  Instr decode(const Statement& st) {
    Instr in;
    in.line = st.pos.line;
    if (!st.guard.empty()) {
      auto it = regIndex_.find(st.guard);
      if (it == regIndex_.end() || !p_.regIsPred[it->second]) fail("guard " + st.guard + " is not a predicate");
      in.guard = it->second;
      in.guardNeg = st.guardNeg;
    }
    std::vector<std::string> parts;
    {
      std::stringstream ss(st.opcode);
      for (std::string x; std::getline(ss, x, '.');) parts.push_back(x);
    }
    const std::string base = parts.empty() ? "" : parts[0];
    std::vector<std::string> mods(parts.begin() + (parts.empty() ? 0 : 1), parts.end());
    std::vector<Type> types;
    std::vector<std::string> rest;  // modifiers that are not types
    for (const auto& m : mods) {
      Type t;
      if (parseTypeName(m, t)) types.push_back(t);
      else rest.push_back(m);
    }
    for (const auto& t : types)
      if (t.kind == Kind::F && t.bits != 32) fail("f16/f64 are outside the reference's subset");
    auto only = [&](std::initializer_list<const char*> allowed) {
      for (const auto& m : rest) {
        bool ok = false;
        for (const char* a : allowed) ok = ok || m == a;
        if (!ok) fail("modifier ." + m + " is outside the reference's subset");
      }
    };
    auto has = [&](const char* m) { return std::find(rest.begin(), rest.end(), m) != rest.end(); };
    auto oneType = [&]() {
      if (types.size() != 1) fail("expected one type");
      return types[0];
    };
    const auto& o = st.operands;

    if (base == "bar" || base == "barrier") fail("barriers are outside the reference's subset");
    if (base == "atom" || base == "red") fail("atomics are outside the reference's subset");

    // Integer and f32 arithmetic.
    static const std::map<std::string, Op> kIntBinary = {{"add", Op::Add}, {"sub", Op::Sub}, {"div", Op::Div}, {"rem", Op::Rem},
                                                         {"min", Op::Min}, {"max", Op::Max}, {"and", Op::And}, {"or", Op::Or},
                                                         {"xor", Op::Xor}, {"shl", Op::Shl}, {"shr", Op::Shr}};
    if (kIntBinary.count(base) || base == "mul" || base == "mad" || base == "fma" || base == "abs" || base == "neg" ||
        base == "not" || base == "sqrt" || base == "rcp") {
      in.t = oneType();
      if (in.t.kind == Kind::Pred) {
        only({});
        if (base == "not") {
          need(st, 2);
          in.op = Op::PNot;
          in.o = {pred(o[0]), pred(o[1])};
          return in;
        }
        need(st, 3);
        in.op = base == "and" ? Op::PAnd : base == "or" ? Op::POr : base == "xor" ? Op::PXor : Op::Nop;
        if (in.op == Op::Nop) fail("not a predicate operation");
        in.o = {pred(o[0]), pred(o[1]), pred(o[2])};
        return in;
      }
      if (in.t.kind == Kind::F) {
        // f32: round to nearest (the default where PTX allows omitting it); no .ftz / .sat.
        if (base == "fma" || base == "mad") {
          only({"rn"});
          if (!has("rn")) fail("fma/mad.f32 without .rn");
          need(st, 4);
          in.op = Op::FFma;
          in.o = {dest(o[0]), value(o[1], true), value(o[2], true), value(o[3], true)};
          return in;
        }
        if (base == "add" || base == "sub" || base == "mul") {
          only({"rn"});
          need(st, 3);
          in.op = base == "add" ? Op::FAdd : base == "sub" ? Op::FSub : Op::FMul;
          in.o = {dest(o[0]), value(o[1], true), value(o[2], true)};
          return in;
        }
        if (base == "div") {
          only({"rn"});
          if (!has("rn")) fail("div.f32 without .rn (approximate)");
          need(st, 3);
          in.op = Op::FDiv;
          in.o = {dest(o[0]), value(o[1], true), value(o[2], true)};
          return in;
        }
        if (base == "min" || base == "max") {
          only({});
          need(st, 3);
          in.op = base == "min" ? Op::FMin : Op::FMax;
          in.o = {dest(o[0]), value(o[1], true), value(o[2], true)};
          return in;
        }
        if (base == "abs" || base == "neg") {
          only({});
          need(st, 2);
          in.op = base == "abs" ? Op::FAbs : Op::FNeg;
          in.o = {dest(o[0]), value(o[1], true)};
          return in;
        }
        if (base == "sqrt" || base == "rcp") {
          only({"rn"});
          if (!has("rn")) fail(base + ".f32 without .rn (approximate)");
          need(st, 2);
          in.op = base == "sqrt" ? Op::FSqrt : Op::FRcp;
          in.o = {dest(o[0]), value(o[1], true)};
          return in;
        }
        fail("not an f32 operation");
      }
      if (!in.t.isInt() || in.t.bits < 16) fail("integer type expected");
      if (base == "fma" || base == "sqrt" || base == "rcp") fail("integer " + base);
      if (base == "mul" || base == "mad") {
        only({"lo", "hi", "wide"});
        if (rest.size() != 1) fail("mul/mad need exactly one of .lo .hi .wide");
        const bool mad = base == "mad";
        need(st, mad ? 4 : 3);
        if (has("lo")) in.op = mad ? Op::MadLo : Op::MulLo;
        else if (has("hi")) in.op = mad ? Op::MadHi : Op::MulHi;
        else {
          if (in.t.bits == 64) fail(".wide of a 64-bit type");
          in.op = mad ? Op::MadWide : Op::MulWide;
        }
        in.o = {dest(o[0]), value(o[1]), value(o[2])};
        if (mad) in.o.push_back(value(o[3]));
        return in;
      }
      only({});
      if (base == "abs" || base == "neg" || base == "not") {
        need(st, 2);
        in.op = base == "abs" ? Op::Abs : base == "neg" ? Op::Neg : Op::Not;
        if (in.op != Op::Not && in.t.kind != Kind::S) fail("abs/neg need a signed type");
        in.o = {dest(o[0]), value(o[1])};
        return in;
      }
      need(st, 3);
      in.op = kIntBinary.at(base);
      if ((in.op == Op::And || in.op == Op::Or || in.op == Op::Xor || in.op == Op::Shl) && in.t.kind != Kind::B)
        fail("logic and shl take .b types");
      if ((in.op == Op::Div || in.op == Op::Rem || in.op == Op::Min || in.op == Op::Max) && in.t.kind == Kind::B)
        fail("a .b type in an arithmetic operation");
      in.o = {dest(o[0]), value(o[1]), value(o[2])};
      return in;
    }

    if (base == "popc" || base == "clz" || base == "brev" || base == "bfe" || base == "bfi") {
      only({});
      in.t = oneType();
      if (!in.t.isInt() || in.t.bits < 32) fail("needs a 32- or 64-bit integer type");
      if (base == "bfe") {
        if (in.t.kind == Kind::B) fail("bfe takes .u or .s");
        need(st, 4);
        in.op = Op::Bfe;
        in.o = {dest(o[0]), value(o[1]), value(o[2]), value(o[3])};
        return in;
      }
      if (in.t.kind != Kind::B) fail(base + " takes a .b type");
      if (base == "bfi") {
        need(st, 5);
        in.op = Op::Bfi;
        in.o = {dest(o[0]), value(o[1]), value(o[2]), value(o[3]), value(o[4])};
        return in;
      }
      need(st, 2);
      in.op = base == "popc" ? Op::Popc : base == "clz" ? Op::Clz : Op::Brev;
      in.o = {dest(o[0]), value(o[1])};
      return in;
    }

    if (base == "setp") {
      static const std::map<std::string, Cmp> kCmp = {
          {"eq", Cmp::Eq},   {"ne", Cmp::Ne},   {"lt", Cmp::Lt},   {"le", Cmp::Le},   {"gt", Cmp::Gt},   {"ge", Cmp::Ge},
          {"lo", Cmp::Lo},   {"ls", Cmp::Ls},   {"hi", Cmp::Hi},   {"hs", Cmp::Hs},   {"equ", Cmp::Equ}, {"neu", Cmp::Neu},
          {"ltu", Cmp::Ltu}, {"leu", Cmp::Leu}, {"gtu", Cmp::Gtu}, {"geu", Cmp::Geu}, {"num", Cmp::Num}, {"nan", Cmp::Nan}};
      in.op = Op::Setp;
      in.t = oneType();
      if (rest.empty() || !kCmp.count(rest[0])) fail("setp needs a comparison");
      in.cmp = kCmp.at(rest[0]);
      if (rest.size() > 2) fail("too many modifiers");
      if (rest.size() == 2) {
        in.bop = rest[1] == "and" ? BoolOp::And : rest[1] == "or" ? BoolOp::Or : rest[1] == "xor" ? BoolOp::Xor : BoolOp::None;
        if (in.bop == BoolOp::None) fail("modifier ." + rest[1] + " is outside the reference's subset");
      }
      const bool isF = in.t.kind == Kind::F;
      if (in.t.kind == Kind::Pred) fail("setp.pred");
      const int c = static_cast<int>(in.cmp);
      if (isF && (in.cmp == Cmp::Lo || in.cmp == Cmp::Ls || in.cmp == Cmp::Hi || in.cmp == Cmp::Hs)) fail("lo/ls/hi/hs on floats");
      if (!isF && c >= static_cast<int>(Cmp::Equ)) fail("unordered comparison of integers");
      if (in.t.kind == Kind::B && !(in.cmp == Cmp::Eq || in.cmp == Cmp::Ne)) fail("only eq/ne on .b types");
      if (in.t.kind == Kind::S && c >= static_cast<int>(Cmp::Lo)) fail("lo/ls/hi/hs on signed");
      need(st, in.bop == BoolOp::None ? 3 : 4);
      in.o = {pred(o[0]), value(o[1], isF), value(o[2], isF)};
      if (in.bop != BoolOp::None) in.o.push_back(pred(o[3]));
      if (!st.dsts2.empty()) {
        if (st.dsts2.size() != 1) fail("more than two destinations");
        in.hasQ = true;
        in.q = pred(st.dsts2[0]);
      }
      return in;
    }

    if (base == "selp") {
      only({});
      in.op = Op::Selp;
      in.t = oneType();
      if (in.t.kind == Kind::Pred) fail("selp.pred");
      need(st, 4);
      const bool isF = in.t.kind == Kind::F;
      in.o = {dest(o[0]), value(o[1], isF), value(o[2], isF), pred(o[3])};
      return in;
    }

    if (base == "mov") {
      only({});
      in.t = oneType();
      need(st, 2);
      if (o[0].kind == Operand::Kind::Vector || o[1].kind == Operand::Kind::Vector) fail("mov of a vector");
      if (in.t.kind == Kind::Pred) {
        in.op = Op::PMov;
        in.o = {pred(o[0]), pred(o[1], true)};
        return in;
      }
      in.op = Op::Mov;
      in.o = {dest(o[0]), value(o[1], in.t.kind == Kind::F)};
      return in;
    }

    if (base == "cvt") {
      in.op = Op::Cvt;
      if (types.size() != 2) fail("cvt needs two types");
      in.t = types[0];
      in.t2 = types[1];
      if (in.t.kind == Kind::Pred || in.t2.kind == Kind::Pred) fail("cvt of predicates");
      static const std::map<std::string, Rnd> kRnd = {{"rn", Rnd::Rn},   {"rz", Rnd::Rz},   {"rm", Rnd::Rm},   {"rp", Rnd::Rp},
                                                      {"rni", Rnd::Rni}, {"rzi", Rnd::Rzi}, {"rmi", Rnd::Rmi}, {"rpi", Rnd::Rpi}};
      for (const auto& m : rest) {
        auto it = kRnd.find(m);
        if (it == kRnd.end()) fail("modifier ." + m + " is outside the reference's subset");
        in.rnd = it->second;
      }
      const bool dF = in.t.kind == Kind::F, sF = in.t2.kind == Kind::F;
      const bool intRnd = in.rnd == Rnd::Rni || in.rnd == Rnd::Rzi || in.rnd == Rnd::Rmi || in.rnd == Rnd::Rpi;
      if (dF && sF) {
        if (!(in.rnd == Rnd::None || intRnd)) fail("f32 -> f32 with a non-integral rounding");
      } else if (dF) {
        if (!(in.rnd == Rnd::None || in.rnd == Rnd::Rn)) fail("int -> f32 rounds only .rn in the reference");
      } else if (sF) {
        if (!intRnd) fail("f32 -> int needs .rni/.rzi/.rmi/.rpi");
      } else if (in.rnd != Rnd::None) {
        fail("a rounding modifier on an integer conversion");
      }
      need(st, 2);
      in.o = {dest(o[0]), value(o[1], sF)};
      return in;
    }

    if (base == "cvta") {
      // Only the identity conversion between global and generic addresses.
      for (const auto& m : rest)
        if (m != "to" && m != "global") fail("cvta ." + m + " is outside the reference's subset");
      if (!has("global")) fail("cvta other than .global");
      in.op = Op::CvtaGlobal;
      in.t = oneType();
      need(st, 2);
      in.o = {dest(o[0]), value(o[1])};
      return in;
    }

    if (base == "ld" || base == "st" || base == "ldu") {
      in.op = base == "st" ? Op::St : Op::Ld;
      bool haveSpace = false;
      for (const auto& m : rest) {
        if (m == "global") in.space = Mem::Global, haveSpace = true;
        else if (m == "local") in.space = Mem::Local, haveSpace = true;
        else if (m == "param") in.space = Mem::Param, haveSpace = true;
        else if (m == "const") in.space = Mem::Const, haveSpace = true;
        else if (m == "shared") fail("shared memory is outside the reference's subset");
        else if (m == "v2") in.vec = 2;
        else if (m == "v4") in.vec = 4;
        else if (m == "nc" || m == "ca" || m == "cg" || m == "cs" || m == "lu" || m == "cv" || m == "wb" || m == "wt") continue;
        else fail("modifier ." + m + " is outside the reference's subset");
      }
      if (!haveSpace) fail("generic addressing is outside the reference's subset");
      in.t = oneType();
      if (in.t.kind == Kind::Pred) fail("predicate memory access");
      if (base == "st" && (in.space == Mem::Param || in.space == Mem::Const)) fail("a store to a read-only space");
      if (in.space == Mem::Param && in.vec != 1) fail("vector ld.param");
      need(st, 2);
      const Operand& data = o[in.op == Op::Ld ? 0 : 1];
      const Operand& addr = o[in.op == Op::Ld ? 1 : 0];
      Src d;
      if (data.kind == Operand::Kind::Vector) {
        d.k = Src::K::Vec;
        for (const auto& e : data.elems) d.elems.push_back(in.op == Op::Ld ? dest(e) : value(e, in.t.kind == Kind::F));
        if (static_cast<int>(d.elems.size()) != in.vec) fail("vector size mismatch");
      } else {
        if (in.vec != 1) fail("a vector access needs {...}");
        d = in.op == Op::Ld ? dest(data) : value(data, in.t.kind == Kind::F);
      }
      in.o = {d, address(addr, in.space)};
      return in;
    }

    if (base == "bra") {
      only({"uni"});
      need(st, 1);
      in.op = Op::Bra;
      if (o[0].kind != Operand::Kind::Symbol) fail("a branch target must be a label");
      auto it = e_.labels.find(o[0].name);
      if (it == e_.labels.end()) fail("undefined label " + o[0].name);
      in.target = static_cast<int>(it->second);
      return in;
    }
    if (base == "ret" || base == "exit") {
      only({});
      need(st, 0);
      in.op = Op::Ret;
      return in;
    }
    if (base == "membar" || base == "fence") {  // one thread at a time: nothing to order
      in.op = Op::Nop;
      return in;
    }
    fail("outside the reference's subset");
  }

  const Module& m_;
  const Entry& e_;
  const isa::LaunchConfig& launch_;
  const Statement* st_ = nullptr;
  Program p_;
  std::unordered_map<std::string, int> regIndex_;
  std::unordered_map<std::string, int> params_;
  std::unordered_map<std::string, uint32_t> localOffset_;
  std::unordered_map<std::string, Space> otherSymbols_;
  std::vector<std::string> constOrder_;
};

// ---------------------------------------------------------------------------------------------
// Execution
// ---------------------------------------------------------------------------------------------

class Thread {
 public:
  Thread(const Program& p, const isa::LaunchConfig& launch, isa::GlobalMemory& mem)
      : p_(p), launch_(launch), mem_(mem), r_(p.regWidth.size(), 0), local_(p.localBytes, 0) {}

  void run(const uint32_t* specials) {
    sp_ = specials;
    std::fill(r_.begin(), r_.end(), 0);
    std::fill(local_.begin(), local_.end(), 0);
    size_t pc = 0;
    uint64_t steps = 0;
    while (true) {
      if (pc >= p_.code.size()) return;  // falling off the end is `ret`
      if (++steps > 10'000'000) throw std::runtime_error("ptx reference: a thread ran more than 10^7 instructions");
      const Instr& in = p_.code[pc];
      cur_ = &in;
      ++pc;
      if (in.guard >= 0 && ((r_[in.guard] != 0) == in.guardNeg)) continue;
      if (in.op == Op::Bra) {
        pc = static_cast<size_t>(in.target);
        continue;
      }
      if (in.op == Op::Ret) return;
      exec(in);
    }
  }

 private:
  [[noreturn]] void fail(const std::string& msg) const {
    throw std::runtime_error("ptx reference: line " + std::to_string(cur_ ? cur_->line : 0) + ": " + msg);
  }

  uint64_t val(const Src& s, int bits) const {
    switch (s.k) {
      case Src::K::Reg: return r_[s.reg] & maskOf(bits);
      case Src::K::Imm: return s.imm & maskOf(bits);
      case Src::K::Special: return sp_[s.special] & maskOf(bits);
      default: fail("operand is not a value");
    }
  }
  bool pv(const Src& s) const {
    if (s.k == Src::K::Imm) return s.imm != 0;
    return (r_[s.reg] != 0) != s.neg;
  }
  void set(const Src& d, uint64_t v) {
    if (d.k == Src::K::Sink) return;
    r_[d.reg] = v & maskOf(p_.regWidth[d.reg]);
  }
  void setP(const Src& d, bool v) {
    if (d.k == Src::K::Sink) return;
    r_[d.reg] = v ? 1 : 0;
  }

  // Memory ------------------------------------------------------------------------------------

  uint64_t effective(const Src& a) const { return (a.reg >= 0 ? r_[a.reg] : 0) + a.imm; }

  uint64_t load(Mem space, uint64_t addr, int bytes) {
    if (addr % bytes) fail("misaligned access");
    uint64_t v = 0;
    if (space == Mem::Local) {
      if (addr + bytes > local_.size()) fail("local access out of bounds");
      for (int i = 0; i < bytes; ++i) v |= uint64_t{local_[addr + i]} << (8 * i);
      return v;
    }
    if (addr + bytes > (uint64_t{1} << 32)) fail("global address beyond 32 bits");
    const auto* reg = static_cast<const isa::GlobalMemory&>(mem_).find(static_cast<uint32_t>(addr), bytes);
    if (!reg) fail("global access out of bounds");
    for (int i = 0; i < bytes; ++i) v |= uint64_t{reg->bytes[addr - reg->base + i]} << (8 * i);
    return v;
  }
  void store(Mem space, uint64_t addr, int bytes, uint64_t v) {
    if (addr % bytes) fail("misaligned access");
    if (space == Mem::Local) {
      if (addr + bytes > local_.size()) fail("local access out of bounds");
      for (int i = 0; i < bytes; ++i) local_[addr + i] = static_cast<uint8_t>(v >> (8 * i));
      return;
    }
    if (addr + bytes > (uint64_t{1} << 32)) fail("global address beyond 32 bits");
    auto* reg = mem_.find(static_cast<uint32_t>(addr), bytes);
    if (!reg) fail("global access out of bounds");
    for (int i = 0; i < bytes; ++i) reg->bytes[addr - reg->base + i] = static_cast<uint8_t>(v >> (8 * i));
  }

  // A loaded value of type t into a register: sign-extended for signed types.
  uint64_t extendLoaded(uint64_t v, Type t) const { return t.kind == Kind::S ? static_cast<uint64_t>(sext(v, t.bits)) : v; }

  void execMemory(const Instr& in) {
    const Src& data = in.o[0];
    const Src& addr = in.o[1];
    const int bytes = in.t.bits / 8;
    if (in.space == Mem::Param) {
      if (addr.imm != 0) fail("ld.param at an offset inside a parameter");
      if (static_cast<size_t>(addr.param) >= launch_.params.size()) fail("no launch word for the parameter");
      uint64_t v = launch_.params[addr.param];  // a 64-bit parameter: the word zero-extended
      set(data, extendLoaded(v & maskOf(in.t.bits), in.t));
      return;
    }
    const uint64_t a = effective(addr);
    const Mem space = in.space == Mem::Local ? Mem::Local : Mem::Global;
    if (in.op == Op::Ld) {
      std::vector<uint64_t> vals;
      for (int i = 0; i < in.vec; ++i) vals.push_back(load(space, a + uint64_t(i) * bytes, bytes));  // all reads first
      if (in.vec == 1) set(data, extendLoaded(vals[0], in.t));
      else
        for (int i = 0; i < in.vec; ++i) set(data.elems[i], extendLoaded(vals[i], in.t));
      return;
    }
    if (in.vec == 1) store(space, a, bytes, val(data, in.t.bits));
    else
      for (int i = 0; i < in.vec; ++i) store(space, a + uint64_t(i) * bytes, bytes, val(data.elems[i], in.t.bits));
  }

  // Conversions (PTX "cvt") -------------------------------------------------------------------

  uint64_t cvt(const Instr& in, uint64_t a) const {
    const Type d = in.t, s = in.t2;
    if (d.kind != Kind::F && s.kind != Kind::F) {  // integer -> integer: extend by the source, cut to the destination
      const uint64_t x = s.kind == Kind::S ? static_cast<uint64_t>(sext(a, s.bits)) : (a & maskOf(s.bits));
      const uint64_t cut = x & maskOf(d.bits);
      return d.kind == Kind::S ? static_cast<uint64_t>(sext(cut, d.bits)) : cut;
    }
    if (d.kind == Kind::F && s.kind != Kind::F) {  // integer -> f32, round to nearest even
      const float f = s.kind == Kind::S ? static_cast<float>(sext(a, s.bits)) : static_cast<float>(a & maskOf(s.bits));
      return bitsOf(f);
    }
    const float x = asFloat(a);
    if (d.kind == Kind::F) {  // f32 -> f32
      float r;
      switch (in.rnd) {
        case Rnd::None: return a & 0xffffffffu;
        case Rnd::Rni: r = std::nearbyint(x); break;
        case Rnd::Rzi: r = std::trunc(x); break;
        case Rnd::Rmi: r = std::floor(x); break;
        case Rnd::Rpi: r = std::ceil(x); break;
        default: fail("bad rounding");
      }
      return fpResult(r);
    }
    // f32 -> integer: round to an integral value, NaN -> 0, saturate to the destination range.
    if (std::isnan(x)) return 0;
    double r = x;
    switch (in.rnd) {
      case Rnd::Rni: r = std::nearbyint(r); break;
      case Rnd::Rzi: r = std::trunc(r); break;
      case Rnd::Rmi: r = std::floor(r); break;
      case Rnd::Rpi: r = std::ceil(r); break;
      default: fail("bad rounding");
    }
    if (d.kind == Kind::S) {
      const double lo = -std::ldexp(1.0, d.bits - 1), hi = std::ldexp(1.0, d.bits - 1);  // [lo, hi)
      int64_t v;
      if (r < lo) v = static_cast<int64_t>(sext(uint64_t{1} << (d.bits - 1), d.bits));
      else if (r >= hi) v = static_cast<int64_t>(maskOf(d.bits - 1));
      else v = static_cast<int64_t>(r);
      return static_cast<uint64_t>(v);
    }
    const double hi = std::ldexp(1.0, d.bits);
    if (r <= 0) return 0;
    if (r >= hi) return maskOf(d.bits);
    return static_cast<uint64_t>(r);
  }

  // Compares (PTX "setp") ---------------------------------------------------------------------

  static bool compare(Cmp c, Type t, uint64_t a, uint64_t b) {
    if (t.kind == Kind::F) {
      const float x = asFloat(a), y = asFloat(b);
      const bool nan = std::isnan(x) || std::isnan(y);
      switch (c) {
        case Cmp::Eq: return !nan && x == y;
        case Cmp::Ne: return !nan && x != y;
        case Cmp::Lt: return !nan && x < y;
        case Cmp::Le: return !nan && x <= y;
        case Cmp::Gt: return !nan && x > y;
        case Cmp::Ge: return !nan && x >= y;
        case Cmp::Equ: return nan || x == y;
        case Cmp::Neu: return nan || x != y;
        case Cmp::Ltu: return nan || x < y;
        case Cmp::Leu: return nan || x <= y;
        case Cmp::Gtu: return nan || x > y;
        case Cmp::Geu: return nan || x >= y;
        case Cmp::Num: return !nan;
        case Cmp::Nan: return nan;
        default: return false;
      }
    }
    const int64_t sa = sext(a, t.bits), sb = sext(b, t.bits);
    const bool s = t.kind == Kind::S;
    switch (c) {
      case Cmp::Eq: return a == b;
      case Cmp::Ne: return a != b;
      case Cmp::Lt: return s ? sa < sb : a < b;
      case Cmp::Le: return s ? sa <= sb : a <= b;
      case Cmp::Gt: return s ? sa > sb : a > b;
      case Cmp::Ge: return s ? sa >= sb : a >= b;
      case Cmp::Lo: return a < b;
      case Cmp::Ls: return a <= b;
      case Cmp::Hi: return a > b;
      case Cmp::Hs: return a >= b;
      default: return false;
    }
  }

  // Everything else ---------------------------------------------------------------------------

  void exec(const Instr& in) {
    const int N = in.t.bits;
    const uint64_t M = maskOf(N);
    const bool sgn = in.t.kind == Kind::S;
    auto A = [&](int i) { return val(in.o[i], N); };
    switch (in.op) {
      case Op::Add: return set(in.o[0], (A(1) + A(2)) & M);
      case Op::Sub: return set(in.o[0], (A(1) - A(2)) & M);
      case Op::MulLo: return set(in.o[0], (A(1) * A(2)) & M);
      case Op::MulHi:
      case Op::MadHi: {
        uint64_t hi;
        if (sgn) {
          const __int128 p = static_cast<__int128>(sext(A(1), N)) * sext(A(2), N);
          hi = static_cast<uint64_t>(p >> N);
        } else {
          const unsigned __int128 p = static_cast<unsigned __int128>(A(1)) * A(2);
          hi = static_cast<uint64_t>(p >> N);
        }
        if (in.op == Op::MadHi) hi += A(3);
        return set(in.o[0], hi & M);
      }
      case Op::MulWide:
      case Op::MadWide: {
        const uint64_t W = maskOf(2 * N);
        uint64_t p = sgn ? static_cast<uint64_t>(sext(A(1), N) * sext(A(2), N)) : A(1) * A(2);
        if (in.op == Op::MadWide) p += val(in.o[3], 2 * N);
        return set(in.o[0], p & W);
      }
      case Op::MadLo: return set(in.o[0], (A(1) * A(2) + A(3)) & M);
      case Op::Div:
      case Op::Rem: {
        const uint64_t a = A(1), b = A(2);
        if (b == 0) fail("integer division by zero (unspecified in PTX)");
        uint64_t r;
        if (sgn) {
          const int64_t x = sext(a, N), y = sext(b, N);
          const int64_t minv = sext(uint64_t{1} << (N - 1), N);
          if (x == minv && y == -1) r = in.op == Op::Div ? static_cast<uint64_t>(minv) : 0;  // overflow: wraps
          else r = static_cast<uint64_t>(in.op == Op::Div ? x / y : x % y);
        } else {
          r = in.op == Op::Div ? a / b : a % b;
        }
        return set(in.o[0], r & M);
      }
      case Op::Min:
      case Op::Max: {
        const uint64_t a = A(1), b = A(2);
        const bool less = sgn ? sext(a, N) < sext(b, N) : a < b;
        return set(in.o[0], (in.op == Op::Min) == less ? a : b);
      }
      case Op::Abs: {
        const int64_t x = sext(A(1), N);
        return set(in.o[0], static_cast<uint64_t>(x < 0 ? -static_cast<uint64_t>(x) : x) & M);
      }
      case Op::Neg: return set(in.o[0], (0 - A(1)) & M);
      case Op::And: return set(in.o[0], A(1) & A(2));
      case Op::Or: return set(in.o[0], A(1) | A(2));
      case Op::Xor: return set(in.o[0], A(1) ^ A(2));
      case Op::Not: return set(in.o[0], ~A(1) & M);
      case Op::Shl:
      case Op::Shr: {
        // The amount is an unsigned 32-bit operand; amounts beyond the width are clamped to it.
        const uint64_t a = A(1), amt = val(in.o[2], 32);
        uint64_t r;
        if (in.op == Op::Shl) r = amt >= static_cast<uint64_t>(N) ? 0 : (a << amt) & M;
        else if (sgn) r = static_cast<uint64_t>(sext(a, N) >> std::min<uint64_t>(amt, N - 1)) & M;
        else r = amt >= static_cast<uint64_t>(N) ? 0 : a >> amt;
        return set(in.o[0], r);
      }
      case Op::Popc: return set(in.o[0], static_cast<uint64_t>(__builtin_popcountll(A(1))));
      case Op::Clz: {
        const uint64_t a = A(1);
        int n = 0;
        for (int i = N - 1; i >= 0 && !((a >> i) & 1); --i) ++n;
        return set(in.o[0], static_cast<uint64_t>(n));
      }
      case Op::Brev: {
        const uint64_t a = A(1);
        uint64_t r = 0;
        for (int i = 0; i < N; ++i) r |= ((a >> i) & 1) << (N - 1 - i);
        return set(in.o[0], r);
      }
      case Op::Bfe: {
        // PTX: msb = N-1; pos = c & 0xff; len = d & 0xff; sbit = (unsigned or len == 0) ? 0 :
        // a[min(pos+len-1, msb)]; d[i] = (i < len && pos+i <= msb) ? a[pos+i] : sbit.
        const uint64_t a = A(1);
        const uint64_t pos = val(in.o[2], 32) & 0xff, len = val(in.o[3], 32) & 0xff;
        const int msb = N - 1;
        const uint64_t sbit = (!sgn || len == 0) ? 0 : (a >> std::min<uint64_t>(pos + len - 1, msb)) & 1;
        uint64_t r = 0;
        for (int i = 0; i <= msb; ++i) {
          const uint64_t bit = (static_cast<uint64_t>(i) < len && pos + i <= static_cast<uint64_t>(msb)) ? (a >> (pos + i)) & 1 : sbit;
          r |= bit << i;
        }
        return set(in.o[0], r);
      }
      case Op::Bfi: {
        // PTX: f = b; for (i = 0; i < len && pos+i <= msb; i++) f[pos+i] = a[i].
        const uint64_t a = A(1);
        uint64_t f = A(2);
        const uint64_t pos = val(in.o[3], 32) & 0xff, len = val(in.o[4], 32) & 0xff;
        for (uint64_t i = 0; i < len && pos + i <= static_cast<uint64_t>(N - 1); ++i)
          f = (f & ~(uint64_t{1} << (pos + i))) | (((a >> i) & 1) << (pos + i));
        return set(in.o[0], f);
      }
      case Op::FAdd: return set(in.o[0], fpResult(asFloat(A(1)) + asFloat(A(2))));
      case Op::FSub: return set(in.o[0], fpResult(asFloat(A(1)) - asFloat(A(2))));
      case Op::FMul: return set(in.o[0], fpResult(asFloat(A(1)) * asFloat(A(2))));
      case Op::FDiv: return set(in.o[0], fpResult(asFloat(A(1)) / asFloat(A(2))));
      case Op::FFma: return set(in.o[0], fpResult(std::fma(asFloat(A(1)), asFloat(A(2)), asFloat(A(3)))));
      case Op::FSqrt: return set(in.o[0], fpResult(std::sqrt(asFloat(A(1)))));
      case Op::FRcp: return set(in.o[0], fpResult(1.0f / asFloat(A(1))));
      case Op::FMin:
      case Op::FMax: {
        // PTX: a NaN operand gives the other; two NaNs give NaN; -0 < +0.
        const uint64_t a = A(1), b = A(2);
        const float x = asFloat(a), y = asFloat(b);
        const bool nx = std::isnan(x), ny = std::isnan(y);
        uint64_t r;
        if (nx && ny) r = 0x7fffffffu;
        else if (nx) r = b;
        else if (ny) r = a;
        else if (x == y && x == 0.0f) r = in.op == Op::FMin ? (a | b) : (a & b);  // the signs of zeros
        else if (in.op == Op::FMin) r = y < x ? b : a;
        else r = y > x ? b : a;
        return set(in.o[0], r);
      }
      case Op::FAbs: return set(in.o[0], A(1) & 0x7fffffffu);
      case Op::FNeg: return set(in.o[0], A(1) ^ 0x80000000u);
      case Op::PAnd: return setP(in.o[0], pv(in.o[1]) && pv(in.o[2]));
      case Op::POr: return setP(in.o[0], pv(in.o[1]) || pv(in.o[2]));
      case Op::PXor: return setP(in.o[0], pv(in.o[1]) != pv(in.o[2]));
      case Op::PNot: return setP(in.o[0], !pv(in.o[1]));
      case Op::PMov: return setP(in.o[0], pv(in.o[1]));
      case Op::Setp: {
        const bool t = compare(in.cmp, in.t, A(1), A(2));
        bool p = t, q = !t;
        if (in.bop != BoolOp::None) {
          const bool c = pv(in.o[3]);
          auto f = [&](bool x) { return in.bop == BoolOp::And ? x && c : in.bop == BoolOp::Or ? x || c : x != c; };
          p = f(t);
          q = f(!t);
        }
        setP(in.o[0], p);
        if (in.hasQ) setP(in.q, q);
        return;
      }
      case Op::Selp: return set(in.o[0], pv(in.o[3]) ? A(1) : A(2));
      case Op::Mov: return set(in.o[0], A(1));
      case Op::CvtaGlobal: return set(in.o[0], A(1));
      case Op::Cvt: return set(in.o[0], cvt(in, val(in.o[1], in.t2.bits)));
      case Op::Ld:
      case Op::St: return execMemory(in);
      case Op::Nop: return;
      default: fail("internal: unexpected operation");
    }
  }

  const Program& p_;
  const isa::LaunchConfig& launch_;
  isa::GlobalMemory& mem_;
  std::vector<uint64_t> r_;
  std::vector<uint8_t> local_;
  const uint32_t* sp_ = nullptr;
  const Instr* cur_ = nullptr;
};

}  // namespace

void runPtxReference(const isa::ptx::Module& m, const std::string& entry, const isa::LaunchConfig& launch,
                     isa::GlobalMemory& mem) {
  const Entry* e = nullptr;
  for (const auto& x : m.entries)
    if (x.name == entry) e = &x;
  if (!e) throw std::runtime_error("ptx reference: no entry " + entry);
  const Program prog = Decoder(m, *e, launch).run();
  Thread th(prog, launch, mem);
  const isa::Dim3 g = launch.grid, b = launch.block;
  uint32_t sp[kNumSpecials];
  for (uint64_t bl = 0; bl < g.count(); ++bl) {
    const auto bi = g.blockIndex(bl);
    for (uint64_t t = 0; t < b.count(); ++t) {
      const auto ti = b.blockIndex(t);  // the same x-fastest order as blocks in a grid
      sp[TidX] = ti[0], sp[TidY] = ti[1], sp[TidZ] = ti[2];
      sp[NtidX] = b.x, sp[NtidY] = b.y, sp[NtidZ] = b.z;
      sp[CtaidX] = bi[0], sp[CtaidY] = bi[1], sp[CtaidZ] = bi[2];
      sp[NctaidX] = g.x, sp[NctaidY] = g.y, sp[NctaidZ] = g.z;
      sp[LaneId] = static_cast<uint32_t>(t % 32);
      th.run(sp);
    }
  }
}

}  // namespace simtlm::test
