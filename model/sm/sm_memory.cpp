// SmCore's memory instructions (docs/timing-model.md, docs/memory-units.md):
//   ld.param   answered from the launch's parameter words, exec.latency.load_param later;
//   shared     through the SM's mem::SharedMemory unit (banks, conflicts): accepted at
//              dispatch when the banks are free, answered latency + degree - 1 cycles later;
//              the result is written back exec.latency.<class> cycles after the answer;
//   global     through the GlobalMemoryPort (in the GPU top: coalescer, L1, TLM initiator).
// Functional effects are the interpreter's: shared accesses are performed by the unit at
// accept, lane by lane in lane order; global ones by the memory they reach.
#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "isa/local_memory.h"
#include "model/sm/sm_core.h"
#include "model/sm/sm_core_state.h"

namespace simtlm::sm {

namespace {

using Buffers = std::vector<std::pair<uint32_t, uint32_t>>;

// The first of the buffers ([base, end), sorted by base) that starts after `a`.
Buffers::const_iterator bufferAfter(const Buffers& buffers, uint32_t a) {
  return std::upper_bound(buffers.begin(), buffers.end(), a,
                          [](uint32_t x, const std::pair<uint32_t, uint32_t>& b) { return x < b.first; });
}

// Whether the word at `a` lies in one of the buffers.
bool insideBuffer(const Buffers& buffers, uint32_t a) {
  auto it = bufferAfter(buffers, a);
  return it != buffers.begin() && uint64_t{a} + 4 <= std::prev(it)->second;
}

// insideBuffer() for the lanes of one access, which mostly fall in one buffer: no search for a
// word whose search would pick the same buffer as the last (at or after its base, before the
// next buffer's).
class BufferCheck {
 public:
  explicit BufferCheck(const Buffers& buffers) : buffers_(buffers) {}
  bool inside(uint32_t a) {
    if (a < from_ || a >= to_) {
      auto it = bufferAfter(buffers_, a);
      to_ = it == buffers_.end() ? uint64_t{1} << 32 : it->first;
      from_ = it == buffers_.begin() ? 0 : std::prev(it)->first;
      end_ = it == buffers_.begin() ? 0 : std::prev(it)->second;  // (before the first: none)
    }
    return uint64_t{a} + 4 <= end_;
  }

