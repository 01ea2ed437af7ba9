#include "isa/interpreter.h"

#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "isa/diagnostics.h"
#include "isa/semantics.h"

namespace simtlm::isa {

std::string Dim3::str() const {
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

void LaunchConfig::validate(const Kernel& kernel) const {
  auto range = [](const char* what, uint64_t v, uint64_t lo, uint64_t hi) {
    if (v < lo || v > hi)
      throw std::invalid_argument(std::string(what) + " = " + std::to_string(v) + " is outside [" +
                                  std::to_string(lo) + ", " + std::to_string(hi) + "]");
  };
  range("warp size", warpSize, 1, 32);
  range("grid.x", grid.x, 1, 0x7FFFFFFF);
  range("grid.y", grid.y, 1, 65535);
  range("grid.z", grid.z, 1, 65535);
  range("block.x", block.x, 1, 1024);
  range("block.y", block.y, 1, 1024);
  range("block.z", block.z, 1, 64);
  range("threads per block", block.count(), 1, 1024);
  if (params.size() != kernel.params.size()) {
    std::string msg = "kernel '" + kernel.name + "' takes " + std::to_string(kernel.params.size()) +
                      " parameters, launch gives " + std::to_string(params.size());
    for (size_t i = params.size(); i < kernel.params.size(); ++i)
      msg += (i == params.size() ? " (missing '" : ", '") + kernel.params[i].name + "'" +
             (i + 1 == kernel.params.size() ? ")" : "");
    throw std::invalid_argument(msg);
  }
}

namespace {

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

struct StackEntry {
  uint32_t pc, rpc, mask;
};

enum class WarpState { Ready, AtBarrier, Done };

struct Warp {
  std::vector<uint32_t> regs;  // regs[r * W + lane]
  std::array<uint32_t, kNumPreds + 1> preds{};  // lane bit masks; index 7 (pt) is all ones
  std::vector<StackEntry> stack;
  uint32_t exited = 0;
  uint32_t liveMask = 0;  // lanes that exist
  WarpState state = WarpState::Ready;
  uint32_t barrierId = 0, barrierPc = 0;
  std::array<std::vector<uint32_t>, kNumSpecials> specials;
};

// Runs one thread block to completion.
class BlockRunner {
 public:
  BlockRunner(const Kernel& k, GlobalMemory& mem, const LaunchConfig& l,
              const std::vector<uint32_t>& reconv, ExecCounts& counts, ExecObserver* obs)
      : k_(k), mem_(mem), l_(l), reconv_(reconv), counts_(counts), obs_(obs), W_(l.warpSize) {}

  void run(uint32_t bx, uint32_t by, uint32_t bz) {
    ctaid_ = {bx, by, bz};
    blockLinear_ = bx + l_.grid.x * (by + l_.grid.y * bz);
    uint32_t threads = static_cast<uint32_t>(l_.block.count());
    uint32_t numWarps = (threads + W_ - 1) / W_;
    shared_.assign(k_.sharedBytes, 0);
    warps_.assign(numWarps, Warp{});
    for (uint32_t w = 0; w < numWarps; ++w) initWarp(w, threads);
    if (obs_) obs_->onBlockStart(blockLinear_, numWarps);
    counts_.blocks++;
    counts_.warps += numWarps;
    counts_.threads += threads;

    constexpr int kQuantum = 256;
    uint32_t done = 0;
    while (done < numWarps) {
      bool progress = false;
      for (uint32_t w = 0; w < numWarps; ++w) {
        Warp& warp = warps_[w];
        if (warp.state != WarpState::Ready) continue;
        for (int q = 0; q < kQuantum && warp.state == WarpState::Ready; ++q) step(w, warp);
        progress = true;
        if (warp.state == WarpState::Done) ++done;
      }
      if (done == numWarps) break;
      if (!releaseBarriers() && !progress) deadlock();
    }
    if (obs_) obs_->onBlockEnd(blockLinear_);
  }

 private:
  void initWarp(uint32_t w, uint32_t threads) {
    Warp& warp = warps_[w];
    warp.regs.assign(static_cast<size_t>(k_.numRegs) * W_, 0);
    uint32_t first = w * W_;
    uint32_t n = std::min(W_, threads - first);
    warp.liveMask = n == 32 ? 0xFFFFFFFFu : ((1u << n) - 1);
    warp.preds[kPredTrue] = 0xFFFFFFFFu;
    warp.stack.push_back({0, Cfg::kNoReconvergence, warp.liveMask});
    for (auto& s : warp.specials) s.assign(W_, 0);
    const Dim3& b = l_.block;
    for (uint32_t lane = 0; lane < W_; ++lane) {
      uint32_t t = first + lane;
      auto set = [&](Special s, uint32_t v) { warp.specials[static_cast<int>(s)][lane] = v; };
      set(Special::TidX, t % b.x);
      set(Special::TidY, (t / b.x) % b.y);
      set(Special::TidZ, t / (b.x * b.y));
      set(Special::NtidX, b.x); set(Special::NtidY, b.y); set(Special::NtidZ, b.z);
      set(Special::CtaidX, ctaid_[0]); set(Special::CtaidY, ctaid_[1]); set(Special::CtaidZ, ctaid_[2]);
      set(Special::NctaidX, l_.grid.x); set(Special::NctaidY, l_.grid.y); set(Special::NctaidZ, l_.grid.z);
      set(Special::LaneId, lane);
      set(Special::WarpId, w);
    }
  }

  [[noreturn]] __attribute__((cold, noinline)) void fault(uint32_t w, int lane, uint32_t pc, const std::string& what,
                          const uint32_t* addr = nullptr) {
    std::ostringstream s;
    s << "kernel '" << k_.name << "': " << what << " (block " << blockDim3() << ", warp " << w;
    if (lane >= 0) s << ", lane " << lane;
    s << ", PC " << hex(pc);
    if (addr) s << ", address " << hex(*addr);
    size_t idx = Kernel::indexOf(pc);
    if (idx < k_.sourceLines.size() && k_.sourceLines[idx])
      s << ", " << k_.sourceFile << ":" << k_.sourceLines[idx];
    s << ")";
    throw ExecError(s.str());
  }

  std::string blockDim3() const {
    return "(" + std::to_string(ctaid_[0]) + "," + std::to_string(ctaid_[1]) + "," +
           std::to_string(ctaid_[2]) + ")";
  }

  uint32_t* reg(Warp& w, uint8_t r) { return &w.regs[static_cast<size_t>(r) * W_]; }

  // Address of one lane's 32-bit access, checked for alignment and bounds.
  enum class Space { Global, Shared, Param };
  static Space spaceOf(OpClass cls) {
    if (cls == OpClass::LoadParam) return Space::Param;
    if (cls == OpClass::LoadShared || cls == OpClass::StoreShared || cls == OpClass::AtomicShared)
      return Space::Shared;
    return Space::Global;
  }

  // Address of one lane's 32-bit access, checked for alignment and bounds.
  uint8_t* access(uint32_t w, int lane, uint32_t pc, Space space, uint32_t addr) {
    if (addr & 3) fault(w, lane, pc, "misaligned 32-bit access", &addr);
    if (space == Space::Shared) {
      if (static_cast<uint64_t>(addr) + 4 > shared_.size())
        fault(w, lane, pc, "shared memory access out of bounds (" + std::to_string(shared_.size()) + " bytes)", &addr);
      return &shared_[addr];
    }
    if (space == Space::Param) {
      if (static_cast<uint64_t>(addr) + 4 > l_.params.size() * 4)
        fault(w, lane, pc, "parameter access out of bounds (" + std::to_string(l_.params.size() * 4) + " bytes)", &addr);
      return reinterpret_cast<uint8_t*>(const_cast<uint32_t*>(l_.params.data())) + addr;
    }
    GlobalMemory::Region* r = mem_.find(addr, 4);
    if (!r) fault(w, lane, pc, "global memory access outside every buffer", &addr);
    return &r->bytes[addr - r->base];
  }


  void step(uint32_t wi, Warp& w) {
    StackEntry& top = w.stack.back();
    uint32_t pc = top.pc;
    size_t idx = Kernel::indexOf(pc);
    if (idx >= k_.instrs.size()) fault(wi, -1, pc, "PC past the last instruction (missing exit?)");
    if (++counts_.warpInstructions > l_.maxWarpInstructions)
      fault(wi, -1, pc, "watchdog: more than " + std::to_string(l_.maxWarpInstructions) +
                            " warp instructions executed (endless loop?)");
    const Instr& in = k_.instrs[idx];
    const OpInfo& oi = info(in.op);
    uint32_t active = top.mask & ~w.exited;
    uint32_t guard = w.preds[in.guard];
    uint32_t exec = active & (in.guardNeg ? ~guard : guard);
    int activeCount = __builtin_popcount(active);
    counts_.threadInstructions += activeCount;
    counts_.warpByClass[static_cast<int>(oi.cls)]++;
    counts_.threadByClass[static_cast<int>(oi.cls)] += activeCount;

    WarpStep ev;
    bool observe = obs_ != nullptr;
    if (observe) {
      ev.blockLinear = blockLinear_;
      ev.warp = wi;
      ev.pc = pc;
      ev.instr = &in;
      ev.activeMask = active;
      ev.execMask = exec;
      ev.warpMask = w.liveMask;
      ev.lanes = static_cast<int>(W_);
    }
    auto addSrc = [&](const uint32_t* p, int stride) {
      ev.src[ev.numSrcs] = p;
      ev.srcStride[ev.numSrcs++] = stride;
    };
    uint32_t nextPc = pc + 8;
    const int n = static_cast<int>(W_);

    switch (oi.format) {
      case Format::Unary: case Format::Binary: case Format::Ternary: case Format::Select:
      case Format::Special: {
        const uint32_t* a;
        const uint32_t* b = zero_;
        const uint32_t* c = zero_;
        int sa = 1, sb = 0, sc = 0;
        if (oi.format == Format::Special) {
          if (in.a >= kNumSpecials) fault(wi, -1, pc, "unknown special register");
          a = w.specials[in.a].data();
        } else if (oi.format == Format::Unary && in.hasImm) {
          a = &in.imm; sa = 0;
        } else {
          a = reg(w, in.a);
        }
        if (oi.format == Format::Binary) {
          if (in.hasImm) b = &in.imm; else { b = reg(w, in.b); sb = 1; }
        } else if (oi.format == Format::Ternary || oi.format == Format::Select) {
          b = reg(w, in.b); sb = 1;
          if (oi.format == Format::Ternary) { c = reg(w, in.c); sc = 1; }
          else { expandPred(w.preds[in.c], tmpC_); c = tmpC_; sc = 1; }
        }
        int srcs = oi.format == Format::Unary || oi.format == Format::Special ? 1
                 : oi.format == Format::Binary ? 2 : 3;
        uint32_t* d = reg(w, in.d);
        if (observe) {
          // Sources are captured before the write (d may alias a source).
          const uint32_t* srcPtr[3] = {a, b, c};
          int strides[3] = {sa, sb, sc};
          for (int i = 0; i < srcs; ++i) {
            if (strides[i]) { std::memcpy(srcCopy_[i], srcPtr[i], n * 4); addSrc(srcCopy_[i], 1); }
            else addSrc(srcPtr[i], 0);
          }
        }
        warpAlu(in.op)(a, sa, b, sb, c, sc, d, exec, n);
        if (observe) ev.result = d;
        break;
      }
      case Format::Compare: {
        const uint32_t* a = reg(w, in.a);
        const uint32_t* b = in.hasImm ? &in.imm : reg(w, in.b);
        int sb = in.hasImm ? 0 : 1;
        warpAlu(in.op)(a, 1, b, sb, zero_, 0, tmpD_, exec, n);
        uint32_t bits = 0;
        for (int l = 0; l < n; ++l)
          if ((exec >> l & 1u) && tmpD_[l]) bits |= 1u << l;
        w.preds[in.d] = (w.preds[in.d] & ~exec) | bits;
        if (observe) { addSrc(a, 1); addSrc(b, sb); expandPred(w.preds[in.d], tmpR_); ev.result = tmpR_; }
        break;
      }
      case Format::PredBinary: case Format::PredUnary: {
        expandPred(w.preds[in.a], tmpA_);
        expandPred(w.preds[in.b], tmpB_);
        warpAlu(in.op)(tmpA_, 1, tmpB_, 1, zero_, 0, tmpD_, exec, n);
        uint32_t bits = 0;
        for (int l = 0; l < n; ++l)
          if ((exec >> l & 1u) && (tmpD_[l] & 1u)) bits |= 1u << l;
        w.preds[in.d] = (w.preds[in.d] & ~exec) | bits;
        if (observe) {
          addSrc(tmpA_, 1);
          if (oi.format == Format::PredBinary) addSrc(tmpB_, 1);
          expandPred(w.preds[in.d], tmpR_);
          ev.result = tmpR_;
        }
        break;
      }
      case Format::Load: {
        const Space space = spaceOf(oi.cls);
        uint32_t* d = reg(w, in.d);
        const uint32_t* base = in.hasBase ? reg(w, in.a) : zero_;
        int sbase = in.hasBase ? 1 : 0;
        for (int l = 0; l < n; ++l) {
          if (!(exec >> l & 1u)) continue;
          tmpA_[l] = base[l * sbase] + static_cast<uint32_t>(in.off);
          std::memcpy(&tmpR_[l], access(wi, l, pc, space, tmpA_[l]), 4);
        }
        for (int l = 0; l < n; ++l)
          if (exec >> l & 1u) d[l] = tmpR_[l];
        if (observe) { addSrc(tmpA_, 1); ev.result = d; }
        break;
      }
      case Format::Store: {
        const Space space = spaceOf(oi.cls);
        const uint32_t* base = in.hasBase ? reg(w, in.a) : zero_;
        int sbase = in.hasBase ? 1 : 0;
        const uint32_t* v = reg(w, in.b);
        for (int l = 0; l < n; ++l) {
          if (!(exec >> l & 1u)) continue;
          tmpA_[l] = base[l * sbase] + static_cast<uint32_t>(in.off);
          std::memcpy(access(wi, l, pc, space, tmpA_[l]), &v[l], 4);
        }
        if (observe) { addSrc(tmpA_, 1); addSrc(v, 1); }
        break;
      }
      case Format::Atomic: case Format::AtomicCas: {
        const Space space = spaceOf(oi.cls);
        // Shared atomics may address [offset] without a base register, like loads and stores.
        const uint32_t* base = in.hasBase ? reg(w, in.a) : zero_;
        int sbase = in.hasBase ? 1 : 0;
        const uint32_t* b = reg(w, in.b);
        const uint32_t* c = oi.format == Format::AtomicCas ? reg(w, in.c) : zero_;
        int sc = oi.format == Format::AtomicCas ? 1 : 0;
        if (observe) {
          std::memcpy(srcCopy_[0], b, n * 4);
          if (sc) std::memcpy(srcCopy_[1], c, n * 4);
        }
        // Lanes perform their read-modify-write one after another, in lane order.
        for (int l = 0; l < n; ++l) {
          if (!(exec >> l & 1u)) continue;
          tmpA_[l] = base[l * sbase] + static_cast<uint32_t>(in.off);
          uint8_t* p = access(wi, l, pc, space, tmpA_[l]);
          uint32_t old;
          std::memcpy(&old, p, 4);
          uint32_t nw = evalLane(in.op, old, b[l], c[l * sc]);
          std::memcpy(p, &nw, 4);
          tmpR_[l] = old;
        }
        uint32_t* d = reg(w, in.d);
        for (int l = 0; l < n; ++l)
          if (exec >> l & 1u) d[l] = tmpR_[l];
        if (observe) {
          // Operands as read: d may alias b or c, which the loop above has already overwritten.
          addSrc(tmpA_, 1);
          addSrc(srcCopy_[0], 1);
          if (sc) addSrc(srcCopy_[1], 1);
          ev.result = d;
        }
        break;
      }
      case Format::Branch: {
        uint32_t taken = exec, notTaken = active & ~exec;
        if (observe) { expandPred(exec, tmpA_); addSrc(tmpA_, 1); }
        if (taken && notTaken) {
          counts_.divergentBranches++;
          uint32_t rpc = reconv_[idx];
          top.pc = rpc;  // this entry continues at the reconvergence point
          w.stack.push_back({nextPc, rpc, notTaken});
          w.stack.push_back({in.imm, rpc, taken});
          nextPc = w.stack.back().pc;
          if (obs_) obs_->onWarpStep(ev);
          settle(w);
          return;
        }
        if (taken) nextPc = in.imm;
        break;
      }
      case Format::Barrier: {
        if (exec != active) fault(wi, -1, pc, "bar.sync under a predicate that is false for some lanes");
        if (active != (w.liveMask & ~w.exited))
          fault(wi, -1, pc, "bar.sync executed by a diverged warp (active lanes " + hex(active) +
                                " of " + hex(w.liveMask & ~w.exited) +
                                "; lanes that leave early must do so with a guarded `@p exit`, "
                                "not a branch to an exit)");
        w.state = WarpState::AtBarrier;
        w.barrierId = in.imm;
        w.barrierPc = pc;
        break;
      }
      case Format::NoOperands: {
        if (in.op == Op::EXIT) {
          w.exited |= exec;
          if (observe) obs_->onWarpStep(ev);
          top.pc = nextPc;
          settle(w);
          return;
        }
        break;  // membar, nop: no functional effect in a sequentially consistent interpreter
      }
    }
    if (observe) obs_->onWarpStep(ev);
    w.stack.back().pc = nextPc;
    settle(w);
  }

  // Pops stack entries that reached their reconvergence point or whose lanes all exited.
  void settle(Warp& w) {
    while (!w.stack.empty()) {
      const StackEntry& t = w.stack.back();
      if ((t.mask & ~w.exited) == 0 || (w.stack.size() > 1 && t.pc == t.rpc)) {
        w.stack.pop_back();
      } else {
        break;
      }
    }
    if (w.stack.empty()) w.state = WarpState::Done;
  }

  void expandPred(uint32_t bits, uint32_t* out) const {
    for (uint32_t l = 0; l < W_; ++l) out[l] = bits >> l & 1u;
  }

  // Releases every barrier id at which all warps of the block wait. Returns whether any did.
  bool releaseBarriers() {
    bool released = false;
    for (uint32_t id = 0; id < 16; ++id) {
      size_t waiting = 0;
      for (const Warp& w : warps_)
        if (w.state == WarpState::AtBarrier && w.barrierId == id) ++waiting;
      if (waiting == 0 || waiting != warps_.size()) continue;
      for (Warp& w : warps_) w.state = WarpState::Ready;
      counts_.barriers++;
      released = true;
    }
    return released;
  }

  [[noreturn]] void deadlock() {
    std::ostringstream s;
    s << "kernel '" << k_.name << "': deadlock in block " << blockDim3()
      << ": a barrier can never complete:";
    for (size_t i = 0; i < warps_.size(); ++i) {
      const Warp& w = warps_[i];
      s << "\n  warp " << i << ": ";
      if (w.state == WarpState::Done) s << "exited";
      else s << "waits at bar.sync " << w.barrierId << ", PC " << hex(w.barrierPc);
    }
    throw ExecError(s.str());
  }

  const Kernel& k_;
  GlobalMemory& mem_;
  const LaunchConfig& l_;
  const std::vector<uint32_t>& reconv_;
  ExecCounts& counts_;
  ExecObserver* obs_;
  uint32_t W_;
  std::array<uint32_t, 3> ctaid_{};
  uint32_t blockLinear_ = 0;
  std::vector<uint8_t> shared_;
  std::vector<Warp> warps_;
  uint32_t zero_[32] = {};
  uint32_t tmpA_[32] = {}, tmpB_[32] = {}, tmpC_[32] = {}, tmpD_[32] = {}, tmpR_[32] = {};
  uint32_t srcCopy_[3][32] = {};
};

}  // namespace

Interpreter::Interpreter(const Kernel& kernel, GlobalMemory& memory)
    : kernel_((checkKernel(kernel), kernel)), mem_(memory), cfg_(kernel) {
  reconvergence_.assign(kernel.size(), Cfg::kNoReconvergence);
  for (int b = 0; b < cfg_.numBlocks(); ++b)
    reconvergence_[cfg_.blocks()[b].last] = cfg_.reconvergencePc(b);
}

ExecCounts Interpreter::run(const LaunchConfig& launch, ExecObserver* observer) {
  launch.validate(kernel_);
  ExecCounts counts;
  if (observer) observer->onLaunch(kernel_, launch);
  BlockRunner runner(kernel_, mem_, launch, reconvergence_, counts, observer);
  for (uint32_t z = 0; z < launch.grid.z; ++z)
    for (uint32_t y = 0; y < launch.grid.y; ++y)
      for (uint32_t x = 0; x < launch.grid.x; ++x) runner.run(x, y, z);
  if (observer) observer->onGridEnd();
  return counts;
}

}  // namespace simtlm::isa
