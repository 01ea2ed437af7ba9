#include "model/mechanisms/uv/uv_mechanism.h"

#include <algorithm>

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

constexpr uint32_t kTagMask = (1u << 10) - 1;  // UV Sec. 4: a 10-bit partial PC

}  // namespace

UvMechanism::UvMechanism(sm::SmContext& sm, stats::Registry& stats, UvVariant variant)
    : sm_(sm), variant_(variant) {
  stats::Group g(stats, "sm" + std::to_string(sm.id) + ".uv");
  g.add("uniform", uniform_, "instructions",
        variant.scalar ? "intra-warp uniform warp instructions, computed on one lane (UV Sec. 3.1.1)"
                       : "intra-warp uniform warp instructions (IRB candidates; executed as vectors)");
  g.add("uniform_loads", uniformLoads_, "instructions",
        "loads of one address by the whole warp whose destination got the token (broadcast path)");
  if (variant.scalar) {
    g.add("broadcast_reads", broadcastReads_, "operands",
          "token-register operands of vector instructions read through the broadcast path");
    g.add("copies", copies_, "instructions",
          "copy-on-write copies inserted before a partial write to a token register");
    g.add("unit_cycles_saved", cyclesSaved_, "cycles",
          "execution-unit occupancy saved by computing uniform instructions on one lane");
  }
  if (variant.irb) {
    g.add("irb.hits", irbHits_, "instructions",
          "uniform instructions whose PC, opcode and source values matched an IRB entry: the stored "
          "result was written, execution skipped (UV Sec. 3.2)");
    g.add("irb.mismatches", irbMismatches_, "instructions",
          "uniform instructions whose PC and opcode matched but source values differed (executed, "
          "entry updated)");
    g.add("irb.misses", irbMisses_, "instructions", "uniform instructions whose PC missed (executed, entry allocated)");
    g.add("irb.replacements", irbReplacements_, "entries", "valid IRB entries evicted (LRU)");
    g.addRatio("irb.hit_rate", "irb.hits", "uniform", "fraction", "IRB hits per uniform instruction");
  }
}

void UvMechanism::kernelStarted() {
  const int W = static_cast<int>(sm_.image.launch.warpSize);
  lane_ = std::max(0, W - sm_.cfg.exec.simd_width);  // UV Sec. 3.1.1: N = warp size - NumSP
  tokens_.assign(sm_.warps.size(), 0);
  irb_.assign(variant_.irb ? static_cast<size_t>(sm_.cfg.uv.irb_entries) : 0, IrbEntry{});  // a new kernel's code
}

// A new warp's registers hold no scalar.
void UvMechanism::blockAdmitted(int blockSlot) {
  for (int slot : sm_.blocks[static_cast<size_t>(blockSlot)].warps) tokens_[static_cast<size_t>(slot)] = 0;
}

// Every source uniform: GPRs with the token, immediates, thread-independent special registers.
// Only ALU instructions writing a vector register qualify: a select reads a per-lane predicate,
// a compare writes one.
bool UvMechanism::uniformSources(int slot, const isa::Instr& in) const {
  const isa::Format f = isa::info(in.op).format;
  if (f == isa::Format::Special) return uniformSpecial(in.a);
  if (f != isa::Format::Unary && f != isa::Format::Binary && f != isa::Format::Ternary) return false;
  const uint64_t src = regfile::sourceGprs(in);
  return (src & ~tokens_[static_cast<size_t>(slot)]) == 0;
}

