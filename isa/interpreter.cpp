#include "isa/interpreter.h"

#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "isa/diagnostics.h"
#include "isa/local_memory.h"
#include "isa/semantics.h"
#include "isa/warp.h"

namespace simtlm::isa {
namespace {

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

enum class WarpState { Ready, AtBarrier, Done };

// A warp of the block being run, with what the block scheduler knows of it.
struct WarpSlot {
  WarpContext ctx;
  WarpState state = WarpState::Ready;
  uint32_t barrierId = 0, barrierPc = 0;
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
    warps_.clear();
    warps_.reserve(numWarps);
    for (uint32_t w = 0; w < numWarps; ++w) warps_.push_back({WarpContext(k_, l_, ctaid_, w)});
    if (obs_) obs_->onBlockStart(blockLinear_, numWarps);
    counts_.blocks++;
    counts_.warps += numWarps;
    counts_.threads += threads;

    constexpr int kQuantum = 256;
    uint32_t done = 0;
    while (done < numWarps) {
      bool progress = false;
      for (uint32_t w = 0; w < numWarps; ++w) {
        WarpSlot& slot = warps_[w];
        if (slot.state != WarpState::Ready) continue;
        for (int q = 0; q < kQuantum && slot.state == WarpState::Ready; ++q) step(w, slot);
        progress = true;
        if (slot.state == WarpState::Done) ++done;
      }
      if (done == numWarps) break;
      if (!releaseBarriers() && !progress) deadlock();
    }
    if (obs_) obs_->onBlockEnd(blockLinear_);
  }

