// PTX instructions -> simtlm instructions over virtual registers, one PTX opcode family at a
// time: operands, dispatch, integer and float arithmetic, moves, branches (compares,
// conversions and bit fields: ptx_lower_convert.cpp; memory: ptx_lower_mem.cpp). Where PTX and the simtlm ISA differ, the lowering keeps PTX's meaning or refuses the
// instruction with a message; docs/ptx.md lists every case.
#include <algorithm>
#include <sstream>

#include "isa/diagnostics.h"
#include "isa/ptx/ptx_lowering.h"

namespace simtlm::isa::ptx {

bool parseType(const std::string& m, Lowering::Type& t) {
  if (m == "pred") {
    t = {'p', 1};
    return true;
  }
  if (m.size() < 2) return false;
  const char k = m[0];
  if (k != 'u' && k != 's' && k != 'b' && k != 'f') return false;
  const std::string bits = m.substr(1);
  if (bits != "8" && bits != "16" && bits != "32" && bits != "64") return false;
  t = {k, std::stoi(bits)};
  return true;
}

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string part; std::getline(ss, part, '.');) out.push_back(part);
  return out;
}

bool has(const std::vector<std::string>& mods, const char* m) { return std::find(mods.begin(), mods.end(), m) != mods.end(); }

Special specialOf(const std::string& n, bool& ok) {
  static const std::pair<const char*, Special> kMap[] = {
      {"%tid.x", Special::TidX},       {"%tid.y", Special::TidY},       {"%tid.z", Special::TidZ},
      {"%ntid.x", Special::NtidX},     {"%ntid.y", Special::NtidY},     {"%ntid.z", Special::NtidZ},
      {"%ctaid.x", Special::CtaidX},   {"%ctaid.y", Special::CtaidY},   {"%ctaid.z", Special::CtaidZ},
      {"%nctaid.x", Special::NctaidX}, {"%nctaid.y", Special::NctaidY}, {"%nctaid.z", Special::NctaidZ},
      {"%laneid", Special::LaneId},    {"%warpid", Special::WarpId}};
  for (const auto& [name, s] : kMap)
    if (n == name) {
      ok = true;
      return s;
    }
  ok = false;
  return Special::TidX;
}

}  // namespace

void Lowering::notSupported() const { unsupported(file_, st_->pos, st_->opcode); }

void Lowering::no64() const {
  fail(st_->pos, "64-bit integer arithmetic is not supported ('" + st_->opcode +
                     "'): simtlm lowers 64-bit values to 32-bit addresses (docs/ptx.md)");
}

void Lowering::need(size_t n) {
  if (st_->operands.size() != n)
    fail(st_->pos, "'" + st_->opcode + "' takes " + std::to_string(n) + " operands, not " + std::to_string(st_->operands.size()));
  if (!st_->dsts2.empty() && st_->opcode.rfind("setp", 0) != 0) fail(st_->pos, "only setp has a second destination ('p|q')");
}

VInstr& Lowering::emit(Op op) {
  VInstr in;
  in.op = op;
  in.guard = guard_;
  in.guardNeg = guardNeg_;
  in.line = st_->pos.line;
  body_.push_back(in);
  return body_.back();
}

void Lowering::checkWidth(const Operand& o, int bits) {
  if (o.kind != Operand::Kind::Reg) return;
  const VReg& r = reg(o);
  if (r.width == 0) fail(o.pos, "64-bit floating point (.f64, register '" + o.name + "') is not supported");
  (void)bits;
}

