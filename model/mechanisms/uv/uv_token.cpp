#include "model/mechanisms/uv/uv_token.h"

#include <algorithm>

#include "isa/local_memory.h"
#include "model/regfile/operands.h"

namespace simtlm::uv {

namespace {

uint32_t allLanes(int lanes) { return lanes >= 32 ? ~0u : (1u << lanes) - 1; }

// Special registers that hold the same value in every thread of a warp (UV Sec. 3.1: "thread
// id independent information such as thread block dimensions"); the warp's index in its block
// is one too.
bool uniformSpecial(uint8_t s) {
  using S = isa::Special;
  switch (static_cast<S>(s)) {
    case S::NtidX: case S::NtidY: case S::NtidZ: case S::CtaidX: case S::CtaidY: case S::CtaidZ:
    case S::NctaidX: case S::NctaidY: case S::NctaidZ: case S::WarpId:
      return true;
    default:
      return false;
  }
}

}  // namespace

UvTokenMechanism::UvTokenMechanism(sm::SmContext& sm, stats::Registry& stats) : sm_(sm) {
  stats::Group g(stats, "sm" + std::to_string(sm.id) + ".uv");
  g.add("uniform", uniform_, "instructions",
        "intra-warp uniform warp instructions computed on one lane (UV Sec. 3.1.1)");
  g.add("copies", copies_, "instructions",
        "copy-on-write copies inserted before a partial write to a token register");
  g.add("broadcast_reads", broadcastReads_, "operands",
        "token-register operands of vector instructions read through the broadcast path");
  g.add("uniform_loads", uniformLoads_, "instructions",
        "loads of one address by the whole warp whose destination got the token (broadcast path)");
  g.add("unit_cycles_saved", cyclesSaved_, "cycles",
        "execution-unit occupancy saved by computing uniform instructions on one lane");
}

void UvTokenMechanism::kernelStarted() {
  const int W = static_cast<int>(sm_.image.launch.warpSize);
  lane_ = std::max(0, W - sm_.cfg.exec.simd_width);  // UV Sec. 3.1.1: N = warp size - NumSP
  tokens_.assign(sm_.warps.size(), 0);
}

// A new warp's registers hold no scalar.
void UvTokenMechanism::blockAdmitted(int blockSlot) {
  for (int slot : sm_.blocks[static_cast<size_t>(blockSlot)].warps) tokens_[static_cast<size_t>(slot)] = 0;
}

// Every source uniform: GPRs with the token, immediates, thread-independent special registers.
// Only ALU instructions writing a vector register qualify: a select reads a per-lane predicate,
// a compare writes one.
bool UvTokenMechanism::uniformSources(int slot, const isa::Instr& in) const {
  const isa::Format f = isa::info(in.op).format;
  if (f == isa::Format::Special) return uniformSpecial(in.a);
  if (f != isa::Format::Unary && f != isa::Format::Binary && f != isa::Format::Ternary) return false;
  const uint64_t src = regfile::sourceGprs(in);
  return (src & ~tokens_[static_cast<size_t>(slot)]) == 0;
}

void UvTokenMechanism::planExecute(int slot, const isa::Instr& in, sm::ExecutePlan& plan) {
  mapped_.clear();
  isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  uint64_t& tok = tokens_[static_cast<size_t>(slot)];
  const int W = ctx.lanes();
  const bool wholeWarp = plan.exec == allLanes(W) && W == static_cast<int>(sm_.image.launch.warpSize);
  const auto d = regfile::destGpr(in);
  if (wholeWarp && d && uniformSources(slot, in)) {  // a scalar instruction: lane N, one cycle
    plan.exec = 1u << lane_;
    cyclesSaved_ += plan.occupancy - 1;
    plan.occupancy = 1;
    uniform_++;
    destToken_ = 1;
    return;
  }
  // A vector instruction. A write that leaves lanes of a token register unwritten would leave
  // them stale: the scalar is copied into every lane first.
  if (d && (tok >> *d & 1) && !wholeWarp) {
    const uint32_t scalar = ctx.privateReg(*d)[lane_];
    std::fill(ctx.privateReg(*d), ctx.privateReg(*d) + W, scalar);
    tok &= ~(uint64_t{1} << *d);
    copies_++;
    // The copy is a vector move issued before the instruction (UV Sec. 3.1.1); it is charged
    // to the instruction's unit as a move's occupancy.
    const int width = std::max(1, sm_.cfg.exec.simd_width);
    plan.occupancy += static_cast<uint64_t>((W + width - 1) / width);
  }
  broadcastSources(slot, in);
  const isa::OpInfo& oi = isa::info(in.op);
  if (!d) {
    destToken_ = 0;
  } else if (oi.format == isa::Format::Load && !isa::isLocal(in.op) && wholeWarp &&
             (regfile::sourceGprs(in) & ~tok) == 0) {
    destToken_ = 1;  // every lane reads the same word
    uniformLoads_++;
  } else {
    destToken_ = -1;
  }
}

// The token registers the vector instruction reads are mapped, for its execution, onto rows
// that hold lane N's value in every lane: the broadcast path.
void UvTokenMechanism::broadcastSources(int slot, const isa::Instr& in) {
  isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  const int W = ctx.lanes();
  for (uint64_t bits = regfile::sourceGprs(in) & tokens_[static_cast<size_t>(slot)]; bits; bits &= bits - 1) {
    const auto r = static_cast<uint8_t>(__builtin_ctzll(bits));
    const int row = static_cast<int>(mapped_.size());
    auto& values = rows_[static_cast<size_t>(row)];
    std::fill(values.begin(), values.begin() + W, ctx.privateReg(r)[lane_]);
    ctx.mapReg(r, values.data());
    mapped_.push_back({r, row});
    broadcastReads_++;
  }
}

void UvTokenMechanism::afterExecute(int slot, const isa::Instr& in) {
  isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  const auto d = regfile::destGpr(in);
  for (const Broadcast& b : mapped_) {
    // A result written at execute onto its own broadcast row (rD = rD + rB, ld.param rD, [rD]:
    // the whole warp, every lane written) belongs in the register. Other loads write at their
    // answer, after the mapping is gone.
    const isa::OpInfo& oi = isa::info(in.op);
    if (d && *d == b.reg && (!isa::isMemory(oi.format) || oi.cls == isa::OpClass::LoadParam))
      std::copy(rows_[static_cast<size_t>(b.row)].begin(), rows_[static_cast<size_t>(b.row)].begin() + ctx.lanes(),
                ctx.privateReg(b.reg));
    ctx.unmapReg(b.reg);
  }
  mapped_.clear();
  if (d && destToken_ != 0) {
    const uint64_t bit = uint64_t{1} << *d;
    uint64_t& tok = tokens_[static_cast<size_t>(slot)];
    tok = destToken_ > 0 ? tok | bit : tok & ~bit;
  }
}

}  // namespace simtlm::uv