 private:
  const Buffers& buffers_;
  uint64_t from_ = 1, to_ = 0, end_ = 0;  // the words that pick the last buffer found
};

}  // namespace

void SmCore::initMemory(stats::Registry& stats) {
  // shared.latency is load-to-use (global_access.h): the operand stages and the LD/ST unit's
  // write-back take their part of it.
  config::GpuConfig::Shared banks = cfg_.shared;
  banks.latency = memoryUnitLatency(banks.latency, cfg_.exec.latencyOf(isa::OpClass::LoadShared));
  banks.atomic_latency = memoryUnitLatency(banks.atomic_latency, cfg_.exec.latencyOf(isa::OpClass::AtomicShared));
  shared_ = std::make_unique<mem::SharedMemory>(
      banks, static_cast<unsigned>(cfg_.gpu.warp_size), static_cast<unsigned>(cfg_.sm.max_blocks),
      [this](const mem::SharedResponse& r) { sharedDone(r); },
      stats::Group(stats, "sm" + std::to_string(id_) + ".shared"));
}

void SmCore::restartMemory() {
  // A new grid: the cycle count starts again at 0. Every access of the last grid has completed
  // (a block retires only then).
  shared_->restart();
  sharedOps_.clear();
}

// Regions are rounded up to bank rows (SharedMemory::allocate) and every block of a grid asks
// for the same size, so they sit at multiples of that size: one more fits exactly when the
// free bytes hold one more rounded region.
bool SmCore::sharedFits(uint32_t bytes) const {
  const uint64_t row = static_cast<uint64_t>(cfg_.shared.banks) * static_cast<uint64_t>(cfg_.shared.bank_width);
  return (uint64_t{bytes} + row - 1) / row * row <= shared_->freeBytes();
}

void SmCore::allocateShared(int blockSlot, uint32_t bytes) {
  if (!shared_->allocate(static_cast<unsigned>(blockSlot), bytes))
    throw std::logic_error("SmCore::admit: no shared-memory region although canAdmit() said yes");
}

void SmCore::releaseShared(int blockSlot) { shared_->release(static_cast<unsigned>(blockSlot)); }

bool SmCore::sharedAccepts() const { return shared_->canAccept(); }

bool SmCore::tickMemory(uint64_t cycle) {
  if (shared_->idle()) return false;  // nothing pending and the banks are free: no host work
  sharedNow_ = cycle;
  return shared_->tick(cycle);
}

// A shared access has been answered (cycle sharedNow_): loads and atomics write their lanes and
// become visible to dependants exec.latency.<class> cycles later, like any result.
void SmCore::sharedDone(const mem::SharedResponse& r) {
  if (sharedOps_.empty() || sharedOps_.front().tag != r.tag)
    throw std::logic_error("SmCore: shared-memory answer out of order");
  const SharedOp& op = sharedOps_.front();  // (the slot stays as it is until the next push)
  sharedOps_.pop_front();
  Warp& w = warps_[op.slot];
  if (answersLog_.should_log(spdlog::level::trace)) traceAnswer(op.slot, "shared", op.instr, -1, sharedNow_);
  if (!r.ok) return setFault(op.slot, r.error, {-1, -1, r.fault_address});
  if (op.writesReg) {
    w.ctx->writeLanes(op.instr.d, r.data, op.exec);
    const isa::OpClass cls = isa::info(op.instr.op).cls;
    complete(op.slot, op.instr, sharedNow_ + static_cast<uint64_t>(std::max(1, cfg_.exec.latencyOf(cls))),
             answerResults_);
  }
  w.pendingMem--;
  opEvents_++;
  wake(op.slot);
  Block& b = blocks_[w.block];
  releaseBarrier(b);
  retireBlock(b);
}

void SmCore::executeMemory(int slot, const isa::Instr& in, uint32_t exec, uint64_t cycle) {
  Warp& w = warps_[slot];
  isa::WarpContext& ctx = *w.ctx;
  const isa::OpInfo& oi = isa::info(in.op);
  const int W = ctx.lanes();
  uint32_t addr[32] = {};  // the lanes not in exec stay 0
  ctx.addresses(in, exec, addr);
  if (isa::isLocal(in.op)) {  // per-thread offsets, checked as the interpreter does, become global addresses
    const uint32_t bytes = image_.kernel->localBytes;
    for (int l = 0; l < W; ++l) {
      if (!(exec >> l & 1u) || (!(addr[l] & 3) && uint64_t{addr[l]} + 4 <= bytes)) continue;  // (the quick test)
      return setFault(slot, isa::localOffsetFault(addr[l], bytes), FaultSite{-1, l, addr[l]});
    }
    ctx.localToGlobal(exec, addr, addr);
  }
  // The interpreter's checks, lane by lane in lane order: the first bad lane is the fault, and
  // nothing of the access is performed then. A quick pass over the lanes first; the one that
  // words the fault only when a lane fails.
  const uint32_t paramBytes = static_cast<uint32_t>(image_.launch.params.size() * 4);
  const uint64_t limit = oi.cls == isa::OpClass::LoadParam ? paramBytes
                         : isSharedAccess(oi)              ? uint64_t{image_.kernel->sharedBytes}
                                                           : ~uint64_t{0} - 4;
  // Over every lane, the inactive ones 0 (loops the compiler vectorizes). The bitwise OR is at
  // least the largest address: the largest is looked for only when the OR does not fit.
  uint32_t any = 0;
  for (int l = 0; l < W; ++l) any |= addr[l];
  bool clean = !(any & 3) && (uint64_t{any} + 4 <= limit ||
                              uint64_t{*std::max_element(addr, addr + W)} + 4 <= limit);
  if (isGlobal(oi) && image_.checkBuffers) {
    BufferCheck buffers(image_.buffers);
    for (uint32_t lanes = exec; lanes && clean; lanes &= lanes - 1)
      clean = buffers.inside(addr[__builtin_ctz(lanes)]);
  }
  for (int l = 0; l < W && !clean; ++l) {
    if (!(exec >> l & 1u)) continue;
    const FaultSite at{-1, l, addr[l]};
    if (addr[l] & 3) return setFault(slot, "misaligned 32-bit access", at);
    if (oi.cls == isa::OpClass::LoadParam && uint64_t{addr[l]} + 4 > paramBytes)
      return setFault(slot, "parameter access out of bounds (" + std::to_string(paramBytes) + " bytes)", at);
    if (isSharedAccess(oi) && uint64_t{addr[l]} + 4 > image_.kernel->sharedBytes)
      return setFault(slot, "shared memory access out of bounds (" + std::to_string(image_.kernel->sharedBytes) + " bytes)", at);
    if (isGlobal(oi) && image_.checkBuffers && !insideBuffer(image_.buffers, addr[l]))
      return setFault(slot, "global memory access outside every buffer", at);
  }
  const uint64_t ldst = static_cast<uint64_t>(std::max(1, cfg_.exec.latencyOf(oi.cls)));

  if (oi.cls == isa::OpClass::LoadParam) {
    const auto& params = image_.launch.params;
    uint32_t words[32] = {};
    for (int l = 0; l < W; ++l)
      if (exec >> l & 1u) words[l] = params[addr[l] / 4];
    ctx.writeLanes(in.d, words, exec);
    return complete(slot, in, cycle + ldst, executeResults_);
  }
  if (isSharedAccess(oi)) {
    mem::SharedRequest& rq = sharedRq_;  // reused: no zeroing of its three lane arrays per access
    rq.kind = oi.format == isa::Format::Load    ? mem::SharedRequest::Kind::Load
              : oi.format == isa::Format::Store ? mem::SharedRequest::Kind::Store
                                                : mem::SharedRequest::Kind::Atomic;
    rq.tag = nextSharedTag_++;
    rq.slot = static_cast<unsigned>(w.block);
    rq.op = in.op;
    rq.mask = exec;
    std::copy(addr, addr + W, rq.address.begin());
    if (oi.format != isa::Format::Load) std::copy(ctx.reg(in.b), ctx.reg(in.b) + W, rq.b.begin());
    if (rq.kind == mem::SharedRequest::Kind::Atomic) std::copy(ctx.reg(in.c), ctx.reg(in.c) + W, rq.c.begin());
    const bool writesReg = oi.format != isa::Format::Store;
    if (writesReg) scoreboard_.reserve(slot, in);
    w.pendingMem++;  // bar.sync and membar wait for the answer
    sharedOps_.push_back(SharedOp{rq.tag, slot, in, exec, writesReg});
    shared_->accept(rq, cycle);  // performed now, in lane order; answered latency + degree - 1 later
    return;
  }
  // Global memory: through the port.
  GlobalAccess a;
  a.op = in.op;
  a.mask = exec;
  // Loads and stores a mechanism describes compactly (base + stride x lane) carry no addresses.
  const bool compact = mech_ && (oi.format == isa::Format::Load || oi.format == isa::Format::Store) &&
                       mech_->compactAddress(slot, in, exec, a.compact);
  if (!compact) {
    a.compact = CompactAddress{};
    std::copy(addr, addr + W, a.addr.begin());
  }
  if (oi.format != isa::Format::Load) std::copy(ctx.reg(in.b), ctx.reg(in.b) + W, a.data.begin());
  if (oi.format == isa::Format::AtomicCas) std::copy(ctx.reg(in.c), ctx.reg(in.c) + W, a.data2.begin());
  const bool writesReg = oi.format != isa::Format::Store;
  if (writesReg) scoreboard_.reserve(slot, in);
  w.pendingMem++;
  globalAccesses_++;
  const uint64_t id = nextGlobalId_++;
  pendingGlobal_.emplace(id, PendingGlobal{slot, in, exec, writesReg, dispatchPc_});
  mem_.issue(GlobalRequest{id, a});
}

void SmCore::takeAnswers(uint64_t cycle) {
  GlobalResponse r;
  while (answers_.nb_read(r)) globalAnswered(r, cycle);
}

// A global access is answered: loads and atomics write their lanes, and their register write
// goes through the collectors' port like any result.
void SmCore::globalAnswered(const GlobalResponse& r, uint64_t cycle) {
  const auto it = pendingGlobal_.find(r.id);
  if (it == pendingGlobal_.end()) throw std::logic_error("SmCore: an answer to no global access");
  const PendingGlobal g = it->second;
  pendingGlobal_.erase(it);
  Warp& w = warps_[g.slot];
  if (answersLog_.should_log(spdlog::level::trace)) traceAnswer(g.slot, "global", g.instr, g.pc, cycle);
  if (!r.error.empty()) return setFault(g.slot, r.error, {g.pc, -1, std::nullopt});
  if (g.writesReg) {
    w.ctx->writeLanes(g.instr.d, r.words.data(), g.exec);
    resultReady(g.slot, g.instr, ops_.dest(g.slot, g.instr));
  }
  w.pendingMem--;
  opEvents_++;
  wake(g.slot);
  Block& b = blocks_[w.block];
  releaseBarrier(b);
  retireBlock(b);
}

}  // namespace simtlm::sm