Lowering::Src Lowering::src(const Operand& o) {
  Src s;
  if (o.negated) fail(o.pos, "'!' negates only predicate operands");
  switch (o.kind) {
    case Operand::Kind::Reg: {
      const VReg& r = reg(o);
      if (r.pred) fail(o.pos, "predicate '" + o.name + "' where a value register is expected");
      if (r.width == 0) fail(o.pos, "64-bit floating point (.f64, register '" + o.name + "') is not supported");
      s.reg = r.id;
      return s;
    }
    case Operand::Kind::Imm:
      s.imm = true;
      s.value = static_cast<uint32_t>(o.value);
      return s;
    case Operand::Kind::FloatImm:
      if (o.isDouble) fail(o.pos, "64-bit floating point (a 0d immediate) is not supported");
      s.imm = true;
      s.value = static_cast<uint32_t>(o.value);
      return s;
    case Operand::Kind::Symbol: {
      auto it = symbols_.find(o.name);
      if (it == symbols_.end()) {
        if (params_.count(o.name)) fail(o.pos, "the address of parameter '" + o.name + "' is not supported (read it with ld.param)");
        fail(o.pos, "unknown symbol '" + o.name + "'");
      }
      if (it->second.space == Space::Const) {
        s.reg = constBase(o.name, o.pos);
        return s;
      }
      if (it->second.space == Space::Global) unsupported(file_, o.pos, ".global variable " + o.name + " (a __device__ variable)");
      s.imm = true;  // shared and local symbols are offsets in their space
      s.value = it->second.offset;
      return s;
    }
    case Operand::Kind::Special:
      s.reg = special(o, newGpr());
      return s;
    default:
      fail(o.pos, "expected a register or an immediate in '" + st_->opcode + "'");
  }
}

int Lowering::special(const Operand& o, int dst) {
  bool ok = false;
  const Special sp = specialOf(o.name, ok);
  if (!ok) unsupported(file_, o.pos, o.name);
  VInstr& in = emit(Op::S2R);
  in.d = dst;
  in.a = static_cast<int>(sp);
  return dst;
}

int Lowering::toReg(const Src& s) {
  if (!s.imm) return s.reg;
  VInstr& in = emit(Op::MOV_B32);
  in.d = newGpr();
  in.hasImm = true;
  in.imm = s.value;
  return in.d;
}

int Lowering::gprSrc(const Operand& o) { return toReg(src(o)); }

int Lowering::gprDst(const Operand& o) {
  if (o.kind == Operand::Kind::Sink) return newGpr();
  if (o.kind != Operand::Kind::Reg) fail(o.pos, "expected a destination register in '" + st_->opcode + "'");
  const VReg& r = reg(o);
  if (r.pred) fail(o.pos, "predicate '" + o.name + "' where a value register is expected");
  if (r.width == 0) fail(o.pos, "64-bit floating point (.f64, register '" + o.name + "') is not supported");
  return r.id;
}

int Lowering::predSrc(const Operand& o) {
  if (o.kind != Operand::Kind::Reg || !reg(o).pred) fail(o.pos, "expected a predicate register in '" + st_->opcode + "'");
  const int p = reg(o).id;
  if (!o.negated) return p;
  VInstr& in = emit(Op::PNOT);
  in.d = newPred();
  in.a = p;
  return in.d;
}

int Lowering::predDst(const Operand& o) {
  if (o.kind == Operand::Kind::Sink) return newPred();
  if (o.kind != Operand::Kind::Reg || !reg(o).pred) fail(o.pos, "expected a destination predicate in '" + st_->opcode + "'");
  return reg(o).id;
}

void Lowering::unary(Op op, const Operand& d, const Operand& a) {
  const Src s = src(a);
  const int dst = gprDst(d);
  VInstr& in = emit(op);
  in.d = dst;
  if (s.imm) in.hasImm = true, in.imm = s.value;
  else in.a = s.reg;
}

void Lowering::binary(Op op, const Operand& d, const Operand& a, const Operand& b, bool commutative) {
  Src x = src(a), y = src(b);
  if (x.imm && !y.imm && commutative) std::swap(x, y);
  const int ra = toReg(x);
  const int dst = gprDst(d);
  VInstr& in = emit(op);
  in.d = dst;
  in.a = ra;
  if (y.imm) in.hasImm = true, in.imm = y.value;
  else in.b = y.reg;
}

void Lowering::ternary(Op op, const Operand& d, const Operand& a, const Operand& b, const Operand& c) {
  const int ra = gprSrc(a), rb = gprSrc(b), rc = gprSrc(c);
  const int dst = gprDst(d);
  VInstr& in = emit(op);
  in.d = dst;
  in.a = ra;
  in.b = rb;
  in.c = rc;
}