void UvMechanism::planExecute(int slot, const isa::Instr& in, uint32_t pc, sm::ExecutePlan& plan) {
  mapped_.clear();
  irbEntry_ = -1;
  irbHit_ = false;
  isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  uint64_t& tok = tokens_[static_cast<size_t>(slot)];
  const int W = ctx.lanes();
  const bool wholeWarp = plan.exec == allLanes(W);  // (W is the launch's warp size)
  const auto d = regfile::destGpr(in);
  if (wholeWarp && d && uniformSources(slot, in)) {
    uniform_++;
    destToken_ = 1;
    if (variant_.irb && lookUp(slot, in, pc, plan)) return;
    if (variant_.scalar) {  // a scalar instruction: lane N, one cycle
      plan.exec = 1u << lane_;
      cyclesSaved_ += plan.occupancy - 1;
      plan.occupancy = 1;
    }
    return;
  }
  // A vector instruction. With scalar execution, a write that leaves lanes of a token register
  // unwritten would leave them stale: the scalar is copied into every lane first.
  if (variant_.scalar && d && (tok >> *d & 1) && !wholeWarp) {
    const uint32_t scalar = ctx.privateReg(*d)[lane_];
    std::fill(ctx.privateReg(*d), ctx.privateReg(*d) + W, scalar);
    tok &= ~(uint64_t{1} << *d);
    copies_++;
    // The copy is a vector move issued before the instruction (UV Sec. 3.1.1); it is charged
    // to the instruction's unit as a move's occupancy.
    const int width = std::max(1, sm_.cfg.exec.simd_width);
    plan.occupancy += static_cast<uint64_t>((W + width - 1) / width);
  }
  if (variant_.scalar) broadcastSources(slot, in);  // (otherwise every lane holds the value)
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
void UvMechanism::broadcastSources(int slot, const isa::Instr& in) {
  isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  const int W = ctx.lanes();
  for (uint64_t bits = regfile::sourceGprs(in) & tokens_[static_cast<size_t>(slot)]; bits; bits &= bits - 1) {
    const auto r = static_cast<uint8_t>(__builtin_ctzll(bits));
    auto& values = rows_[mapped_.size()];
    std::fill(values.begin(), values.begin() + W, ctx.privateReg(r)[lane_]);
    ctx.mapReg(r, values.data());
    mapped_.push_back(r);
    broadcastReads_++;
  }
}

// UV Sec. 3.2: the IRB is looked up by partial PC; an entry whose opcode matches and whose
// source values equal the instruction's (lane N of each source, or the immediate) supplies its
// result, and execution is skipped (no lane computes; the result is ready the next cycle).
// Otherwise the instruction executes and its result fills the entry (LRU victim on a miss).
// Special-register moves are not looked up (the value a special register holds is a source the
// entry would have to store; they take one cycle anyway).
bool UvMechanism::lookUp(int slot, const isa::Instr& in, uint32_t pc, sm::ExecutePlan& plan) {
  const isa::Format f = isa::info(in.op).format;
  if (f == isa::Format::Special) return false;
  const isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  auto value = [&](uint8_t r) { return ctx.reg(r)[lane_]; };
  irbSrc_ = {f == isa::Format::Unary && in.hasImm ? in.imm : value(in.a), 0, 0};
  if (f == isa::Format::Binary) irbSrc_[1] = in.hasImm ? in.imm : value(in.b);
  if (f == isa::Format::Ternary) irbSrc_[1] = value(in.b), irbSrc_[2] = value(in.c);
  const uint32_t tag = (pc >> 3) & kTagMask;
  ++lookups_;
  int victim = 0;
  for (int e = 0; e < static_cast<int>(irb_.size()); ++e) {
    IrbEntry& x = irb_[static_cast<size_t>(e)];
    if (x.valid && x.tag == tag && x.op == in.op) {
      x.used = lookups_;
      irbEntry_ = e;
      if (x.src == irbSrc_) {
        irbHit_ = true;
        irbHits_++;
        plan.exec = 0;  // nothing computes
        cyclesSaved_ += plan.occupancy - 1;
        plan.occupancy = 1;
        plan.latency = 1;
        return true;
      }
      irbMismatches_++;
      return false;
    }
    const IrbEntry& v = irb_[static_cast<size_t>(victim)];
    if (!x.valid ? v.valid : (v.valid && x.used < v.used)) victim = e;
  }
  irbMisses_++;
  if (irb_[static_cast<size_t>(victim)].valid) irbReplacements_++;
  irb_[static_cast<size_t>(victim)] = IrbEntry{false, tag, in.op, irbSrc_, 0, lookups_};
  irbEntry_ = victim;
  return false;
}

void UvMechanism::remember(int slot, const isa::Instr& in) {
  IrbEntry& x = irb_[static_cast<size_t>(irbEntry_)];
  x.valid = true;
  x.src = irbSrc_;
  x.result = sm_.warps[static_cast<size_t>(slot)].ctx->privateReg(in.d)[lane_];
}

void UvMechanism::afterExecute(int slot, const isa::Instr& in) {
  isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  const auto d = regfile::destGpr(in);
  // A result written at execute onto its own broadcast row (rD = rD + rB, ld.param rD, [rD]: the
  // whole warp, every lane written) belongs in the register. Other loads write at their answer,
  // after the mapping is gone.
  const isa::OpInfo& oi = isa::info(in.op);
  const bool writtenNow = !isa::isMemory(oi.format) || oi.cls == isa::OpClass::LoadParam;
  for (size_t i = 0; i < mapped_.size(); ++i) {
    const uint8_t r = mapped_[i];
    if (writtenNow && d && *d == r) std::copy(rows_[i].begin(), rows_[i].begin() + ctx.lanes(), ctx.privateReg(r));
    ctx.unmapReg(r);
  }
  mapped_.clear();
  if (irbHit_) {  // the reused value is what the warp gets: on lane N, or broadcast to every lane
    const uint32_t v = irb_[static_cast<size_t>(irbEntry_)].result;
    if (variant_.scalar) ctx.privateReg(in.d)[lane_] = v;
    else std::fill(ctx.privateReg(in.d), ctx.privateReg(in.d) + ctx.lanes(), v);
  } else if (irbEntry_ >= 0) {
    remember(slot, in);
  }
  if (d && destToken_ != 0) {
    const uint64_t bit = uint64_t{1} << *d;
    uint64_t& tok = tokens_[static_cast<size_t>(slot)];
    tok = destToken_ > 0 ? tok | bit : tok & ~bit;
  }
}

}  // namespace simtlm::uv