 private:
  [[noreturn]] __attribute__((cold, noinline)) void fault(uint32_t w, int lane, uint32_t pc,
                                                          const std::string& what,
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

  // Performs a load, store or atomic lane by lane, in lane order.
  void memory(uint32_t wi, WarpContext& w, const Instr& in, uint32_t exec, WarpStep* ev) {
    const OpInfo& oi = info(in.op);
    const Space space = spaceOf(oi.cls);
    const int n = static_cast<int>(W_);
    uint32_t pc = w.pc();
    w.addresses(in, exec, addr_);
    if (ev) ev->addSource(addr_, 1);  // local accesses: observers see the offsets the thread uses
    const uint32_t* addr = addr_;
    if (isLocal(in.op)) {  // every lane's offset checked before any access, as the timing model
      for (int l = 0; l < n; ++l) {
        if (!(exec >> l & 1u)) continue;
        if (const std::string why = localOffsetFault(addr_[l], k_.localBytes); !why.empty())
          fault(wi, l, pc, why, &addr_[l]);
      }
      w.localToGlobal(exec, addr_, global_);
      addr = global_;
    }
    if (oi.format == Format::Load) {
      for (int l = 0; l < n; ++l)
        if (exec >> l & 1u) std::memcpy(&data_[l], access(wi, l, pc, space, addr[l]), 4);
      w.writeLanes(in.d, data_, exec);
      if (ev) ev->result = w.reg(in.d);
      return;
    }
    const uint32_t* b = w.reg(in.b);
    if (oi.format == Format::Store) {
      for (int l = 0; l < n; ++l)
        if (exec >> l & 1u) std::memcpy(access(wi, l, pc, space, addr[l]), &b[l], 4);
      if (ev) ev->addSource(b, 1);
      return;
    }
    const bool cas = oi.format == Format::AtomicCas;
    const uint32_t* c = w.reg(cas ? in.c : in.b);
    if (ev) {  // operands as read: rD may alias b or c
      std::memcpy(cap_.src[0], b, n * 4);
      ev->addSource(cap_.src[0], 1);
      if (cas) { std::memcpy(cap_.src[1], c, n * 4); ev->addSource(cap_.src[1], 1); }
    }
    for (int l = 0; l < n; ++l) {
      if (!(exec >> l & 1u)) continue;
      uint8_t* p = access(wi, l, pc, space, addr[l]);
      uint32_t old;
      std::memcpy(&old, p, 4);
      uint32_t nw = evalLane(in.op, old, b[l], cas ? c[l] : 0);
      std::memcpy(p, &nw, 4);
      data_[l] = old;
    }
    w.writeLanes(in.d, data_, exec);
    if (ev) ev->result = w.reg(in.d);
  }

  void step(uint32_t wi, WarpSlot& slot) {
    WarpContext& w = slot.ctx;
    uint32_t pc = w.pc();
    size_t idx = Kernel::indexOf(pc);
    if (idx >= k_.instrs.size()) fault(wi, -1, pc, "PC past the last instruction (missing exit?)");
    if (++counts_.warpInstructions > l_.maxWarpInstructions) limitReached();
    if ((counts_.warpInstructions & 0xFFFFF) == 0 && l_.onProgress) l_.onProgress(counts_.warpInstructions);
    const Instr& in = k_.instrs[idx];
    const OpInfo& oi = info(in.op);
    uint32_t active = w.activeMask();
    uint32_t exec = w.execMask(in);
    int activeCount = __builtin_popcount(active);
    counts_.threadInstructions += activeCount;
    counts_.warpByClass[static_cast<int>(oi.cls)]++;
    counts_.threadByClass[static_cast<int>(oi.cls)] += activeCount;

    WarpStep event;
    WarpStep* ev = nullptr;
    if (obs_) {
      ev = &event;
      ev->blockLinear = blockLinear_;
      ev->warp = wi;
      ev->pc = pc;
      ev->instr = &in;
      ev->activeMask = active;
      ev->execMask = exec;
      ev->warpMask = w.liveMask();
      ev->lanes = static_cast<int>(W_);
    }
    switch (oi.format) {
      case Format::Load: case Format::Store: case Format::Atomic: case Format::AtomicCas:
        memory(wi, w, in, exec, ev);
        break;
      case Format::Branch:
        if (ev) {
          for (uint32_t l = 0; l < W_; ++l) cap_.src[0][l] = exec >> l & 1u;
          ev->addSource(cap_.src[0], 1);
        }
        break;
      case Format::Barrier:
        if (exec != active) fault(wi, -1, pc, "bar.sync under a predicate that is false for some lanes");
        if (active != (w.liveMask() & ~w.exitedMask()))
          fault(wi, -1, pc, "bar.sync executed by a diverged warp (active lanes " + hex(active) +
                                " of " + hex(w.liveMask() & ~w.exitedMask()) +
                                "; lanes that leave early must do so with a guarded `@p exit`, "
                                "not a branch to an exit)");
        slot.state = WarpState::AtBarrier;
        slot.barrierId = in.imm;
        slot.barrierPc = pc;
        break;
      case Format::NoOperands:
        break;  // exit is handled by advance(); membar, nop: no functional effect here
      default:
        w.executeAlu(in, exec, ev, &cap_);
        break;
    }
    if (ev) obs_->onWarpStep(*ev);
    if (w.advance(in, exec, reconv_[idx])) counts_.divergentBranches++;
    if (w.done()) slot.state = WarpState::Done;
  }

  // Releases every barrier id at which all warps of the block wait. Returns whether any did.
  bool releaseBarriers() {
    bool released = false;
    for (uint32_t id = 0; id < 16; ++id) {
      size_t waiting = 0;
      for (const WarpSlot& w : warps_)
        if (w.state == WarpState::AtBarrier && w.barrierId == id) ++waiting;
      if (waiting == 0 || waiting != warps_.size()) continue;
      for (WarpSlot& w : warps_) w.state = WarpState::Ready;
      counts_.barriers++;
      released = true;
    }
    return released;
  }

  // Where one warp is, for the reports below: its PC and source line, or what it waits for.
  std::string whereIs(uint32_t i) const {
    const WarpSlot& w = warps_[i];
    if (w.state == WarpState::Done) return "exited";
    if (w.state == WarpState::AtBarrier) return "waits at bar.sync " + std::to_string(w.barrierId) + ", PC " + hex(w.barrierPc);
    const uint32_t pc = w.ctx.pc();
    std::string s = "runs at PC " + hex(pc);
    size_t idx = Kernel::indexOf(pc);
    if (idx < k_.sourceLines.size() && k_.sourceLines[idx])
      s += " (" + k_.sourceFile + ":" + std::to_string(k_.sourceLines[idx]) + ")";
    return s;
  }

  [[noreturn]] __attribute__((cold, noinline)) void limitReached() {
    std::ostringstream s;
    s << "kernel '" << k_.name << "': instruction limit reached: " << l_.maxWarpInstructions
      << " warp instructions executed, the run stopped in block " << blockDim3() << "; where each warp was:";
    constexpr size_t kShown = 32;  // a 1024-thread block of warp size 1 would fill a screen
    for (size_t i = 0; i < warps_.size() && i < kShown; ++i) s << "\n  warp " << i << ": " << whereIs(static_cast<uint32_t>(i));
    if (warps_.size() > kShown) s << "\n  ... and " << warps_.size() - kShown << " more warps";
    throw LimitError(s.str());
  }

  [[noreturn]] void deadlock() {
    std::ostringstream s;
    s << "kernel '" << k_.name << "': deadlock in block " << blockDim3()
      << ": a barrier can never complete:";
    for (size_t i = 0; i < warps_.size(); ++i) s << "\n  warp " << i << ": " << whereIs(static_cast<uint32_t>(i));
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
  std::vector<WarpSlot> warps_;
  uint32_t addr_[32] = {}, global_[32] = {}, data_[32] = {};
  StepCapture cap_{};
};

}  // namespace

Interpreter::Interpreter(const Kernel& kernel, GlobalMemory& memory)
    : kernel_((checkKernel(kernel), kernel)), mem_(memory), cfg_(kernel) {
  reconvergence_ = cfg_.reconvergenceTable();
}

ExecCounts Interpreter::run(const LaunchConfig& given, ExecObserver* observer) {
  given.validate(kernel_);
  LaunchConfig launch = given;
  prepareLocal(mem_, kernel_, launch);  // the launch's local space, as runGrid and the host driver
  ExecCounts& counts = counts_;
  counts = ExecCounts{};
  if (observer) observer->onLaunch(kernel_, launch);
  BlockRunner runner(kernel_, mem_, launch, reconvergence_, counts, observer);
  for (uint32_t z = 0; z < launch.grid.z; ++z)
    for (uint32_t y = 0; y < launch.grid.y; ++y)
      for (uint32_t x = 0; x < launch.grid.x; ++x) runner.run(x, y, z);
  if (observer) observer->onGridEnd();
  return counts;
}

}  // namespace simtlm::isa