void Lowering::lowerStatement(const Statement& s) {
  const size_t first = body_.size();
  const int firstTempGpr = code_.numGpr, firstTempPred = code_.numPred;
  lowerOne(s);
  // Temporaries (registers made for this statement) are written in every lane: a guarded write
  // would keep them live from the start of the kernel (lanes that skip it keep the old value),
  // and only this statement reads them. Memory and control instructions keep the guard.
  if (guard_ == kNoReg) return;
  for (size_t i = first; i < body_.size(); ++i) {
    VInstr& in = body_[i];
    const Format f = info(in.op).format;
    const bool alu = f == Format::Unary || f == Format::Binary || f == Format::Ternary || f == Format::Select ||
                     f == Format::Special || f == Format::Compare || f == Format::PredBinary || f == Format::PredUnary;
    const bool pred = writesPred(f);
    if (alu && in.d >= (pred ? firstTempPred : firstTempGpr)) in.guard = kNoReg, in.guardNeg = false;
  }
}

void Lowering::lowerOne(const Statement& s) {
  st_ = &s;
  guard_ = kNoReg;
  guardNeg_ = s.guardNeg;
  if (!s.guard.empty()) {
    auto it = regs_.find(s.guard);
    if (it == regs_.end() || !it->second.pred) fail(s.pos, "guard '" + s.guard + "' is not a declared predicate");
    guard_ = it->second.id;
  }
  const std::vector<std::string> parts = split(s.opcode);
  const std::string& base = parts[0];
  const std::vector<std::string> mods(parts.begin() + 1, parts.end());
  Type t;
  for (const auto& m : mods) {
    Type x;
    if (parseType(m, x)) t = x;
    if (m == "f64") fail(s.pos, "64-bit floating point ('" + s.opcode + "') is not supported");
    if (m == "f16" || m == "bf16" || m == "f16x2" || m == "bf16x2" || m == "tf32") notSupported();
  }
  for (const auto& o : s.operands) checkWidth(o, t.bits);
  static const char* kArith[] = {"add", "sub", "mul", "mad", "div", "rem", "min", "max", "abs", "neg", "and", "or", "xor", "not", "shl", "shr"};
  static const char* kFloatOnly[] = {"fma", "rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos"};
  for (const char* a : kArith)
    if (base == a) return t.kind == 'f' ? lowerFloat(base, mods) : lowerArith(base, mods, t);
  for (const char* a : kFloatOnly)
    if (base == a) {
      if (t.kind != 'f') notSupported();
      return lowerFloat(base, mods);
    }
  if (base == "setp") return lowerSetp(mods, t);
  if (base == "selp") {
    need(4);
    if (t.bits < 32) notSupported();
    const Operand& c = s.operands[3];
    const bool swap = c.negated;
    Operand cp = c;
    cp.negated = false;
    const int p = predSrc(cp);
    const int ra = gprSrc(s.operands[swap ? 2 : 1]), rb = gprSrc(s.operands[swap ? 1 : 2]);
    const int dst = gprDst(s.operands[0]);
    VInstr& in = emit(Op::SELP_B32);
    in.d = dst, in.a = ra, in.b = rb, in.c = p;
    return;
  }
  if (base == "mov") return lowerMov(t);
  if (base == "cvt") return lowerCvt(mods);
  if (base == "cvta") {
    need(2);
    return unary(Op::MOV_B32, s.operands[0], s.operands[1]);
  }
  if (base == "ld" || base == "st" || base == "ldu") return lowerMemory(base, mods);
  if (base == "atom" || base == "red") return lowerAtomic(base, mods);
  if (base == "bra") return lowerBranch(mods);
  if (base == "bar" || base == "barrier") {
    if (mods.empty() || mods[0] != "sync" || (mods.size() > 1 && !(mods.size() == 2 && mods[1] == "aligned"))) notSupported();
    if (s.operands.size() != 1) unsupported(file_, s.pos, s.opcode + " with a thread count");
    const Operand& id = s.operands[0];
    if (id.kind != Operand::Kind::Imm || id.value > 15) fail(id.pos, "the barrier id must be a number 0..15");
    if (guard_ != kNoReg) unsupported(file_, s.pos, "a guarded " + s.opcode);
    VInstr& bar = emit(Op::BAR_SYNC);
    bar.hasImm = true;  // the barrier id is the instruction's immediate
    bar.imm = static_cast<uint32_t>(id.value);
    return;
  }
  if (base == "membar" || base == "fence") {
    emit(Op::MEMBAR);
    return;
  }
  if (base == "ret" || base == "exit") {
    need(0);
    emit(Op::EXIT);
    return;
  }
  if (base == "popc" || base == "clz" || base == "brev" || base == "bfe" || base == "bfi") return lowerBitfield(base, t);
  notSupported();
}

