// The reference PTX evaluator (see ptx_reference.h), step two: every thread runs the decoded
// instructions (ptx_reference_decode.cpp) from the first to `ret`.
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

#include "tests/ptx/ptx_reference_program.h"

namespace simtlm::test {

namespace {

using namespace ptxref;

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
  const Program prog = ptxref::decode(m, *e, launch);
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
