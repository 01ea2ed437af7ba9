// PTX compares, conversions and bit fields -> simtlm instructions over virtual registers:
// the families where one PTX instruction may become several (unordered compares, p|q pairs,
// combining operators, packed bit fields) and where PTX's rounding and widths pick the opcode.
#include <algorithm>

#include "isa/diagnostics.h"
#include "isa/ptx/ptx_lowering.h"

namespace simtlm::isa::ptx {

void Lowering::lowerSetp(const std::vector<std::string>& mods, Type t) {
  const auto& o = st_->operands;
  if (mods.size() < 2) notSupported();
  const std::string& cmp = mods[0];
  std::string boolop;
  for (size_t i = 1; i + 1 < mods.size(); ++i) {
    if (mods[i] == "and" || mods[i] == "or" || mods[i] == "xor") boolop = mods[i];
    else notSupported();  // .ftz
  }
  if (t.bits == 64) no64();
  if (t.bits != 32) notSupported();
  need(boolop.empty() ? 3 : 4);
  Op op = Op::NOP;
  bool negate = false, num = false;
  if (t.kind == 'f') {
    static const std::pair<const char*, Op> kOrdered[] = {{"eq", Op::SETP_EQ_F32}, {"ne", Op::SETP_NE_F32}, {"lt", Op::SETP_LT_F32},
                                                          {"le", Op::SETP_LE_F32}, {"gt", Op::SETP_GT_F32}, {"ge", Op::SETP_GE_F32}};
    // Unordered compares are the negation of the opposite ordered one: ltu = !(a >= b).
    static const std::pair<const char*, Op> kUnordered[] = {{"equ", Op::SETP_NE_F32}, {"neu", Op::SETP_EQ_F32}, {"ltu", Op::SETP_GE_F32},
                                                            {"leu", Op::SETP_GT_F32}, {"gtu", Op::SETP_LE_F32}, {"geu", Op::SETP_LT_F32}};
    for (const auto& [n, x] : kOrdered)
      if (cmp == n) op = x;
    for (const auto& [n, x] : kUnordered)
      if (cmp == n) op = x, negate = true;
    if (cmp == "num" || cmp == "nan") num = true, negate = cmp == "nan";
  } else {
    const bool s = t.kind == 's';
    if (cmp == "eq") op = Op::SETP_EQ_B32;
    else if (cmp == "ne") op = Op::SETP_NE_B32;
    else if (t.kind != 'b') {
      if (cmp == "lt" || (cmp == "lo" && !s)) op = s ? Op::SETP_LT_S32 : Op::SETP_LT_U32;
      else if (cmp == "le" || (cmp == "ls" && !s)) op = s ? Op::SETP_LE_S32 : Op::SETP_LE_U32;
      else if (cmp == "gt" || (cmp == "hi" && !s)) op = s ? Op::SETP_GT_S32 : Op::SETP_GT_U32;
      else if (cmp == "ge" || (cmp == "hs" && !s)) op = s ? Op::SETP_GE_S32 : Op::SETP_GE_U32;
    }
  }
  if (op == Op::NOP && !num) notSupported();
  const bool hasQ = !st_->dsts2.empty();
  const bool direct = !negate && boolop.empty() && !hasQ;
  int tv;
  if (num) {  // both operands are numbers: a == a and b == b
    const int ra = gprSrc(o[1]), rb = gprSrc(o[2]);
    const int p1 = newPred(), p2 = newPred();
    VInstr& x = emit(Op::SETP_EQ_F32);
    x.d = p1, x.a = ra, x.b = ra;
    VInstr& y = emit(Op::SETP_EQ_F32);
    y.d = p2, y.a = rb, y.b = rb;
    tv = direct ? predDst(o[0]) : newPred();
    VInstr& z = emit(Op::PAND);
    z.d = tv, z.a = p1, z.b = p2;
  } else {
    Src a = src(o[1]);
    const Src b = src(o[2]);
    const int ra = toReg(a);
    tv = direct ? predDst(o[0]) : newPred();
    VInstr& in = emit(op);
    in.d = tv;
    in.a = ra;
    if (b.imm) in.hasImm = true, in.imm = b.value;
    else in.b = b.reg;
  }
  if (direct) return;
  int t1 = tv;
  if (negate) {
    t1 = newPred();
    VInstr& in = emit(Op::PNOT);
    in.d = t1, in.a = tv;
  }
  const Op bop = boolop == "and" ? Op::PAND : boolop == "or" ? Op::POR : Op::PXOR;
  int c = boolop.empty() ? kNoReg : predSrc(o[3]);
  // q reads c after p is written: when c is p itself, read it from a copy.
  if (hasQ && c != kNoReg && c == predDst(o[0])) {
    VInstr& cp = emit(Op::PAND);
    cp.d = newPred(), cp.a = c, cp.b = kPt;
    c = cp.d;
  }
  int notT = kNoReg;
  if (hasQ) {
    notT = newPred();
    VInstr& in = emit(Op::PNOT);
    in.d = notT, in.a = t1;
  }
  const int p = predDst(o[0]);
  if (boolop.empty()) {
    VInstr& in = emit(Op::PAND);
    in.d = p, in.a = t1, in.b = kPt;
  } else {
    VInstr& in = emit(bop);
    in.d = p, in.a = t1, in.b = c;
  }
  if (hasQ) {
    const int q = predDst(st_->dsts2[0]);
    VInstr& in = emit(boolop.empty() ? Op::PAND : bop);
    in.d = q, in.a = notT, in.b = boolop.empty() ? kPt : c;
  }
}

void Lowering::lowerCvt(const std::vector<std::string>& mods) {
  need(2);
  const auto& o = st_->operands;
  std::string rnd;
  bool ftz = false;
  std::vector<Type> types;
  for (const auto& m : mods) {
    Type x;
    if (parseType(m, x)) types.push_back(x);
    else if (m == "rn" || m == "rz" || m == "rm" || m == "rp" || m == "rni" || m == "rzi" || m == "rmi" || m == "rpi") rnd = m;
    else if (m == "ftz") ftz = true;
    else notSupported();  // .sat ...
  }
  if (types.size() != 2) notSupported();
  const Type d = types[0], s = types[1];
  if (d.kind == 'f' && s.kind == 'f') {
    if (rnd.empty() && !ftz) return unary(Op::MOV_B32, o[0], o[1]);
    const bool ftzMatters = rnd == "rmi" || rnd == "rpi";
    if (ftz && ftzMatters) notSupported();
    if (rnd == "rni") return unary(Op::CVT_RNI_F32_F32, o[0], o[1]);
    if (rnd == "rmi") return unary(Op::CVT_RMI_F32_F32, o[0], o[1]);
    if (rnd == "rpi") return unary(Op::CVT_RPI_F32_F32, o[0], o[1]);
    if (rnd == "rzi") return unary(Op::CVT_RZI_F32_F32, o[0], o[1]);
    notSupported();
  }
  if (d.kind == 'f') {  // from an integer
    if (s.bits == 64) no64();
    if (s.bits != 32 || (rnd != "rn" && !rnd.empty())) notSupported();
    return unary(s.kind == 's' ? Op::CVT_F32_S32 : Op::CVT_F32_U32, o[0], o[1]);
  }
  if (s.kind == 'f') {  // to an integer
    if (d.bits == 64) no64();
    if (d.bits != 32) notSupported();
    if (ftz && (rnd == "rmi" || rnd == "rpi")) notSupported();
    if (d.kind == 's') {
      if (rnd == "rzi") return unary(Op::CVT_S32_F32, o[0], o[1]);
      if (rnd == "rni") return unary(Op::CVT_RNI_S32_F32, o[0], o[1]);
      if (rnd == "rmi") return unary(Op::CVT_RMI_S32_F32, o[0], o[1]);
      if (rnd == "rpi") return unary(Op::CVT_RPI_S32_F32, o[0], o[1]);
    } else if (rnd == "rzi") {
      return unary(Op::CVT_U32_F32, o[0], o[1]);
    }
    notSupported();
  }
  if (!rnd.empty() || ftz) notSupported();
  // Integer to integer. 64-bit values are their low words, so widening and narrowing between
  // 32 and 64 bits are moves; narrower types are extended or truncated as PTX says.
  const int narrow = std::min(d.bits, s.bits);
  if (narrow >= 32) return unary(Op::MOV_B32, o[0], o[1]);
  // Result: the low `narrow` bits, sign-extended when the narrower side is signed (PTX
  // sign-extends from a signed source and truncates to the destination).
  const bool signExtend = (s.bits < d.bits) ? s.kind == 's' : d.kind == 's';
  const Src a = src(o[1]);
  const int ra = toReg(a);
  const int dst = gprDst(o[0]);
  VInstr& in = emit(signExtend ? Op::BFE_S32 : Op::AND_B32);
  in.d = dst, in.a = ra, in.hasImm = true;
  in.imm = signExtend ? static_cast<uint32_t>(narrow) << 8 : (1u << narrow) - 1;
}

void Lowering::lowerBitfield(const std::string& base, Type t) {
  const auto& o = st_->operands;
  if (t.bits == 64) no64();
  if (t.bits != 32) notSupported();
  if (base == "popc") return need(2), unary(Op::POPC_B32, o[0], o[1]);
  if (base == "clz") return need(2), unary(Op::CLZ_B32, o[0], o[1]);
  if (base == "brev") return need(2), unary(Op::BREV_B32, o[0], o[1]);
  const bool insert = base == "bfi";
  need(insert ? 5 : 4);
  const Operand& posOp = o[insert ? 3 : 2];
  const Operand& lenOp = o[insert ? 4 : 3];
  const Src pos = src(posOp), len = src(lenOp);
  Src field;
  if (pos.imm && len.imm) {
    field.imm = true;
    field.value = (pos.value & 0xffu) | (len.value & 0xffu) << 8;
  } else {  // field = (pos & 0xff) | (len & 0xff) << 8
    const int rp = toReg(pos), rl = toReg(len);
    VInstr& p = emit(Op::AND_B32);
    p.d = newGpr(), p.a = rp, p.hasImm = true, p.imm = 0xff;
    const int pm = p.d;
    VInstr& l = emit(Op::AND_B32);
    l.d = newGpr(), l.a = rl, l.hasImm = true, l.imm = 0xff;
    const int lm = l.d;
    VInstr& sh = emit(Op::SHL_B32);
    sh.d = newGpr(), sh.a = lm, sh.hasImm = true, sh.imm = 8;
    const int ls = sh.d;
    VInstr& orr = emit(Op::OR_B32);
    orr.d = newGpr(), orr.a = pm, orr.b = ls;
    field.reg = orr.d;
  }
  if (!insert) {
    const int ra = gprSrc(o[1]);
    const int dst = gprDst(o[0]);
    VInstr& in = emit(t.kind == 's' ? Op::BFE_S32 : Op::BFE_U32);
    in.d = dst, in.a = ra;
    if (field.imm) in.hasImm = true, in.imm = field.value;
    else in.b = field.reg;
    return;
  }
  const int ra = gprSrc(o[1]), rb = gprSrc(o[2]), rf = toReg(field);
  const int dst = gprDst(o[0]);
  VInstr& in = emit(Op::BFI_B32);
  in.d = dst, in.a = ra, in.b = rb, in.c = rf;
}

}  // namespace simtlm::isa::ptx
