#include "model/sm/sm_core.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <sstream>

#include "isa/semantics.h"

namespace simtlm::sm {

struct SmCore::Warp {
  bool active = false;  // holds a warp of a resident block
  int block = -1;
  uint32_t indexInBlock = 0;
  std::optional<isa::WarpContext> ctx;
  IBuffer ibuf;
  uint32_t fetchPc = 0;
  bool fetchInFlight = false, fetchBlocked = false;
  uint64_t fetchReadyAt = 0;
  uint32_t fetchingPc = 0, epoch = 0, fetchEpoch = 0;
  bool atBarrier = false, done = false;
  uint32_t barrierId = 0, barrierPc = 0;
  int pendingMem = 0;
};

struct SmCore::Block {
  bool used = false;
  uint32_t linear = 0;
  std::vector<int> warps;
  std::vector<uint8_t> shared;
  int warpsDone = 0;
};

struct SmCore::InFlight {
  uint64_t at;
  int slot;
  isa::Instr instr;
};

namespace {

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

bool isControl(isa::Op op) { return op == isa::Op::BRA || op == isa::Op::EXIT; }

}  // namespace

SmCore::SmCore(int id, const config::GpuConfig& cfg, GlobalMemoryPort& memory, stats::Registry& stats)
    : id_(id), cfg_(cfg), mem_(memory), warps_(static_cast<size_t>(cfg.sm.num_warps)),
      blocks_(static_cast<size_t>(cfg.sm.max_blocks)), scoreboard_(cfg.sm.num_warps) {
  const int perScheduler = cfg.sm.num_warps / cfg.issue.schedulers;
  for (int s = 0; s < cfg.issue.schedulers; ++s)
    schedulers_.push_back(makeScheduler(cfg.issue.policy, perScheduler));
  for (auto& w : warps_) w.ibuf = IBuffer(cfg.frontend.ibuffer_entries);
  unitFreeAt_[static_cast<int>(isa::Unit::Sp)].assign(cfg.exec.sp_units, 0);
  unitFreeAt_[static_cast<int>(isa::Unit::Sfu)].assign(cfg.exec.sfu_units, 0);
  unitFreeAt_[static_cast<int>(isa::Unit::LdSt)].assign(1, 0);
  unitFreeAt_[static_cast<int>(isa::Unit::Ctrl)].assign(1, 0);
  const std::string p = "sm" + std::to_string(id) + ".";
  stats.add(p + "cycles", cycles_, "cycles", "cycles this SM was clocked while the kernel ran");
  stats.add(p + "active_cycles", activeCycles_, "cycles", "cycles with at least one resident block");
  stats.add(p + "issue.warp_instructions", warpInstrs_, "instructions", "warp instructions issued");
  stats.add(p + "issue.thread_instructions", threadInstrs_, "instructions", "active threads of issued warp instructions");
  stats.add(p + "frontend.fetched", fetched_, "instructions", "instructions fetched into I-buffers");
  stats.add(p + "frontend.flushes", flushes_, "events", "I-buffer flushes after a change of control flow");
  stats.add(p + "issue.stall_no_ready", stallNoReady_, "cycles", "scheduler cycles with no warp able to issue");
  stats.add(p + "barriers", barriers_, "events", "completed bar.sync episodes");
  stats.add(p + "ldst.global_accesses", globalAccesses_, "instructions", "global memory warp instructions sent");
  stats.add(p + "blocks", blocksRun_, "blocks", "thread blocks completed");
}

SmCore::~SmCore() = default;

void SmCore::startKernel(const KernelImage& image) { image_ = image; }

bool SmCore::canAdmit() const {
  const isa::Kernel& k = *image_.kernel;
  const uint32_t W = image_.launch.warpSize;
  const int warps = static_cast<int>((image_.launch.block.count() + W - 1) / W);
  const int regs = warps * static_cast<int>(W) * k.numRegs;
  return residentBlocks_ < cfg_.sm.max_blocks && usedWarps_ + warps <= cfg_.sm.num_warps &&
         usedRegs_ + regs <= cfg_.sm.num_registers && usedShared_ + k.sharedBytes <= static_cast<uint32_t>(cfg_.shared.size);
}

void SmCore::admit(uint32_t blockLinear, const std::array<uint32_t, 3>& ctaid) {
  const isa::Kernel& k = *image_.kernel;
  const uint32_t W = image_.launch.warpSize;
  const int numWarps = static_cast<int>((image_.launch.block.count() + W - 1) / W);
  int b = 0;
  while (blocks_[b].used) ++b;
  Block& blk = blocks_[b];
  blk = Block{};
  blk.used = true;
  blk.linear = blockLinear;
  blk.shared.assign(k.sharedBytes, 0);
  int slot = 0;
  for (int i = 0; i < numWarps; ++i) {
    while (warps_[slot].active) ++slot;
    Warp& w = warps_[slot];
    w = Warp{};
    w.ibuf = IBuffer(cfg_.frontend.ibuffer_entries);
    w.active = true;
    w.block = b;
    w.indexInBlock = static_cast<uint32_t>(i);
    w.ctx.emplace(k, image_.launch, ctaid, static_cast<uint32_t>(i));
    scoreboard_.clear(slot);
    schedulers_[slot % cfg_.issue.schedulers]->setAge(slot / cfg_.issue.schedulers, ageCounter_++);
    blk.warps.push_back(slot);
  }
  residentBlocks_++;
  usedWarps_ += numWarps;
  usedRegs_ += numWarps * static_cast<int>(W) * k.numRegs;
  usedShared_ += k.sharedBytes;
}

bool SmCore::idle() const { return residentBlocks_ == 0; }

bool SmCore::tick(uint64_t cycle) {
  if (!fault_.empty()) return false;
  cycles_++;
  if (idle()) return false;
  activeCycles_++;
  const uint64_t before = warpInstrs_ + fetched_;
  const size_t pendingBefore = inFlight_.size();
  writeback(cycle);
  issue(cycle);
  fetch(cycle);
  return warpInstrs_ + fetched_ != before || inFlight_.size() != pendingBefore;
}

void SmCore::writeback(uint64_t cycle) {
  size_t keep = 0;
  for (size_t i = 0; i < inFlight_.size(); ++i) {
    if (inFlight_[i].at <= cycle) scoreboard_.release(inFlight_[i].slot, inFlight_[i].instr);
    else inFlight_[keep++] = inFlight_[i];
  }
  const bool drained = keep != inFlight_.size();
  inFlight_.resize(keep);
  if (drained)  // a finished block may have been waiting for its last results
    for (Block& b : blocks_) retireBlock(b);
}

bool SmCore::canIssue(const Warp& w, uint64_t cycle) const {
  if (!w.active || w.done || w.atBarrier || w.ibuf.empty()) return false;
  const isa::Instr& in = w.ibuf.front().instr;
  const isa::OpInfo& oi = isa::info(in.op);
  if (!scoreboard_.canIssue(static_cast<int>(&w - warps_.data()), w.ibuf.front().touched)) return false;
  const auto& units = unitFreeAt_[static_cast<int>(oi.unit)];
  if (std::none_of(units.begin(), units.end(), [&](uint64_t t) { return t <= cycle; })) return false;
  const bool global = oi.cls == isa::OpClass::LoadGlobal || oi.cls == isa::OpClass::StoreGlobal ||
                      oi.cls == isa::OpClass::AtomicGlobal;
  if (global && !mem_.canAccept()) return false;
  // Barriers and fences wait for the warp's own memory accesses to complete.
  if ((in.op == isa::Op::BAR_SYNC || in.op == isa::Op::MEMBAR) && w.pendingMem) return false;
  return true;
}

void SmCore::issue(uint64_t cycle) {
  const int S = cfg_.issue.schedulers;
  const int perScheduler = cfg_.sm.num_warps / S;
  ready_.resize(static_cast<size_t>(perScheduler));
  for (int s = 0; s < S && fault_.empty(); ++s) {
    bool any = false;
    for (int i = 0; i < perScheduler; ++i) {
      Warp& w = warps_[i * S + s];
      // Entries fetched down a path the warp did not take are dropped first.
      if (w.active && !w.done && !w.ibuf.empty() && w.ibuf.front().pc != w.ctx->pc()) {
        w.ibuf.flush();
        w.fetchPc = w.ctx->pc();
        w.fetchBlocked = false;
        w.epoch++;
        flushes_++;
      }
      ready_[i] = canIssue(w, cycle);
      any = any || ready_[i];
    }
    if (!any) {
      stallNoReady_++;
      continue;
    }
    int pick = schedulers_[s]->pick(ready_);
    execute(pick * S + s, cycle);
  }
}

void SmCore::execute(int slot, uint64_t cycle) {
  Warp& w = warps_[slot];
  isa::WarpContext& ctx = *w.ctx;
  const IBufferEntry e = w.ibuf.front();
  w.ibuf.pop();
  const isa::Instr& in = e.instr;
  const isa::OpInfo& oi = isa::info(in.op);
  const uint32_t active = ctx.activeMask();
  const uint32_t exec = ctx.execMask(in);
  warpInstrs_++;
  threadInstrs_ += static_cast<uint64_t>(__builtin_popcount(active));

  // Occupy an execution unit for warp_size / width cycles.
  auto& units = unitFreeAt_[static_cast<int>(oi.unit)];
  const int width = oi.unit == isa::Unit::Sp ? cfg_.exec.simd_width
                    : oi.unit == isa::Unit::Sfu ? cfg_.exec.sfu_width
                    : oi.unit == isa::Unit::LdSt ? cfg_.exec.ldst_width : 32;
  const int W = ctx.lanes();
  const uint64_t occupancy = static_cast<uint64_t>((W + width - 1) / width);
  *std::find_if(units.begin(), units.end(), [&](uint64_t t) { return t <= cycle; }) = cycle + occupancy;
  const uint64_t done = cycle + occupancy - 1 + static_cast<uint64_t>(std::max(1, cfg_.exec.latencyOf(oi.cls)));

  switch (oi.format) {
    case isa::Format::Load: case isa::Format::Store: case isa::Format::Atomic: case isa::Format::AtomicCas:
      executeMemory(slot, in, exec, cycle);
      break;
    case isa::Format::Branch: case isa::Format::NoOperands:
      break;
    case isa::Format::Barrier:
      if (exec != active || active != (ctx.liveMask() & ~ctx.exitedMask())) {
        setFault(slot, "bar.sync executed by a diverged warp or under a partly false predicate");
        return;
      }
      w.atBarrier = true;
      w.barrierId = in.imm;
      w.barrierPc = e.pc;
      break;
    default:
      ctx.executeAlu(in, exec);
      complete(slot, in, done);
      break;
  }
  if (!fault_.empty()) return;
  const size_t idx = isa::Kernel::indexOf(e.pc);
  ctx.advance(in, exec, image_.reconvergence[idx]);
  if (isControl(in.op)) w.fetchBlocked = false;
  if (!ctx.done() && ctx.pc() != e.pc + 8) {  // control flow changed: redirect fetch
    w.ibuf.flush();
    w.fetchPc = ctx.pc();
    w.epoch++;
    flushes_++;
  }
  Block& b = blocks_[w.block];
  if (ctx.done()) {
    w.done = true;
    b.warpsDone++;
  }
  if (w.atBarrier || w.done) releaseBarrier(b);
  retireBlock(b);
}

void SmCore::complete(int slot, const isa::Instr& in, uint64_t when) {
  scoreboard_.reserve(slot, in);
  inFlight_.push_back({when, slot, in});
}

void SmCore::executeMemory(int slot, const isa::Instr& in, uint32_t exec, uint64_t cycle) {
  Warp& w = warps_[slot];
  isa::WarpContext& ctx = *w.ctx;
  const isa::OpInfo& oi = isa::info(in.op);
  const int W = ctx.lanes();
  uint32_t addr[32] = {}, words[32] = {};
  ctx.addresses(in, exec, addr);
  for (int l = 0; l < W; ++l)
    if ((exec >> l & 1u) && (addr[l] & 3)) return setFault(slot, "misaligned 32-bit access at " + hex(addr[l]));
  const uint64_t ldst = static_cast<uint64_t>(std::max(1, cfg_.exec.latencyOf(oi.cls)));

  if (oi.cls == isa::OpClass::LoadParam) {
    const auto& params = image_.launch.params;
    for (int l = 0; l < W; ++l) {
      if (!(exec >> l & 1u)) continue;
      if (addr[l] / 4 >= params.size()) return setFault(slot, "parameter access out of bounds at " + hex(addr[l]));
      words[l] = params[addr[l] / 4];
    }
    ctx.writeLanes(in.d, words, exec);
    return complete(slot, in, cycle + ldst);
  }
  if (oi.cls == isa::OpClass::LoadShared || oi.cls == isa::OpClass::StoreShared ||
      oi.cls == isa::OpClass::AtomicShared) {
    auto& shared = blocks_[w.block].shared;
    const uint32_t* b = ctx.reg(in.b);
    const uint32_t* c = ctx.reg(in.c);
    for (int l = 0; l < W; ++l) {
      if (!(exec >> l & 1u)) continue;
      if (static_cast<uint64_t>(addr[l]) + 4 > shared.size())
        return setFault(slot, "shared memory access out of bounds at " + hex(addr[l]));
      uint8_t* p = &shared[addr[l]];
      if (oi.format == isa::Format::Store) { std::memcpy(p, &b[l], 4); continue; }
      std::memcpy(&words[l], p, 4);
      if (oi.format != isa::Format::Load) {
        uint32_t nw = isa::evalLane(in.op, words[l], b[l], c[l]);
        std::memcpy(p, &nw, 4);
      }
    }
    if (oi.format == isa::Format::Store) return;
    ctx.writeLanes(in.d, words, exec);
    return complete(slot, in, cycle + ldst + static_cast<uint64_t>(cfg_.shared.latency));
  }
  // Global memory: through the port.
  GlobalAccess a;
  a.op = in.op;
  a.mask = exec;
  std::copy(addr, addr + W, a.addr.begin());
  if (oi.format != isa::Format::Load) std::copy(ctx.reg(in.b), ctx.reg(in.b) + W, a.data.begin());
  if (oi.format == isa::Format::AtomicCas) std::copy(ctx.reg(in.c), ctx.reg(in.c) + W, a.data2.begin());
  const bool writesReg = oi.format != isa::Format::Store;
  if (writesReg) scoreboard_.reserve(slot, in);
  w.pendingMem++;
  globalAccesses_++;
  mem_.issue(a, [this, slot, in, exec, writesReg](const uint32_t* result, const std::string& error) {
    Warp& w2 = warps_[slot];
    if (!error.empty()) return setFault(slot, error);
    if (writesReg) {
      w2.ctx->writeLanes(in.d, result, exec);
      scoreboard_.release(slot, in);
    }
    w2.pendingMem--;
    Block& b = blocks_[w2.block];
    releaseBarrier(b);
    retireBlock(b);
  });
}

void SmCore::releaseBarrier(Block& b) {
  int waiting = 0, done = 0;
  for (int s : b.warps) {
    waiting += warps_[s].atBarrier;
    done += warps_[s].done;
  }
  if (waiting == 0) return;
  if (waiting + done == static_cast<int>(b.warps.size()) && done > 0) {
    setFault(b.warps[0], "deadlock: a barrier can never complete (a warp of the block exited)");
    return;
  }
  if (waiting != static_cast<int>(b.warps.size())) return;
  const uint32_t id = warps_[b.warps[0]].barrierId;
  for (int s : b.warps)
    if (warps_[s].barrierId != id) return setFault(s, "deadlock: warps of a block wait at different barriers");
  for (int s : b.warps) warps_[s].atBarrier = false;
  barriers_++;
}

void SmCore::retireBlock(Block& b) {
  if (!b.used || b.warpsDone != static_cast<int>(b.warps.size())) return;
  for (int s : b.warps)
    if (warps_[s].pendingMem) return;
  for (const InFlight& f : inFlight_)
    if (warps_[f.slot].block == static_cast<int>(&b - blocks_.data())) return;
  const isa::Kernel& k = *image_.kernel;
  const uint32_t W = image_.launch.warpSize;
  for (int s : b.warps) {
    if (warps_[s].fetchInFlight) fetchesInFlight_--;
    warps_[s].fetchInFlight = false;
    warps_[s].active = false;
    warps_[s].ctx.reset();
  }
  const int numWarps = static_cast<int>(b.warps.size());
  residentBlocks_--;
  usedWarps_ -= numWarps;
  usedRegs_ -= numWarps * static_cast<int>(W) * k.numRegs;
  usedShared_ -= k.sharedBytes;
  b.used = false;
  blocksRun_++;
  if (onBlockDone) onBlockDone(b.linear);
}

void SmCore::fetch(uint64_t cycle) {
  // Deliver the fetches that complete this cycle, then start one more.
  for (size_t i = 0; i < warps_.size() && fetchesInFlight_; ++i) {
    Warp& w = warps_[i];
    if (!w.fetchInFlight || w.fetchReadyAt > cycle) continue;
    w.fetchInFlight = false;
    fetchesInFlight_--;
    if (!w.active || w.done || w.fetchEpoch != w.epoch) continue;  // stale: the path changed
    // Up to fetch_width consecutive instructions, as many as the I-buffer has room for,
    // ending after a control instruction (the next PC is known once it issues).
    for (int k = 0; k < cfg_.frontend.fetch_width && !w.ibuf.full(); ++k) {
      const size_t idx = isa::Kernel::indexOf(w.fetchingPc);
      if (idx >= image_.kernel->size()) break;  // past the end: the warp stalls there
      const isa::Instr& in = image_.kernel->instrs[idx];
      w.ibuf.push({w.fetchingPc, in, isa::usesOf(in) | isa::writesOf(in), isa::writesOf(in)});
      fetched_++;
      w.fetchingPc += 8;
      w.fetchPc = w.fetchingPc;
      if (isControl(in.op)) {
        w.fetchBlocked = true;
        break;
      }
    }
  }
  // Loose round robin over warps that can take a whole fetch (as GPGPU-Sim: both I-buffer
  // entries free, by default).
  const int need = std::min(cfg_.frontend.fetch_width, cfg_.frontend.ibuffer_entries);
  const int n = static_cast<int>(warps_.size());
  for (int k = 1; k <= n; ++k) {
    const int i = (lastFetched_ + k) % n;
    Warp& w = warps_[i];
    if (!w.active || w.done || w.fetchInFlight || w.fetchBlocked ||
        w.ibuf.size() + need > cfg_.frontend.ibuffer_entries ||
        isa::Kernel::indexOf(w.fetchPc) >= image_.kernel->size())
      continue;
    lastFetched_ = i;
    w.fetchInFlight = true;
    fetchesInFlight_++;
    w.fetchingPc = w.fetchPc;
    w.fetchEpoch = w.epoch;
    w.fetchReadyAt = cycle + static_cast<uint64_t>(std::max(1, cfg_.frontend.icache_hit_latency));
    return;
  }
}

void SmCore::setFault(int slot, const std::string& what) {
  if (!fault_.empty()) return;
  const Warp& w = warps_[slot];
  std::ostringstream s;
  s << "SM " << id_ << ", block " << (w.block >= 0 ? blocks_[w.block].linear : 0) << ", warp "
    << w.indexInBlock << ", PC " << hex(w.ctx ? w.ctx->pc() : 0) << ": " << what;
  fault_ = s.str();
}

std::string SmCore::describeWarps() const {
  std::ostringstream s;
  for (size_t i = 0; i < warps_.size(); ++i) {
    const Warp& w = warps_[i];
    if (!w.active || w.done) continue;
    s << "  SM " << id_ << " block " << blocks_[w.block].linear << " warp " << w.indexInBlock
      << ": PC " << hex(w.ctx->pc()) << ", ";
    if (w.atBarrier) s << "waits at bar.sync " << w.barrierId;
    else if (w.pendingMem) s << "waits for " << w.pendingMem << " memory access(es)";
    else if (w.ibuf.empty()) s << "waits for instruction fetch";
    else s << "waits for a dependence or an execution unit";
    s << "\n";
  }
  return s.str();
}

}  // namespace simtlm::sm
