// The random PTX generator's operations (see random_ptx_gen.h): integer, f32, predicate and
// 64-bit operations on the register pools, and the checksum they are folded into.
#include <string>
#include <vector>

#include "tests/ptx/random_ptx_gen.h"

namespace simtlm::test::ptxgen {

// Operations ----------------------------------------------------------------------------------

void Gen::intOp() {
  const int d = pr();
  last_ = r(d);
  const std::string g = maybeGuard();
  static const char* kSU[] = {"s32", "u32"};
  const std::string su = kSU[rng_.below(2)];
  switch (rng_.below(31)) {
    case 30: return narrowConversion(d, g);
    case 0:
    case 1: return ins(g, "add." + su, {r(d), srcR(), srcR()});
    case 2: return ins(g, "sub." + su, {r(d), srcR(), srcR()});
    case 3: return ins(g, "mul.lo." + su, {r(d), r(pr()), srcR()});
    case 4: return ins(g, "mul.hi." + su, {r(d), r(pr()), srcR()});
    case 5: return ins(g, "mad.lo." + su, {r(d), r(pr()), srcR(), srcR()});
    case 6:
    case 7: {  // div / rem with a divisor that is neither 0 nor -1
      const std::string op = (rng_.percent(50) ? "div." : "rem.") + su;
      if (rng_.percent(35)) {
        static const int64_t kDiv[] = {1, 2, 3, 7, 16, 1000, -2, -3, -7, -65536, 2147483647};
        return ins(g, op, {r(d), r(pr()), num(kDiv[rng_.below(sizeof kDiv / sizeof kDiv[0])])});
      }
      const int t = pr();
      ins("and.b32", {r(t), r(pr()), "-2147418113"});  // 0x8000ffff
      ins("or.b32", {r(t), r(t), "1"});
      return ins(g, op, {r(d), srcR(10), r(t)});
    }
    case 8: return ins(g, (rng_.percent(50) ? "min." : "max.") + su, {r(d), r(pr()), srcR()});
    case 9: return ins(g, rng_.percent(50) ? "abs.s32" : "neg.s32", {r(d), r(pr())});
    case 10:
    case 11: {
      static const char* kLogic[] = {"and.b32", "or.b32", "xor.b32"};
      return ins(g, kLogic[rng_.below(3)], {r(d), r(pr()), srcR()});
    }
    case 12: return ins(g, "not.b32", {r(d), r(pr())});
    case 13:
    case 14: {
      static const char* kShift[] = {"shl.b32", "shr.u32", "shr.s32"};
      static const int kAmt[] = {0, 1, 2, 5, 8, 13, 16, 24, 31, 32, 33, 40, 63, 255, 256};
      const std::string amt = rng_.percent(60) ? num(kAmt[rng_.below(sizeof kAmt / sizeof kAmt[0])]) : r(pr());
      return ins(g, kShift[rng_.below(3)], {r(d), r(pr()), amt});
    }
    case 15: {
      static const char* kBits[] = {"popc.b32", "clz.b32", "brev.b32"};
      return ins(g, kBits[rng_.below(3)], {r(d), r(pr())});
    }
    case 16:
    case 17: {
      auto field = [&]() {
        if (rng_.percent(35)) return r(pr());
        // PTX takes immediates 0..255 here; a register may hold more (only its low byte counts).
        static const int kEdge[] = {0, 0, 1, 7, 8, 15, 16, 24, 31, 32, 33, 40, 64, 100, 200, 255};
        return num(rng_.percent(60) ? rng_.between(0, 40) : kEdge[rng_.below(sizeof kEdge / sizeof kEdge[0])]);
      };
      if (rng_.percent(50)) return ins(g, rng_.percent(50) ? "bfe.u32" : "bfe.s32", {r(d), r(pr()), field(), field()});
      return ins(g, "bfi.b32", {r(d), r(pr()), r(pr()), field(), field()});
    }
    case 18: {
      static const char* kSel[] = {"selp.b32", "selp.s32", "selp.u32"};
      return ins(g, kSel[rng_.below(3)], {r(d), srcR(), srcR(), p(pp())});
    }
    case 19:
    case 20: {
      static const char* kCvt[] = {"cvt.rzi.s32.f32", "cvt.rni.s32.f32", "cvt.rmi.s32.f32", "cvt.rpi.s32.f32", "cvt.rzi.u32.f32"};
      return ins(g, kCvt[rng_.percent(50) ? 0 : rng_.below(5)], {r(d), f(pf())});
    }
    case 21: return ins(g, "mov.b32", {r(d), f(pf())});
    case 22: {
      static const char* kSpecial[] = {"%tid.x", "%laneid", "%ctaid.x", "%ntid.x", "%nctaid.x", "%tid.y", "%tid.z",
                                       "%ntid.y", "%ntid.z", "%ctaid.y", "%nctaid.y", "%ctaid.z", "%nctaid.z"};
      return ins(g, "mov.u32", {r(d), kSpecial[rng_.below(13)]});
    }
    case 23: return ins(g, "mov.u32", {r(d), rng_.percent(50) ? intImm() : r(pr())});
    case 24:
      if (poolRd_.empty() || rng_.percent(60)) return narrowConversion(d, g);
      return ins(g, rng_.percent(70) ? "cvt.u32.u64" : "cvt.s32.s64", {r(d), rd(prd())});
    case 25:
    case 26: return indexedLoad(false, d, false, g);
    case 27: return ins(g, "ld.param.u32", {r(d), "[rand_kernel_param_3]"});
    default: return ins(g, (rng_.percent(50) ? "add." : "sub.") + su, {r(d), r(pr()), srcR()});
  }
}

// Conversions through 8- and 16-bit types, as nvcc writes them for char and short: within
// 32-bit registers, or through a 16-bit register.
void Gen::narrowConversion(int d, const std::string& g) {
  if (rng_.percent(50)) {
    static const char* kCvt[] = {"cvt.s32.s8", "cvt.s32.s16", "cvt.u32.u8", "cvt.u32.u16", "cvt.s8.s32",
                                 "cvt.u8.u32", "cvt.s16.s32", "cvt.u16.u32", "cvt.s8.u32", "cvt.u16.s32"};
    return ins(g, kCvt[rng_.below(10)], {r(d), r(pr())});
  }
  static const char* kIn[] = {"cvt.u16.u32", "cvt.s16.s32", "cvt.u8.u32", "cvt.s8.s32"};
  static const char* kOut[] = {"cvt.u32.u16", "cvt.s32.s16", "cvt.u32.u8", "cvt.s32.s8"};
  const int h = newRs();
  ins(kIn[rng_.below(4)], {rs(h), r(pr())});
  ins(g, kOut[rng_.below(4)], {r(d), rs(h)});
}

void Gen::floatOp() {
  const int d = pf();
  last_ = f(d);
  const std::string g = maybeGuard();
  switch (rng_.below(23)) {
    case 0:
    case 1:
    case 2: {
      static const char* kOp[] = {"add", "sub", "mul"};
      return ins(g, std::string(kOp[rng_.below(3)]) + ".rn.f32", {f(d), f(pf()), srcF()});
    }
    case 3: return ins(g, "sub.rn.f32", {f(d), srcF(), f(pf())});
    case 4:
    case 5: return ins(g, rng_.percent(80) ? "fma.rn.f32" : "mad.rn.f32", {f(d), f(pf()), srcF(), srcF()});
    case 19: return ins(g, rng_.percent(50) ? "sqrt.rn.f32" : "rcp.rn.f32", {f(d), f(pf())});
    case 6: return ins(g, "div.rn.f32", {f(d), f(pf()), srcF()});
    case 7:
    case 8: return ins(g, rng_.percent(50) ? "min.f32" : "max.f32", {f(d), srcF(30), srcF()});
    case 9: return ins(g, rng_.percent(50) ? "abs.f32" : "neg.f32", {f(d), f(pf())});
    case 10:
    case 11: return ins(g, rng_.percent(70) ? "cvt.rn.f32.s32" : "cvt.rn.f32.u32", {f(d), r(pr())});
    case 12: {
      static const char* kCvt[] = {"cvt.rmi.f32.f32", "cvt.rni.f32.f32", "cvt.rzi.f32.f32", "cvt.rpi.f32.f32"};
      return ins(g, kCvt[rng_.percent(50) ? 0 : rng_.below(4)], {f(d), f(pf())});
    }
    case 13: return ins(g, "mov.b32", {f(d), r(pr())});
    case 14: return ins(g, "mov.f32", {f(d), rng_.percent(50) ? floatImm() : f(pf())});
    case 15: return ins(g, "selp.f32", {f(d), srcF(), srcF(), p(pp())});
    case 16:
    case 17: return indexedLoad(true, d, false, g);
    case 18: return ins(g, "ld.param.f32", {f(d), "[rand_kernel_param_4]"});
    default: return ins(g, "mul.rn.f32", {f(d), f(pf()), srcF()});
  }
}

// setp into `d` (and sometimes a second predicate), on integers or floats. A guarded setp is
// one the translation lowers to a single compare: simtlm's register allocation takes the
// temporaries of a guarded multi-instruction lowering to be live from the kernel's start,
// and with its 7 predicates and no predicate spilling such kernels are refused
// (the PtxTranslatorLimits tests in tests/isa/ptx_random_test.cpp).
void Gen::setp(int d, bool allowExtras, const std::string& guard) {
  const bool isF = rng_.percent(35);
  const bool single = !guard.empty();
  if (single) allowExtras = false;
  std::string cmp, type;
  if (isF) {
    static const char* kCmp[] = {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
    cmp = kCmp[rng_.below(single ? 6 : 14)];
    type = "f32";
  } else {
    const uint32_t k = rng_.below(3);
    type = k == 0 ? "s32" : k == 1 ? "u32" : "b32";
    static const char* kS[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    static const char* kU[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};
    cmp = type == "b32" ? (rng_.percent(50) ? "eq" : "ne") : type == "s32" ? kS[rng_.below(6)] : kU[rng_.below(10)];
  }
  std::string op = "setp." + cmp;
  std::string c;
  if (allowExtras && rng_.percent(35)) {
    static const char* kBool[] = {"and", "or", "xor"};
    op += std::string(".") + kBool[rng_.below(3)];
    c = (rng_.percent(30) ? "!" : "") + p(pp());
  }
  op += "." + type;
  std::string dst = p(d);
  if (allowExtras && rng_.percent(25) && poolP_.size() > 1) {
    int q = pp();
    while (q == d) q = pp();
    dst += "|" + p(q);
  }
  std::vector<std::string> ops = {dst};
  if (isF) ops.push_back(f(pf())), ops.push_back(srcF(25));
  else ops.push_back(rng_.percent(10) ? intImm() : r(pr())), ops.push_back(srcR(30));
  if (!c.empty()) ops.push_back(c);
  ins(guard, op, ops);
}

void Gen::predOp() {
  const int d = pp();
  last_ = p(d);
  const std::string g = maybeGuard(8);
  switch (rng_.below(8)) {
    case 0: {
      static const char* kOp[] = {"and.pred", "or.pred", "xor.pred"};
      return ins(g, kOp[rng_.below(3)], {p(d), p(pp()), p(pp())});
    }
    case 1: return ins(g, "not.pred", {p(d), p(pp())});
    case 2: return ins(g, "mov.pred", {p(d), p(pp())});
    default: return setp(d, true, g);
  }
}

void Gen::wideOp() {
  if (poolRd_.empty()) return intOp();
  const int d = prd();
  last_ = rd(d);
  const std::string g = maybeGuard();
  switch (rng_.below(12)) {
    case 0: return ins(g, rng_.percent(50) ? "mul.wide.s32" : "mul.wide.u32", {rd(d), r(pr()), srcR()});
    case 1: return ins(g, rng_.percent(50) ? "mad.wide.s32" : "mad.wide.u32", {rd(d), r(pr()), r(pr()), rd(prd())});
    case 2:
    case 3: return ins(g, rng_.percent(50) ? "add.s64" : "sub.s64", {rd(d), rd(prd()), srcRd()});
    case 4: return ins(g, rng_.percent(50) ? "mul.lo.s64" : "mul.lo.u64", {rd(d), rd(prd()), srcRd()});
    case 5: {
      static const char* kLogic[] = {"and.b64", "or.b64", "xor.b64"};
      return ins(g, kLogic[rng_.below(3)], {rd(d), rd(prd()), srcRd()});
    }
    case 6: return ins(g, rng_.percent(50) ? "not.b64" : "neg.s64", {rd(d), rd(prd())});
    case 7: {
      static const int kAmt[] = {0, 1, 4, 31, 32, 33, 63, 64, 100};
      return ins(g, "shl.b64", {rd(d), rd(prd()), rng_.percent(60) ? num(kAmt[rng_.below(9)]) : r(pr())});
    }
    case 8: return ins(g, rng_.percent(50) ? "cvt.u64.u32" : "cvt.s64.s32", {rd(d), r(pr())});
    case 9: return ins(g, "mov.b64", {rd(d), rng_.percent(50) ? imm64() : rd(prd())});
    case 10: return ins(g, "mad.lo.s64", {rd(d), rd(prd()), rd(prd()), rd(prd())});
    default: return ins(g, "add.s64", {rd(d), rd(prd()), rd(prd())});
  }
}

void Gen::simple() {
  const uint32_t k = rng_.below(100);
  last_.clear();
  if (k < 40) intOp();
  else if (k < 65) floatOp();
  else if (k < 78) predOp();
  else if (k < 83) wideOp();
  else if (k < 90) store();
  else if (k < 96) localAccess();
  else vectorLoad();
  if (!last_.empty() && rng_.percent(50)) mix(last_);
}

// Folds a register's value into the thread's checksum (stored at the end), so that results
// that are overwritten later are compared too: acc = (acc ^ x) * 16777619, a bijection of acc.
void Gen::mix(const std::string& reg) {
  std::string x = reg;
  if (reg.rfind("%f", 0) == 0 || reg.rfind("%rd", 0) == 0 || reg.rfind("%p", 0) == 0) {
    const int t = newR();
    if (reg[1] == 'f') ins("mov.b32", {r(t), reg});
    else if (reg[1] == 'r') ins("cvt.u32.u64", {r(t), reg});
    else ins("selp.u32", {r(t), "-1640531527", "2135587861", reg});
    x = r(t);
  }
  ins("xor.b32", {r(acc_), r(acc_), x});
  ins("mul.lo.s32", {r(acc_), r(acc_), "16777619"});
}

}  // namespace simtlm::test::ptxgen
