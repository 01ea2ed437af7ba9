#include "model/mechanisms/affine/affine_mechanism.h"

#include <algorithm>

#include <spdlog/logger.h>

#include "isa/disassembler.h"
#include "isa/lane_mask.h"
#include "isa/semantics.h"
#include "model/common/log.h"
#include "model/regfile/operands.h"

namespace simtlm::affine {

namespace {

// The affine unit's base/stride arithmetic (Kim Sec. 4.2: addition, subtraction, multiplication
// and left shifts, a product or shift needing one uniform factor; mad.lo is a product and an
// addition; mov copies). Exact modulo 2^32: lane i's value is base + stride * i.
std::optional<AffineValue> affineOp(isa::Op op, AffineValue x, AffineValue y, AffineValue z) {
  using isa::Op;
  auto mul = [](AffineValue a, AffineValue b) -> std::optional<AffineValue> {
    if (b.stride == 0) return AffineValue{a.base * b.base, a.stride * b.base};
    if (a.stride == 0) return AffineValue{a.base * b.base, b.stride * a.base};
    return std::nullopt;
  };
  switch (op) {
    case Op::MOV_B32: return x;
    case Op::ADD_U32: return AffineValue{x.base + y.base, x.stride + y.stride};
    case Op::SUB_U32: return AffineValue{x.base - y.base, x.stride - y.stride};
    case Op::MUL_LO_U32: return mul(x, y);
    case Op::MAD_LO_U32: {
      const auto p = mul(x, y);
      if (!p) return std::nullopt;
      return AffineValue{p->base + z.base, p->stride + z.stride};
    }
    case Op::SHL_B32:
      if (y.stride != 0) return std::nullopt;
      if (y.base >= 32) return AffineValue{0, 0};
      return AffineValue{x.base << y.base, x.stride << y.base};
    default:
      return std::nullopt;
  }
}

}  // namespace

AffineMechanism::AffineMechanism(sm::SmContext& sm, stats::Registry& stats, AffineVariant variant)
    : sm_(sm), log_(log::get("gpu.sm" + std::to_string(sm.id) + ".affine")), variant_(variant) {
  stats::Group g(stats, "sm" + std::to_string(sm.id) + ".affine");
  g.add("instructions", compact_, "instructions",
        "warp instructions executed compactly on the affine unit, result in the ASRF (Kim Table 1: Aff inst)");
  g.add("uniform", uniform_, "instructions", "of them with a uniform result (stride 0)");
  g.add("suppressed", suppressed_, "instructions",
        "affine instructions under divergence or a guard: computed on the affine unit, result expanded "
        "into the lanes (Kim Table 1: Supp aff)");
  g.add("asrf_full", full_, "instructions",
        "affine instructions whose result was expanded into the lanes because the warp's ASRF was full");
  g.add("unit_ops", unitOps_, "operations", "base/stride computations on the affine unit (all of the above)");
  g.add("expansions", expansions_, "expansions",
        "registers expanded into the vector register file: results of suppressed instructions and old "
        "values under partial writes (Kim Table 1: Exp inst)");
  g.add("expansion_cycles", expansionCycles_, "cycles", "execution-unit cycles spent writing expansions");
  g.add("expanded_operands", expandedOperands_, "operands",
        "ASRF operands of vector instructions expanded through the broadcast path");
  g.add("seeds", seeds_, "instructions", "ld.param of a uniform address whose destination went to the ASRF");
  g.add("rf_reads_saved", readsSaved_, "operands",
        "vector register-file operand reads replaced by ASRF reads (Kim Table 1: Aff rds)");
  g.add("rf_writes_saved", writesSaved_, "results",
        "vector register-file writes replaced by ASRF writes (Kim Table 1: Aff wrs)");
  g.add("unit_cycles_saved", cyclesSaved_, "cycles",
        "execution-unit occupancy saved by executing on the affine unit in one cycle");
  g.add("asrf.reads", asrf_.reads_, "accesses", "ASRF entries read (affine-unit operands and expansions)");
  g.add("asrf.writes", asrf_.writes_, "accesses", "ASRF entries written");
  g.add("asrf.peak", asrf_.peak_, "entries", "most ASRF entries one warp held at once");
  if (variant.branches) {
    g.add("compares", compares_, "instructions",
          "compares resolved once on the affine unit (uniform operands, or a uniform value outside an "
          "affine sequence), leaving a uniform predicate");
    g.add("compares_affine", affineCompares_, "instructions", "of them a uniform value against an affine sequence");
    g.add("branches", branches_, "instructions",
          "guarded branches on a uniform predicate, resolved once for the warp (Kim Table 1: Aff bra)");
  }
  if (variant.memory) {
    g.add("memops", memops_, "instructions",
          "global loads and stores of an affine or uniform address by the whole warp: transactions generated "
          "from base and stride, no address generated on the lanes (Kim Table 1: affine loads)");
    g.add("loads", memLoads_, "instructions", "of them loads");
    g.add("stores", memStores_, "instructions", "of them stores");
    g.add("memops_total", memopsTotal_, "instructions",
          "global-memory instructions executed (loads, stores, atomics, ld.const, local): memops' denominator");
  }
}

void AffineMechanism::kernelStarted() {
  asrf_.reset(static_cast<int>(sm_.warps.size()), sm_.cfg.affine.asrf_entries);
  uniformPreds_.assign(sm_.warps.size(), 0);
}

void AffineMechanism::blockAdmitted(int blockSlot) {
  for (int slot : sm_.blocks[static_cast<size_t>(blockSlot)].warps) {
    asrf_.clearWarp(slot);
    uniformPreds_[static_cast<size_t>(slot)] = 0;
  }
}

// Kim Sec. 4.2: a uniform condition is one compare; a uniform value against an affine sequence
// is resolved when the value is below or above every element. The sequence must not wrap in the
// compare's domain (signed for .s32, unsigned otherwise), so that its ends are its extremes.
bool AffineMechanism::coherentCompare(int slot, const isa::Instr& in, bool& affine) {
  using isa::Op;
  const uint64_t held = asrf_.held(slot);
  if (regfile::sourceGprs(in) & ~held) return false;
  const AffineValue x = asrf_.read(slot, in.a);
  const AffineValue y = in.hasImm ? AffineValue{in.imm, 0} : asrf_.read(slot, in.b);
  affine = false;
  if (x.stride == 0 && y.stride == 0) return true;
  if (x.stride != 0 && y.stride != 0) return false;
  switch (in.op) {
    case Op::SETP_EQ_B32: case Op::SETP_NE_B32: case Op::SETP_LT_U32: case Op::SETP_LE_U32:
    case Op::SETP_GT_U32: case Op::SETP_GE_U32: case Op::SETP_LT_S32: case Op::SETP_LE_S32:
    case Op::SETP_GT_S32: case Op::SETP_GE_S32:
      break;
    default:
      return false;  // floating point: uniform operands only (Sec. 4.1)
  }
  const bool isSigned = in.op == Op::SETP_LT_S32 || in.op == Op::SETP_LE_S32 || in.op == Op::SETP_GT_S32 ||
                        in.op == Op::SETP_GE_S32;
  auto domain = [&](uint32_t v) -> int64_t { return isSigned ? int64_t{static_cast<int32_t>(v)} : int64_t{v}; };
  const AffineValue seq = x.stride != 0 ? x : y;
  const uint32_t u = x.stride != 0 ? y.base : x.base;
  const int W = sm_.warps[static_cast<size_t>(slot)].ctx->lanes();
  const int64_t first = domain(seq.base);
  const int64_t last = first + int64_t{static_cast<int32_t>(seq.stride)} * (W - 1);
  const int64_t lo = isSigned ? INT32_MIN : 0, hi = isSigned ? INT32_MAX : int64_t{UINT32_MAX};
  if (last < lo || last > hi) return false;  // the sequence wraps
  const int64_t v = domain(u);
  if (v >= std::min(first, last) && v <= std::max(first, last)) return false;
  affine = true;
  return true;
}

// affine-ab: a guarded branch whose predicate is uniform is resolved once for the warp.
void AffineMechanism::issuing(int slot, const sm::IBufferEntry& e, uint32_t /*exec*/) {
  if (!variant_.branches || isa::info(e.instr.op).format != isa::Format::Branch) return;
  if (e.instr.guard != isa::kPredTrue && (uniformPreds_[static_cast<size_t>(slot)] >> e.instr.guard & 1u))
    branches_++;
}

std::optional<AffineValue> AffineMechanism::affineAddress(int slot, const isa::Instr& in, bool converged) const {
  // Global loads (the data and read-only paths) and stores. Not atomics (read-modify-write at
  // memory), ld.const/ld.param (already uniform seeds), local (per-thread, interleaved) or shared.
  if (in.op != isa::Op::LD_GLOBAL && in.op != isa::Op::LD_GLOBAL_NC && in.op != isa::Op::ST_GLOBAL) return std::nullopt;
  if (!converged) return std::nullopt;
  const uint32_t off = static_cast<uint32_t>(in.off);
  if (!in.hasBase) return AffineValue{off, 0};
  if (!asrf_.holds(slot, in.a)) return std::nullopt;
  const AffineValue v = asrf_.peek(slot, in.a);  // (counted as read where it is expanded)
  return AffineValue{v.base + off, v.stride};
}

bool AffineMechanism::compactAddress(int slot, const isa::Instr& /*in*/, uint32_t /*exec*/, sm::CompactAddress& out) {
  if (!address_ || slot != addressSlot_) return false;
  out = sm::CompactAddress{true, address_->base, address_->stride};
  return true;
}

uint64_t AffineMechanism::expansionCycles(int slot) const {
  const int W = sm_.warps[static_cast<size_t>(slot)].ctx->lanes();
  const int width = std::max(1, sm_.cfg.exec.simd_width);
  return static_cast<uint64_t>((W + width - 1) / width);
}

// Kim Sec. 4.1, seed (2): the thread index and the like. The values are read for every lane
// (onto a scratch row) and the register is affine when they form base + stride * lane.
std::optional<AffineValue> AffineMechanism::specialValue(int slot, const isa::Instr& in) {
  isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  const int W = ctx.lanes();
  uint32_t* row = rows_.scratch();
  const bool wasMapped = ctx.isMapped(in.d);
  uint32_t* before = ctx.reg(in.d);
  ctx.mapReg(in.d, row);
  ctx.executeAlu(in, isa::fullLaneMask(W));
  if (wasMapped) ctx.mapReg(in.d, before);
  else ctx.unmapReg(in.d);
  const AffineValue v{row[0], W > 1 ? row[1] - row[0] : 0};
  for (int i = 0; i < W; ++i)
    if (row[i] != v.lane(i)) return std::nullopt;
  return v;
}

std::optional<AffineValue> AffineMechanism::affineResult(int slot, const isa::Instr& in) {
  const isa::OpInfo& oi = isa::info(in.op);
  if (!regfile::destGpr(in) || oi.unit != isa::Unit::Sp) return std::nullopt;
  if (oi.format == isa::Format::Special) return specialValue(slot, in);
  if (oi.format != isa::Format::Unary && oi.format != isa::Format::Binary && oi.format != isa::Format::Ternary)
    return std::nullopt;
  if (regfile::sourceGprs(in) & ~asrf_.held(slot)) return std::nullopt;  // a generic source
  auto operand = [&](uint8_t r) { return asrf_.read(slot, r); };
  AffineValue x{}, y{}, z{};
  if (oi.format == isa::Format::Unary) x = in.hasImm ? AffineValue{in.imm, 0} : operand(in.a);
  if (oi.format == isa::Format::Binary) x = operand(in.a), y = in.hasImm ? AffineValue{in.imm, 0} : operand(in.b);
  if (oi.format == isa::Format::Ternary) x = operand(in.a), y = operand(in.b), z = operand(in.c);
  if (auto v = affineOp(in.op, x, y, z)) return v;
  // Any other SP operation on uniform operands: the affine unit's integer or FP unit, once.
  if (x.stride == 0 && y.stride == 0 && z.stride == 0) return AffineValue{isa::evalLane(in.op, x.base, y.base, z.base), 0};
  return std::nullopt;
}

void AffineMechanism::planExecute(int slot, const isa::Instr& in, uint32_t /*pc*/, sm::ExecutePlan& plan) {
  isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  kind_ = Kind::None;
  rows_.reset();
  lanes_ = plan.exec;
  address_.reset();
  const uint32_t full = isa::fullLaneMask(ctx.lanes());
  const bool converged = plan.exec == full && in.guard == isa::kPredTrue;
  const auto d = regfile::destGpr(in);
  const uint64_t srcHeld = regfile::sourceGprs(in) & asrf_.held(slot);
  if (variant_.branches) {
    const uint8_t preds = regfile::writtenRegs(in).pred;
    uint8_t& uniform = uniformPreds_[static_cast<size_t>(slot)];
    bool affine = false;
    if (isa::info(in.op).format == isa::Format::Compare && converged && coherentCompare(slot, in, affine)) {
      // One compare on the affine unit. The predicate's lanes get its outcome, computed (as the
      // model computes every value) from the operands' expansions.
      kind_ = Kind::Vector;
      readsSaved_ += static_cast<uint64_t>(expandSources(slot, srcHeld));
      expandedOperands_ -= static_cast<uint64_t>(__builtin_popcountll(srcHeld));  // not expansions
      plan.rfReads &= ~srcHeld;
      cyclesSaved_ += plan.occupancy - 1;
      plan.occupancy = 1;
      compares_++;
      unitOps_++;
      if (affine) affineCompares_++;
      uniform = static_cast<uint8_t>(uniform | preds);
      return;
    }
    uniform = static_cast<uint8_t>(uniform & ~preds);
  }
  if (const auto r = d ? affineResult(slot, in) : std::nullopt) {
    result_ = *r;
    unitOps_++;
    readsSaved_ += static_cast<uint64_t>(__builtin_popcountll(srcHeld));
    plan.rfReads &= ~srcHeld;
    if (converged && asrf_.hasRoom(slot, *d)) {  // compact: the result goes to the ASRF
      kind_ = Kind::Compact;
      compact_++;
      if (r->stride == 0) uniform_++;
      writesSaved_++;
      cyclesSaved_ += plan.occupancy - 1;
      plan.exec = 0;  // no lane computes
      plan.occupancy = 1;
      plan.rfWrite = false;
      return;
    }
    // Lazy expansion: the lanes receive the result; the SM's semantics write a scratch row.
    kind_ = Kind::Expanded;
    if (converged) full_++;
    else suppressed_++;
    const uint64_t lanesWrite = plan.occupancy;  // the result written into the lanes
    if (asrf_.holds(slot, *d) && plan.exec != full) expandOld(slot, *d, plan);
    asrf_.clear(slot, *d);
    expansions_++;
    expansionCycles_ += lanesWrite;
    mapScratch(slot, *d);
    return;
  }
  if (variant_.memory) {
    const isa::OpClass cls = isa::info(in.op).cls;
    if (cls == isa::OpClass::LoadGlobal || cls == isa::OpClass::StoreGlobal || cls == isa::OpClass::AtomicGlobal)
      memopsTotal_++;
    // An affine memory operation: base and stride go to the LD/ST unit, which generates the
    // transactions; the lanes generate no address (one cycle of the unit) and the address
    // register is read from the ASRF (its VRF read saved below, with the other sources').
    if ((address_ = affineAddress(slot, in, converged))) {
      addressSlot_ = slot;
      memops_++;
      (in.op == isa::Op::ST_GLOBAL ? memStores_ : memLoads_)++;
      unitOps_++;
      cyclesSaved_ += plan.occupancy - 1;
      plan.occupancy = 1;
      if (in.hasBase) expandedOperands_--;  // (expanded below for the model's fault checks only)
    }
  }
  // ld.param of a uniform address (Kim Sec. 4.1, seed (1)): the destination goes to the ASRF.
  const uint64_t src = regfile::sourceGprs(in);
  bool uniformAddress = (src & ~asrf_.held(slot)) == 0;
  for (uint64_t b = srcHeld; b; b &= b - 1)
    if (asrf_.tag(slot, static_cast<uint8_t>(__builtin_ctzll(b))) != Tag::Uniform) uniformAddress = false;
  const bool seed = d && in.op == isa::Op::LD_PARAM && converged && uniformAddress && asrf_.hasRoom(slot, *d);
  if (!seed && srcHeld == 0 && !(d && asrf_.holds(slot, *d))) return;
  kind_ = Kind::Vector;
  const int n = expandSources(slot, srcHeld);
  readsSaved_ += static_cast<uint64_t>(n);
  plan.rfReads &= ~srcHeld;
  if (!d) return;
  if (seed) {
    kind_ = Kind::ParamSeed;
    mapScratch(slot, *d);
    plan.rfWrite = false;
    writesSaved_++;
    return;
  }
  if (asrf_.holds(slot, *d)) {  // a vector write ends the entry; unwritten lanes keep the old value
    if (plan.exec != full) expandOld(slot, *d, plan);
    asrf_.clear(slot, *d);
  }
}

// Before a partial write of register r that held an entry, every lane of the vector register gets
// the old value (Kim Sec. 4.3), charged to the instruction's unit.
void AffineMechanism::expandOld(int slot, uint8_t r, sm::ExecutePlan& plan) {
  isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  const AffineValue old = asrf_.read(slot, r);
  uint32_t* reg = ctx.privateReg(r);
  for (int i = 0; i < ctx.lanes(); ++i) reg[i] = old.lane(i);
  // A source row of r (mapped already) holds the same expansion: nothing else to do.
  expansions_++;
  const uint64_t c = expansionCycles(slot);
  expansionCycles_ += c;
  plan.occupancy += c;
  if (log_.should_log(spdlog::level::debug))
    log_.debug("warp {}: r{} expanded (base {}, stride {}) before a partial write", slot, r, old.base, old.stride);
}

int AffineMechanism::expandSources(int slot, uint64_t held) {
  isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  int n = 0;
  for (uint64_t bits = held; bits; bits &= bits - 1) {
    const auto r = static_cast<uint8_t>(__builtin_ctzll(bits));
    uint32_t* row = rows_.mapSource(ctx, r);
    const AffineValue v = asrf_.read(slot, r);
    for (int i = 0; i < ctx.lanes(); ++i) row[i] = v.lane(i);
    n++;
  }
  expandedOperands_ += static_cast<uint64_t>(n);
  return n;
}

// The destination written onto a scratch row (unless a source row of it is mapped already).
void AffineMechanism::mapScratch(int slot, uint8_t r) {
  rows_.mapDestination(*sm_.warps[static_cast<size_t>(slot)].ctx, r);
}

void AffineMechanism::afterExecute(int slot, const isa::Instr& in) {
  if (kind_ == Kind::None) return;
  isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  const auto d = regfile::destGpr(in);
  const isa::OpInfo& oi = isa::info(in.op);
  switch (kind_) {
    case Kind::Compact:
      asrf_.write(slot, *d, result_);
      if (log_.should_log(spdlog::level::trace))
        log_.trace("warp {}: {} -> r{} base {} stride {}", slot, isa::disassemble(in, sm_.image.kernel), *d,
                   result_.base, result_.stride);
      break;
    case Kind::Expanded: {
      rows_.unmapAll(ctx, std::nullopt);
      uint32_t* reg = ctx.privateReg(*d);
      for (int i = 0; i < ctx.lanes(); ++i)
        if (lanes_ >> i & 1u) reg[i] = result_.lane(i);
      break;
    }
    case Kind::ParamSeed: {
      const uint32_t value = ctx.reg(*d)[0];
      rows_.unmapAll(ctx, std::nullopt);
      asrf_.write(slot, *d, AffineValue{value, 0});
      seeds_++;
      break;
    }
    case Kind::Vector: {
      const bool writtenNow = !isa::isMemory(oi.format) || oi.cls == isa::OpClass::LoadParam;
      // A vector result written at execute onto its own source row belongs in the register.
      rows_.unmapAll(ctx, writtenNow ? d : std::nullopt);
      break;
    }
    case Kind::None: break;
  }
  kind_ = Kind::None;
}

}  // namespace simtlm::affine