void Lowering::lowerArith(const std::string& base, const std::vector<std::string>& mods, Type t) {
  const auto& o = st_->operands;
  if (t.kind == 'p') {
    if (base == "not") {
      need(2);
      const int a = predSrc(o[1]);
      VInstr& in = emit(Op::PNOT);
      in.d = predDst(o[0]), in.a = a;
      return;
    }
    const Op op = base == "and" ? Op::PAND : base == "or" ? Op::POR : base == "xor" ? Op::PXOR : Op::NOP;
    if (op == Op::NOP) notSupported();
    need(3);
    const int a = predSrc(o[1]), b = predSrc(o[2]);
    VInstr& in = emit(op);
    in.d = predDst(o[0]), in.a = a, in.b = b;
    return;
  }
  for (const auto& m : mods)
    if (m == "sat" || m == "cc" || (m == "hi" && base == "mad")) notSupported();
  const bool wide = has(mods, "wide");
  if (t.bits == 64 || wide) {
    static const char* kLowBits[] = {"add", "sub", "mul", "mad", "shl", "and", "or", "xor", "not", "neg"};
    bool ok = false;
    for (const char* a : kLowBits) ok = ok || base == a;
    if (!ok || has(mods, "hi") || (wide && t.bits != 32)) no64();
  } else if (t.bits != 32) {
    notSupported();
  }
  const bool sgn = t.kind == 's';
  if (base == "add") return need(3), binary(Op::ADD_U32, o[0], o[1], o[2], true);
  if (base == "sub") return need(3), binary(Op::SUB_U32, o[0], o[1], o[2], false);
  if (base == "mul") {
    need(3);
    if (has(mods, "hi")) return binary(sgn ? Op::MUL_HI_S32 : Op::MUL_HI_U32, o[0], o[1], o[2], true);
    if (!has(mods, "lo") && !wide) notSupported();
    return binary(Op::MUL_LO_U32, o[0], o[1], o[2], true);
  }
  if (base == "mad") {
    need(4);
    if (!has(mods, "lo") && !wide) notSupported();
    return ternary(Op::MAD_LO_U32, o[0], o[1], o[2], o[3]);
  }
  if (base == "div") return need(3), binary(sgn ? Op::DIV_S32 : Op::DIV_U32, o[0], o[1], o[2], false);
  if (base == "rem") return need(3), binary(sgn ? Op::REM_S32 : Op::REM_U32, o[0], o[1], o[2], false);
  if (base == "min") return need(3), binary(sgn ? Op::MIN_S32 : Op::MIN_U32, o[0], o[1], o[2], true);
  if (base == "max") return need(3), binary(sgn ? Op::MAX_S32 : Op::MAX_U32, o[0], o[1], o[2], true);
  if (base == "abs") return need(2), unary(Op::ABS_S32, o[0], o[1]);
  if (base == "neg") return need(2), unary(Op::NEG_S32, o[0], o[1]);
  if (base == "and") return need(3), binary(Op::AND_B32, o[0], o[1], o[2], true);
  if (base == "or") return need(3), binary(Op::OR_B32, o[0], o[1], o[2], true);
  if (base == "xor") return need(3), binary(Op::XOR_B32, o[0], o[1], o[2], true);
  if (base == "not") return need(2), unary(Op::NOT_B32, o[0], o[1]);
  if (base == "shl") return need(3), binary(Op::SHL_B32, o[0], o[1], o[2], false);
  if (base == "shr") {
    if (t.bits == 64) no64();
    return need(3), binary(sgn ? Op::SHR_S32 : Op::SHR_U32, o[0], o[1], o[2], false);
  }
  notSupported();
}

