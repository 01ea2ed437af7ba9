// The reference PTX evaluator, step one (ptx_reference.h): every statement of the entry becomes
// an Instr (opcode split into operation, types and modifiers; operands resolved to register
// indices, immediates, specials and addresses), refusing anything outside the subset.
#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "tests/ptx/ptx_reference_program.h"

namespace simtlm::test::ptxref {

namespace {

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

}  // namespace

Program decode(const Module& m, const Entry& e, const isa::LaunchConfig& launch) { return Decoder(m, e, launch).run(); }

}  // namespace simtlm::test::ptxref
