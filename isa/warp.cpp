#include "isa/warp.h"

#include <algorithm>
#include <cstring>

#include "isa/cfg.h"
#include "isa/local_memory.h"
#include "isa/semantics.h"

namespace simtlm::isa {
namespace {

const uint32_t kZero[32] = {};

// Bit l of an exec mask, by lane. The per-lane loops below select through this table rather
// than test exec >> l: a shift by a different amount in each lane has no vector form before
// AVX2, so it would keep the compiler from vectorizing them.
constexpr std::array<uint32_t, 32> kLaneBit = [] {
  std::array<uint32_t, 32> bits{};
  for (int l = 0; l < 32; ++l) bits[l] = 1u << l;
  return bits;
}();

void expandPred(uint32_t bits, uint32_t* out, int lanes) {
  for (int l = 0; l < lanes; ++l) out[l] = bits >> l & 1u;
}

uint32_t packPred(const uint32_t* v, uint32_t exec, int lanes) {
  uint32_t bits = 0;
  for (int l = 0; l < lanes; ++l)
    if ((exec >> l & 1u) && (v[l] & 1u)) bits |= 1u << l;
  return bits;
}

}  // namespace

void WarpContext::resetRows() {
  rows_.resize(regs_.size() / static_cast<size_t>(std::max(lanes_, 1)));
  for (size_t r = 0; r < rows_.size(); ++r) rows_[r] = &regs_[r * static_cast<size_t>(lanes_)];
}

// A copy owns its registers: rows mapped elsewhere stay mapped, its own rows point at its copy.
WarpContext::WarpContext(const WarpContext& o)
    : preds_(o.preds_), exited_(o.exited_), liveMask_(o.liveMask_), top_(o.top_), depth_(o.depth_),
      below_(o.below_), lanes_(o.lanes_),
      regs_(o.regs_), rows_(o.rows_), localBase_(o.localBase_), gridThreads_(o.gridThreads_),
      firstThread_(o.firstThread_), specials_(o.specials_) {
  for (size_t r = 0; r < rows_.size(); ++r)
    if (o.rows_[r] == o.privateReg(static_cast<uint8_t>(r))) rows_[r] = privateReg(static_cast<uint8_t>(r));
}

WarpContext& WarpContext::operator=(const WarpContext& o) {
  if (this != &o) *this = WarpContext(o);
  return *this;
}

WarpContext::WarpContext(const Kernel& k, const LaunchConfig& l, const std::array<uint32_t, 3>& ctaid,
                         uint32_t warpInBlock)
    : lanes_(static_cast<int>(l.warpSize)) {
  uint32_t threads = static_cast<uint32_t>(l.block.count());
  uint32_t first = warpInBlock * l.warpSize;
  uint32_t n = std::min(l.warpSize, threads - first);
  liveMask_ = n == 32 ? 0xFFFFFFFFu : ((1u << n) - 1);
  // (wraps for grids beyond 2^32 threads, which cannot have a local space: LaunchConfig::validate)
  localBase_ = l.localBase;
  gridThreads_ = static_cast<uint32_t>(l.grid.count() * threads);
  const uint64_t blockLinear = ctaid[0] + uint64_t{l.grid.x} * (ctaid[1] + uint64_t{l.grid.y} * ctaid[2]);
  firstThread_ = static_cast<uint32_t>(blockLinear * threads + first);
  regs_.assign(static_cast<size_t>(k.numRegs) * lanes_, 0);
  resetRows();
  preds_[kPredTrue] = 0xFFFFFFFFu;
  push({0, Cfg::kNoReconvergence, liveMask_});
  const Dim3& b = l.block;
  for (int lane = 0; lane < lanes_; ++lane) {
    uint32_t t = first + static_cast<uint32_t>(lane);
    auto set = [&](Special s, uint32_t v) { specials_[static_cast<int>(s)][lane] = v; };
    set(Special::TidX, t % b.x);
    set(Special::TidY, (t / b.x) % b.y);
    set(Special::TidZ, t / (b.x * b.y));
    set(Special::NtidX, b.x); set(Special::NtidY, b.y); set(Special::NtidZ, b.z);
    set(Special::CtaidX, ctaid[0]); set(Special::CtaidY, ctaid[1]); set(Special::CtaidZ, ctaid[2]);
    set(Special::NctaidX, l.grid.x); set(Special::NctaidY, l.grid.y); set(Special::NctaidZ, l.grid.z);
    set(Special::LaneId, static_cast<uint32_t>(lane));
    set(Special::WarpId, warpInBlock);
  }
}

void WarpContext::executeAlu(const Instr& in, uint32_t exec, WarpStep* step, StepCapture* cap) {
  const Format f = info(in.op).format;
  const int n = lanes_;
  const uint32_t* a = kZero;
  const uint32_t* b = kZero;
  const uint32_t* c = kZero;
  int sa = 1, sb = 0, sc = 0, srcs = 0;
  uint32_t ta[32], tb[32], tc[32], td[32];
  switch (f) {
    case Format::Special: a = specials_[in.a].data(); srcs = 1; break;
    case Format::Unary:
      if (in.hasImm) { a = &in.imm; sa = 0; } else { a = reg(in.a); }
      srcs = 1;
      break;
    case Format::Binary: case Format::Compare:
      a = reg(in.a);
      if (in.hasImm) { b = &in.imm; } else { b = reg(in.b); sb = 1; }
      srcs = 2;
      break;
    case Format::Ternary: a = reg(in.a); b = reg(in.b); c = reg(in.c); sb = sc = 1; srcs = 3; break;
    case Format::Select:
      a = reg(in.a); b = reg(in.b); sb = 1;
      expandPred(preds_[in.c], tc, n); c = tc; sc = 1; srcs = 3;
      break;
    case Format::PredBinary: case Format::PredUnary:
      expandPred(preds_[in.a], ta, n); a = ta;
      expandPred(preds_[in.b], tb, n); b = tb; sb = 1;
      srcs = f == Format::PredBinary ? 2 : 1;
      break;
    default:
      return;
  }
  if (step) {
    // Sources are captured before the write: the destination may alias a source.
    const uint32_t* ptr[3] = {a, b, c};
    const int stride[3] = {sa, sb, sc};
    for (int i = 0; i < srcs; ++i) {
      if (stride[i]) {
        std::memcpy(cap->src[i], ptr[i], n * 4);
        step->addSource(cap->src[i], 1);
      } else {
        step->addSource(ptr[i], 0);
      }
    }
  }
  if (writesPred(f)) {
    warpAlu(in.op)(a, sa, b, sb, c, sc, td, exec, n);
    preds_[in.d] = (preds_[in.d] & ~exec) | packPred(td, exec, n);
    if (step) {
      expandPred(preds_[in.d], cap->result, n);
      step->result = cap->result;
    }
    return;
  }
  warpAlu(in.op)(a, sa, b, sb, c, sc, reg(in.d), exec, n);
  if (step) step->result = reg(in.d);
}

// Both loops vectorize: a plain one when every lane takes part (the usual case), else a select
// per lane (every lane read, the exec lanes changed). The lane count and offset are locals
// because the stores could alias them for the compiler.
void WarpContext::addresses(const Instr& in, uint32_t exec, uint32_t* addr) const {
  const uint32_t* base = in.hasBase ? reg(in.a) : kZero;
  const uint32_t off = static_cast<uint32_t>(in.off);
  const int n = lanes_;
  if (exec == allLanes()) {
    for (int l = 0; l < n; ++l) addr[l] = base[l] + off;
    return;
  }
  for (int l = 0; l < n; ++l) {
    const uint32_t a = base[l] + off, keep = addr[l];
    addr[l] = exec & kLaneBit[l] ? a : keep;
  }
}

void WarpContext::localToGlobal(uint32_t exec, const uint32_t* offsets, uint32_t* addr) const {
  for (int l = 0; l < lanes_; ++l)
    if (exec >> l & 1u)
      addr[l] = localAddress(localBase_, gridThreads_, firstThread_ + static_cast<uint32_t>(l), offsets[l]);
}

void WarpContext::writeLanes(uint8_t d, const uint32_t* values, uint32_t exec) {
  uint32_t* dst = reg(d);
  const int n = lanes_;
  if (exec == allLanes()) {
    std::memmove(dst, values, sizeof(uint32_t) * static_cast<size_t>(n));
    return;
  }
  for (int l = 0; l < n; ++l) {
    const uint32_t v = values[l], keep = dst[l];
    dst[l] = exec & kLaneBit[l] ? v : keep;
  }
}

bool WarpContext::advance(const Instr& in, uint32_t exec, uint32_t reconvPc) {
  SimtEntry& top = top_;
  const uint32_t next = top.pc + 8;
  bool diverged = false;
  if (in.op == Op::BRA) {
    uint32_t taken = exec, notTaken = activeMask() & ~exec;
    if (taken && notTaken) {
      top.pc = reconvPc;  // this entry continues at the reconvergence point
      push({next, reconvPc, notTaken});
      push({in.imm, reconvPc, taken});
      diverged = true;
    } else {
      top.pc = taken ? in.imm : next;
    }
  } else {
    if (in.op == Op::EXIT) exited_ |= exec;
    top.pc = next;
  }
  settle();
  return diverged;
}

// Pops entries that reached their reconvergence point or whose lanes all exited.
void WarpContext::settle() {
  while (depth_ > 0) {
    const SimtEntry& t = top_;
    if ((t.mask & ~exited_) == 0 || (depth_ > 1 && t.pc == t.rpc)) pop();
    else break;
  }
}

std::vector<SimtEntry> WarpContext::stack() const {
  std::vector<SimtEntry> s = below_;
  if (depth_ > 0) s.push_back(top_);
  return s;
}

}  // namespace simtlm::isa