void Lowering::lowerFloat(const std::string& base, const std::vector<std::string>& mods) {
  const auto& o = st_->operands;
  bool ftz = false;
  for (const auto& m : mods) {
    if (m == "f32" || m == "rn" || m == "approx" || m == "full") continue;
    if (m == "ftz") {
      ftz = true;
      continue;
    }
    notSupported();  // .rz .rm .rp .sat .NaN .xorsign ...
  }
  // Arithmetic keeps subnormals in the simtlm ISA; only the special functions have .ftz forms.
  const bool sfu = base == "rcp" || base == "sqrt" || base == "rsqrt" || base == "ex2" || base == "lg2" || base == "sin" || base == "cos";
  if (ftz && !sfu) notSupported();
  if (base == "add") return need(3), binary(Op::ADD_F32, o[0], o[1], o[2], true);
  if (base == "sub") return need(3), binary(Op::SUB_F32, o[0], o[1], o[2], false);
  if (base == "mul") return need(3), binary(Op::MUL_F32, o[0], o[1], o[2], true);
  if (base == "fma" || base == "mad") {
    if (!has(mods, "rn")) notSupported();
    return need(4), ternary(Op::FMA_F32, o[0], o[1], o[2], o[3]);
  }
  if (base == "div") return need(3), binary(Op::DIV_F32, o[0], o[1], o[2], false);
  if (base == "min") return need(3), binary(Op::MIN_F32, o[0], o[1], o[2], true);
  if (base == "max") return need(3), binary(Op::MAX_F32, o[0], o[1], o[2], true);
  if (base == "abs") return need(2), unary(Op::ABS_F32, o[0], o[1]);
  if (base == "neg") return need(2), unary(Op::NEG_F32, o[0], o[1]);
  need(2);
  if (base == "rcp") return unary(ftz ? Op::RCP_FTZ_F32 : Op::RCP_F32, o[0], o[1]);
  if (base == "sqrt") return unary(ftz ? Op::SQRT_FTZ_F32 : Op::SQRT_F32, o[0], o[1]);
  if (base == "rsqrt") return unary(ftz ? Op::RSQRT_FTZ_F32 : Op::RSQRT_F32, o[0], o[1]);
  if (base == "ex2") return unary(ftz ? Op::EX2_FTZ_F32 : Op::EX2_F32, o[0], o[1]);
  if (base == "lg2") return unary(ftz ? Op::LG2_FTZ_F32 : Op::LG2_F32, o[0], o[1]);
  if (base == "sin") return unary(ftz ? Op::SIN_FTZ_F32 : Op::SIN_F32, o[0], o[1]);
  if (base == "cos") return unary(ftz ? Op::COS_FTZ_F32 : Op::COS_F32, o[0], o[1]);
  notSupported();
}

void Lowering::lowerMov(Type t) {
  need(2);
  const auto& o = st_->operands;
  if (o[0].kind == Operand::Kind::Vector || o[1].kind == Operand::Kind::Vector) notSupported();  // packing halves
  if (t.kind == 'p') {
    const int d = predDst(o[0]);
    if (o[1].kind == Operand::Kind::Imm) {
      VInstr& in = emit(o[1].value ? Op::POR : Op::PXOR);
      in.d = d, in.a = kPt, in.b = kPt;
      return;
    }
    const int a = predSrc(o[1]);
    VInstr& in = emit(Op::PAND);
    in.d = d, in.a = a, in.b = kPt;
    return;
  }
  if (o[1].kind == Operand::Kind::Special) {
    special(o[1], gprDst(o[0]));
    return;
  }
  unary(Op::MOV_B32, o[0], o[1]);
}

void Lowering::lowerBranch(const std::vector<std::string>& mods) {
  for (const auto& m : mods)
    if (m != "uni") notSupported();
  need(1);
  const Operand& t = st_->operands[0];
  if (t.kind != Operand::Kind::Symbol) fail(t.pos, "a branch target must be a label");
  auto it = entry_.labels.find(t.name);
  if (it == entry_.labels.end()) fail(t.pos, "branch to undefined label '" + t.name + "'");
  // A branch to a bare `ret` is a guarded exit: the lanes leave at once instead of waiting at
  // the end of the kernel, so that the others still reach a bar.sync whole (isa/ISA.md 8).
  if (it->second < entry_.body.size()) {
    const Statement& target = entry_.body[it->second];
    if ((target.opcode == "ret" || target.opcode == "exit") && target.guard.empty()) {
      emit(Op::EXIT);
      return;
    }
  }
  VInstr& bra = emit(Op::BRA);
  bra.hasImm = true;  // the target PC is the instruction's immediate
  bra.label = t.name;
}

}  // namespace simtlm::isa::ptx
