#include "model/mechanisms/uv/uv_mechanism.h"

#include <algorithm>

#include "model/regfile/operands.h"
#include "isa/lane_mask.h"

namespace simtlm::uv {

namespace {

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
    : sm_(sm), variant_(variant), rel_(sm.cfg, sm.id, stats) {
  stats::Group g(stats, "sm" + std::to_string(sm.id) + ".uv");
  g.add("uniform", uniform_, "instructions",
        variant.scalar ? "intra-warp uniform warp instructions, computed on one lane (UV Sec. 3.1.1)"
                       : "intra-warp uniform warp instructions (IRB candidates; executed as vectors)");
  if (!variant.srf) {
    g.add("uniform_loads", uniformLoads_, "instructions",
          "loads of one address by the whole warp whose destination got the token (broadcast path)");
    g.add("token.peak", tokenPeak_, "registers", "most vector registers holding a token at once, over the SM's warps");
    g.add("token.occupancy", tokenCycles_, "register-cycles", "vector registers holding a token, summed over cycles");
    const std::string p = "sm" + std::to_string(sm.id) + ".";
    stats.addRatio(p + "uv.token.mean_occupancy", p + "uv.token.occupancy", p + "cycles", "registers",
                   "vector registers holding a token, averaged over the SM's cycles");
  }
  if (variant.scalar) {
    g.add("broadcast_reads", broadcastReads_, "operands",
          "scalar-register operands (token or SRF) of vector instructions read through the broadcast path");
    g.add("copies", copies_, "instructions",
          "copy-on-write copies inserted before a partial write to a scalar register (token or SRF)");
    g.add("unit_cycles_saved", cyclesSaved_, "cycles",
          "execution-unit occupancy saved by computing uniform instructions on one lane");
  }
  if (variant.srf) {
    g.add("srf.reads", srf_.reads_, "accesses", "scalar register file reads (sources of scalar and vector instructions)");
    g.add("srf.writes", srf_.writes_, "accesses", "scalar register file writes (a uniform result renamed into the SRF)");
    g.add("srf.releases", srf_.releases_, "registers",
          "scalar registers returned to the freelist (overwritten, written by a vector instruction, the warp gone)");
    g.add("srf.full", srfFull_, "instructions",
          "uniform instructions executed as vectors because the SRF had no free register (UV Sec. 5.3)");
    g.add("srf.peak", srf_.peak_, "registers", "most scalar registers in use at once");
    g.add("srf.occupancy", srf_.occupancyCycles_, "register-cycles", "scalar registers in use, summed over cycles");
    const std::string p = "sm" + std::to_string(sm.id) + ".";
    stats.addRatio(p + "uv.srf.mean_occupancy", p + "uv.srf.occupancy", p + "cycles", "registers",
                   "scalar registers in use, averaged over the SM's cycles");
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
  for (size_t w = 0; w < tokens_.size(); ++w) setTokens(static_cast<int>(w), 0);
  tokens_.assign(sm_.warps.size(), 0);
  irb_.assign(variant_.irb ? static_cast<size_t>(sm_.cfg.uv.irb_entries) : 0, IrbEntry{});  // a new kernel's code
  if (variant_.srf) srf_.reset(sm_.cfg.uv.srf_entries, static_cast<int>(sm_.warps.size()));
  // Reliability: the second lane is the one beside lane N (UV Sec. 3.3: "the first two lanes").
  lane2_ = rel_.on() && variant_.scalar && W >= 2 ? (lane_ + 1 < W ? lane_ + 1 : lane_ - 1) : -1;
  rel_.kernelStarted(*sm_.image.kernel, static_cast<int>(sm_.warps.size()));
}

// A new warp's registers hold no scalar.
void UvMechanism::blockAdmitted(int blockSlot) {
  for (int slot : sm_.blocks[static_cast<size_t>(blockSlot)].warps) {
    setTokens(slot, 0);
    if (variant_.srf) srf_.releaseWarp(slot, sm_.now);
  }
}

// A warp's scalar registers are returned when its block retires: then none of its instructions
// is left in an operand collector to read them (a warp that exited may still have some).
void UvMechanism::blockRetired(int blockSlot) {
  for (int slot : sm_.blocks[static_cast<size_t>(blockSlot)].warps) {
    if (variant_.srf) srf_.releaseWarp(slot, sm_.now);
    setTokens(slot, 0);
    rel_.warpGone(slot, sm_.now);
  }
}

uint64_t UvMechanism::twoCopies(int slot) const { return lane2_ >= 0 ? scalarRegs(slot) : 0; }

uint32_t UvMechanism::readScalar(int slot, uint8_t r) {
  const isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  const uint32_t v = variant_.srf ? srf_.read(slot, r) : ctx.privateReg(r)[lane_];
  if (lane2_ >= 0) rel_.compare(v, ctx.privateReg(r)[variant_.srf ? lane_ : lane2_], false);
  return v;
}

uint64_t UvMechanism::scalarRegs(int slot) const {
  return variant_.srf ? srf_.renamed(slot) : tokens_[static_cast<size_t>(slot)];
}

// Every source uniform: GPRs holding a scalar, immediates, thread-independent special
// registers. Only ALU instructions writing a vector register qualify: a select reads a per-lane
// predicate, a compare writes one.
bool UvMechanism::uniformSources(const isa::Instr& in, uint64_t scalars) const {
  const isa::Format f = isa::info(in.op).format;
  if (f == isa::Format::Special) return uniformSpecial(in.a);
  if (f != isa::Format::Unary && f != isa::Format::Binary && f != isa::Format::Ternary) return false;
  return (regfile::sourceGprs(in) & ~scalars) == 0;
}

namespace {

bool isAlu(const isa::Instr& in) {
  switch (isa::info(in.op).format) {
    case isa::Format::Load: case isa::Format::Store: case isa::Format::Atomic: case isa::Format::AtomicCas:
    case isa::Format::Branch: case isa::Format::NoOperands: case isa::Format::Barrier:
      return false;
    default:
      return true;
  }
}

}  // namespace

void UvMechanism::planExecute(int slot, const isa::Instr& in, uint32_t pc, sm::ExecutePlan& plan) {
  if (rel_.registerFaultDue(sm_.now)) rel_.injectRegister(*sm_.warps[static_cast<size_t>(slot)].ctx, pc, sm_.now);
  const uint32_t threads = plan.exec;
  decide(slot, in, pc, plan);
  pc_ = pc;
  lanes_ = plan.exec;
  // ALU coverage: a converted instruction computed on two lanes, or a reused result (the IRB's
  // parity protects it, Sec. 3.3), protects its whole warp's thread operations.
  if (rel_.on() && isAlu(in)) rel_.aluInstruction(__builtin_popcount(threads), irbHit_ || (scalarResult_ && lane2_ >= 0));
}

void UvMechanism::decide(int slot, const isa::Instr& in, uint32_t pc, sm::ExecutePlan& plan) {
  rows_.reset();
  irbEntry_ = -1;
  irbHit_ = false;
  scalarResult_ = false;
  const int W = sm_.warps[static_cast<size_t>(slot)].ctx->lanes();
  const bool wholeWarp = plan.exec == isa::fullLaneMask(W);  // (W is the launch's warp size)
  const auto d = regfile::destGpr(in);
  const uint64_t scalars = scalarRegs(slot);
  const bool uniform = wholeWarp && d && uniformSources(in, scalars);
  // The token design always has room for a uniform result; the SRF only while a register is free.
  const bool room = !variant_.srf || srf_.hasFree();
  scalarResult_ = uniform && variant_.scalar && room;
  // With scalar execution, a write that leaves lanes of a scalar register unwritten would leave
  // them stale: the scalar is copied into every lane first.
  if (variant_.scalar && d && (scalars >> *d & 1) && !wholeWarp) copyOnWrite(slot, *d, plan);
  // Scalar sources: a vector instruction reads them through the broadcast path, a scalar one
  // from the SRF (a token design's scalar instruction reads lane N where it is).
  if (variant_.srf || (variant_.scalar && !scalarResult_)) broadcastSources(slot, in, plan);
  const isa::OpInfo& oi = isa::info(in.op);
  destToken_ = d ? -1 : 0;
  if (uniform) {
    uniform_++;
    if (!room) srfFull_++;
    if (room) destToken_ = 1;
    if (scalarResult_ && variant_.srf) {  // the result goes to the SRF: lane N of a row, not the VRF
      isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
      if (!ctx.isMapped(*d)) rows_.mapDestination(ctx, *d);
      plan.rfWrite = lane2_ >= 0;  // (reliability: the second copy, lane N of the vector register)
    }
    if (variant_.irb && room && lookUp(slot, in, pc, plan)) return;
    if (scalarResult_) {  // a scalar instruction: lane N (and M), one cycle
      plan.exec = 1u << lane_ | (lane2_ >= 0 ? 1u << lane2_ : 0u);
      cyclesSaved_ += plan.occupancy - 1;
      plan.occupancy = 1;
    }
  } else if (d && oi.format == isa::Format::Load && !isa::isLocal(in.op) && wholeWarp && !variant_.srf &&
             (regfile::sourceGprs(in) & ~scalars) == 0) {
    destToken_ = 1;  // every lane reads the same word (the SRF design keeps loads in the VRF)
    uniformLoads_++;
  }
}

void UvMechanism::copyOnWrite(int slot, uint8_t r, sm::ExecutePlan& plan) {
  isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  const int W = ctx.lanes();
  const uint32_t scalar = readScalar(slot, r);
  std::fill(ctx.privateReg(r), ctx.privateReg(r) + W, scalar);
  if (variant_.srf) srf_.release(slot, r, sm_.now);
  else setTokens(slot, tokens_[static_cast<size_t>(slot)] & ~(uint64_t{1} << r));
  copies_++;
  // The copy is a vector move issued before the instruction (UV Sec. 3.1.1); it is charged to
  // the instruction's unit as a move's occupancy.
  const int width = std::max(1, sm_.cfg.exec.simd_width);
  plan.occupancy += static_cast<uint64_t>((W + width - 1) / width);
}

// The scalar registers the instruction reads are mapped, for its execution, onto rows that hold
// the scalar (lane N's value, or the SRF register's) in every lane: the broadcast path. An SRF
// source is not read from the register-file banks.
void UvMechanism::broadcastSources(int slot, const isa::Instr& in, sm::ExecutePlan& plan) {
  isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  const int W = ctx.lanes();
  for (uint64_t bits = regfile::sourceGprs(in) & scalarRegs(slot); bits; bits &= bits - 1) {
    const auto r = static_cast<uint8_t>(__builtin_ctzll(bits));
    uint32_t* values = rows_.mapSource(ctx, r);
    std::fill(values, values + W, readScalar(slot, r));
    if (!scalarResult_) broadcastReads_++;
    if (variant_.srf) plan.rfReads &= ~(uint64_t{1} << r);
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

void UvMechanism::remember(uint32_t result) {
  IrbEntry& x = irb_[static_cast<size_t>(irbEntry_)];
  x.valid = true;
  x.src = irbSrc_;
  x.result = result;
}

void UvMechanism::afterExecute(int slot, const isa::Instr& in) {
  writeBack(slot, in);
  rel_.liveAfter(slot, pc_, twoCopies(slot), sm_.now);
}

void UvMechanism::writeBack(int slot, const isa::Instr& in) {
  isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  const auto d = regfile::destGpr(in);
  if (d && lanes_ != 0 && isAlu(in) && rel_.aluFaultDue(sm_.now)) rel_.injectAlu(ctx.reg(*d), lanes_, sm_.now);
  // Reliability: the two lanes' results are compared before the register file is updated.
  if (scalarResult_ && lane2_ >= 0 && !irbHit_) rel_.compare(ctx.reg(*d)[lane_], ctx.reg(*d)[lane2_], true);
  // The scalar result, read before the rows are unmapped (an SRF result is on its row).
  uint32_t result = 0;
  if (irbHit_) result = irb_[static_cast<size_t>(irbEntry_)].result;  // what the warp really gets
  else if (d && destToken_ > 0) result = ctx.reg(*d)[lane_];
  if (irbEntry_ >= 0 && !irbHit_) remember(result);
  // A vector result written at execute onto its own broadcast row (rD = rD + rB, ld.param rD,
  // [rD]: every lane written or holding the scalar) belongs in the register. Other loads write
  // at their answer, after the mapping is gone.
  const isa::OpInfo& oi = isa::info(in.op);
  const bool writtenNow = !scalarResult_ && (!isa::isMemory(oi.format) || oi.cls == isa::OpClass::LoadParam);
  rows_.unmapAll(ctx, writtenNow ? d : std::nullopt);
  if (!d || destToken_ == 0) return;
  if (variant_.srf) {
    if (!scalarResult_) {
      srf_.release(slot, *d, sm_.now);  // a vector write ends the mapping
      return;
    }
    srf_.write(slot, *d, result, sm_.now);  // renamed (the old scalar is freed)
    if (lane2_ >= 0) ctx.privateReg(*d)[lane_] = result;  // reliability: the second copy
    return;
  }
  if (irbHit_) {  // the reused value: on lane N (and M), or broadcast to every lane
    if (!scalarResult_) std::fill(ctx.privateReg(*d), ctx.privateReg(*d) + ctx.lanes(), result);
    ctx.privateReg(*d)[lane_] = result;
    if (scalarResult_ && lane2_ >= 0) ctx.privateReg(*d)[lane2_] = result;
  }
  const uint64_t bit = uint64_t{1} << *d;
  const uint64_t tok = tokens_[static_cast<size_t>(slot)];
  setTokens(slot, destToken_ > 0 ? tok | bit : tok & ~bit);
}

void UvMechanism::setTokens(int slot, uint64_t mask) {
  uint64_t& tok = tokens_[static_cast<size_t>(slot)];
  if (tok == mask) return;
  if (sm_.now > tokensSince_) tokenCycles_ += tokensSet_ * (sm_.now - tokensSince_);
  tokensSince_ = std::max(tokensSince_, sm_.now);
  tokensSet_ = tokensSet_ + static_cast<uint64_t>(__builtin_popcountll(mask)) - static_cast<uint64_t>(__builtin_popcountll(tok));
  tokenPeak_ = std::max(tokenPeak_, tokensSet_);
  tok = mask;
}

}  // namespace simtlm::uv
