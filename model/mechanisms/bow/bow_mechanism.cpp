#include "model/mechanisms/bow/bow_mechanism.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <spdlog/logger.h>

#include "isa/bow_hints.h"
#include "isa/cfg.h"
#include "isa/liveness.h"
#include "model/common/log.h"
#include "model/sm/operand_stage.h"

namespace simtlm::bow {

namespace {

const char* prefixOf(BowKind k) { return k == BowKind::Rfc ? "rfc" : "bow"; }

template <class F>
void forEachBit(uint64_t bits, F&& f) {
  for (; bits != 0; bits &= bits - 1) f(static_cast<uint8_t>(__builtin_ctzll(bits)));
}

}  // namespace

WindowPolicy BowMechanism::policyOf(BowKind kind, const config::GpuConfig& cfg) {
  WindowPolicy p;
  const int iw = cfg.bow.window;
  switch (kind) {
    case BowKind::Bow:  // four registers per instruction of the window (BOW Sec. IV-A: 12 at IW 3)
      p = {iw, 4 * iw, true, false, false, true};
      break;
    case BowKind::BowWr:
      p = {iw, 4 * iw, true, true, cfg.bow.hints, true};
      break;
    case BowKind::BowWrHalf:  // half the storage (Sec. IV-C: 6 entries at IW 3)
      p = {iw, 2 * iw, true, true, cfg.bow.hints, true};
      break;
    case BowKind::Rfc:  // Gebhart et al.: allocate on write, FIFO, long-latency results to the MRF
      p = {0, cfg.rfc.entries, false, true, false, false};
      break;
  }
  return p;
}

BowMechanism::BowMechanism(sm::SmContext& sm, stats::Registry& stats, BowKind kind)
    : sm_(sm),
      log_(log::get("gpu.sm" + std::to_string(sm.id) + "." + prefixOf(kind))),
      kind_(kind),
      policy_(policyOf(kind, sm.cfg)),
      removesReads_(kind != BowKind::Rfc),
      windows_(static_cast<size_t>(sm.cfg.sm.num_warps)),
      values_(static_cast<size_t>(sm.cfg.sm.num_warps)),
      held_(static_cast<size_t>(sm.cfg.sm.num_warps), 0) {
  const bool rfc = kind == BowKind::Rfc;
  const std::string what = rfc ? "register-file cache" : "BOC";
  stats::Group g(stats, "sm" + std::to_string(sm.id) + "." + prefixOf(kind));
  g.add("reads_bypassed", c_.bypassed, "operands",
        rfc ? "source operands read from the register-file cache (hits)"
            : "source operands read from the warp's BOC instead of the register-file banks");
  g.add("reads_rf", c_.bankReads, "operands", "source operands read from the register-file banks");
  g.add("fills", c_.fills, "operands", "source operands kept in the " + what + " after their bank read");
  g.add("results_kept", c_.keptResults, "results", "results written into the " + what);
  g.add("results_held", c_.heldResults, "results",
        "results written into the " + what + " only (the register file is written later, if at all)");
  g.add("results_rf", c_.bankResults, "results", "results written to the register-file banks at once");
  g.add("writebacks", c_.writebacks, "results", "dirty values written back to the register file as they left the window");
  g.add("early_writebacks", c_.earlyWritebacks, "results",
        "dirty values written back early: pushed out of a full " + what + ", or the warp exited");
  g.add("writes_consolidated", c_.consolidated, "results",
        "dirty values overwritten in the " + what + " (their register-file write bypassed)");
  g.add("transient_dropped", c_.transientDropped, "results",
        "values hinted BOC-only that left the window without a register-file write");
  g.add("evictions", c_.evictions, "entries", "entries pushed out by a full " + what + " (FIFO)");
  g.add("remap_drops", c_.remapDrops, "entries", "entries dropped because another mechanism renamed the register");
  g.add("forced_writethrough", forcedThrough_, "results",
        "results written through because another mechanism holds the register (a rename)");
  const std::string store = rfc ? "cache" : "boc";
  g.add(store + "_reads", c_.bypassed, "accesses", "reads of the " + what + "'s storage (= reads_bypassed)");
  g.addDerived(store + "_writes", [this] { return static_cast<double>(c_.fills + c_.keptResults); }, "accesses",
               "writes of the " + what + "'s storage: fills and results");
  g.add("occupancy_max", c_.occupancyMax, "registers", "most registers one warp's " + what + " held");
  g.addDerived("occupancy_mean",
               [this] {
                 return c_.occupancySamples ? static_cast<double>(c_.occupancySum) / static_cast<double>(c_.occupancySamples) : 0.0;
               },
               "registers", "registers a warp's " + what + " held, averaged over the instructions entering it");
  const double bytes = static_cast<double>(policy_.capacity) * sm.cfg.gpu.warp_size * 4.0;
  g.addDerived("storage_bytes", [bytes] { return bytes; }, "bytes",
               "storage of one warp's " + what + " (registers x warp size x 4 bytes)");
  const double all = bytes * sm.cfg.sm.num_warps;
  g.addDerived("storage_bytes_sm", [all] { return all; }, "bytes", "storage of the SM's " + what + "s (one per warp slot)");
}

void BowMechanism::kernelStarted() {
  hints_.clear();
  if (!policy_.hints) return;
  const isa::Kernel& k = *sm_.image.kernel;
  const isa::Cfg cfg(k);
  const isa::Liveness live(k, cfg);
  hints_ = isa::computeBowHints(k, cfg, live, policy_.window);
}

uint32_t* BowMechanism::row(int slot, uint8_t r) {
  WarpValues& v = values_[static_cast<size_t>(slot)];
  const auto lanes = static_cast<size_t>(sm_.warps[static_cast<size_t>(slot)].ctx->lanes());
  if (v.rows.empty()) v.rows.assign(64 * lanes, 0);
  return &v.rows[r * lanes];
}

void BowMechanism::copyRow(const uint32_t* from, uint32_t* to, int lanes) const {
  std::memcpy(to, from, sizeof(uint32_t) * static_cast<size_t>(lanes));
}

void BowMechanism::collecting(int slot, const isa::Instr& in, uint32_t pc, uint32_t exec, regfile::Sources& sources) {
  const isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  const bool partial = exec != (ctx.liveMask() & ~ctx.exitedMask()) || in.guard != isa::kPredTrue || in.guardNeg;
  const size_t idx = pc / 8;
  const isa::BowHint hint = idx < hints_.size() ? hints_[idx] : isa::BowHint::None;
  Decision d = windows_[static_cast<size_t>(slot)].admit(in, partial, hint, policy_, c_);
  if (removesReads_) forEachBit(d.bypass, [&](uint8_t r) { sources.remove(sm_.operands.physOf(slot, r)); });
  forEachBit(d.evictWb, [&](uint8_t r) { sm_.operands.writeBack(slot, r); });
  values_[static_cast<size_t>(slot)].pending.push_back(d);
}

void BowMechanism::warpExited(int slot) {
  const uint64_t wb = windows_[static_cast<size_t>(slot)].flush(c_);
  forEachBit(wb, [&](uint8_t r) { sm_.operands.writeBack(slot, r); });
  WarpValues& v = values_[static_cast<size_t>(slot)];
  if (v.pending.empty()) throw std::logic_error("bow: a warp exited with no instruction admitted");
  v.pending.back().flushAll = true;
}

void BowMechanism::remapped(int slot, uint8_t r) {
  windows_[static_cast<size_t>(slot)].drop(r, c_);
  WarpValues& v = values_[static_cast<size_t>(slot)];
  const uint64_t bit = uint64_t{1} << r;
  v.present &= ~bit;
  v.dirty &= ~bit;
  v.awaitFill &= ~bit;
  // Instructions admitted before the rename and not executed yet decided on the entry the window
  // just dropped: their read of r is no longer served here, and their result for r goes to the
  // banks. Kept, it would make a row the window no longer knows of: the next read of r (a bank
  // read) fills the row from the banks' stale value and loses the result held only there (random
  // kernel seed 227 under darsie+bow-wr: DARSIE unmapped r between a shl's admission and its
  // execution).
  for (Decision& d : v.pending) {
    d.bypass &= ~bit;
    d.fill &= ~bit;
    if (d.dest != r) continue;
    if (d.destDirty) forcedThrough_++;
    d.dest = -1;
    d.destDirty = d.destLoad = false;
  }
}

// The instruction executes now (every older one of the warp has): carry out its Decision, then
// map its buffered registers onto the rows for its semantics.
void BowMechanism::planExecute(int slot, const isa::Instr& /*in*/, uint32_t /*pc*/, sm::ExecutePlan& plan) {
  WarpValues& v = values_[static_cast<size_t>(slot)];
  if (v.pending.empty()) throw std::logic_error("bow: an instruction executes that never entered the operand stage");
  exec_ = v.pending.front();
  v.pending.pop_front();
  execSlot_ = slot;
  isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  const int lanes = ctx.lanes();
  // (A register another mechanism renamed meanwhile left the buffer: remapped(); its value is
  // read from where it lives now, which holds it.)
  forEachBit(exec_.evictWb & v.present, [&](uint8_t r) {
    if (v.dirty >> r & 1u) copyRow(row(slot, r), ctx.reg(r), lanes);
    v.dirty &= ~(uint64_t{1} << r);
  });
  v.present &= ~exec_.evict;
  v.dirty &= ~exec_.evict;
  forEachBit(exec_.fill, [&](uint8_t r) {
    copyRow(ctx.reg(r), row(slot, r), lanes);
    v.present |= uint64_t{1} << r;
  });
  mapped_ = 0;
  auto mapOnto = [&](uint8_t r) {
    if (mapped_ >> r & 1u) return;
    saved_[r] = ctx.reg(r);
    ctx.mapReg(r, row(slot, r));
    mapped_ |= uint64_t{1} << r;
  };
  forEachBit(exec_.bypass & v.present, mapOnto);
  if (exec_.dest >= 0) {
    const auto d = static_cast<uint8_t>(exec_.dest);
    const uint64_t bit = uint64_t{1} << d;
    if (exec_.destLoad) {
      v.present |= bit;  // filled when the value arrives (written())
      v.dirty &= ~bit;
      v.awaitFill |= bit;
    } else {
      if (!(v.present & bit)) copyRow(ctx.reg(d), row(slot, d), lanes);  // lanes not written keep it
      v.present |= bit;
      mapOnto(d);
    }
  }
  // The register-file energy: sources the buffer served are not read from the banks, and a
  // result it keeps alone is not written there.
  plan.rfReads &= ~exec_.bypass;
  if (exec_.dest >= 0 && exec_.destDirty) plan.rfWrite = false;
}

void BowMechanism::afterExecute(int slot, const isa::Instr& in) {
  if (execSlot_ != slot) return;
  WarpValues& v = values_[static_cast<size_t>(slot)];
  isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  const int lanes = ctx.lanes();
  if (exec_.dest >= 0 && !exec_.destLoad) {
    const auto d = static_cast<uint8_t>(exec_.dest);
    const uint64_t bit = uint64_t{1} << d;
    uint32_t* r = row(slot, d);
    if (!(v.present & bit) || ctx.reg(d) != r) {
      // Another mechanism renamed the register while it executed (remapped()): the result is
      // where the register lives now, and that is written in the banks.
      mapped_ &= ~bit;
      if (v.present & bit) copyRow(ctx.reg(d), r, lanes);
      v.dirty &= ~bit;
      if (exec_.destDirty) forcedThrough_++;
    } else if (exec_.destDirty && saved_[d] == ctx.privateReg(d)) {
      v.dirty |= bit;
      held_[static_cast<size_t>(slot)] |= bit;  // the banks are not written (holdsResult)
    } else {
      // Write-through (bow, rfc's bank write), or the register lives in another mechanism's
      // storage, which must see the value.
      copyRow(r, saved_[d], lanes);
      v.dirty &= ~bit;
      if (exec_.destDirty) forcedThrough_++;
    }
  }
  // A result the buffer does not keep, written onto the row its register was mapped onto for a
  // bypassed read, belongs where the register lives.
  const std::optional<uint8_t> written = regfile::destGpr(in);
  if (written && static_cast<int>(*written) != exec_.dest && (mapped_ >> *written & 1u) &&
      ctx.reg(*written) == row(slot, *written) && !regfile::accessesMemory(in.op))
    copyRow(row(slot, *written), saved_[*written], lanes);
  forEachBit(mapped_, [&](uint8_t r) {
    if (ctx.reg(r) == row(slot, r)) ctx.mapReg(r, saved_[r]);
  });
  mapped_ = 0;
  if (exec_.destDrop >= 0) {
    const uint64_t bit = uint64_t{1} << exec_.destDrop;
    v.present &= ~bit;
    v.dirty &= ~bit;
  }
  if (exec_.flushAll) {
    forEachBit(v.dirty & v.present, [&](uint8_t r) { copyRow(row(slot, r), ctx.reg(r), lanes); });
    v.present = v.dirty = v.awaitFill = 0;
    if (!v.pending.empty()) throw std::logic_error("bow: instructions admitted after the warp's exit");
  }
  execSlot_ = -1;
}

bool BowMechanism::holdsResult(int slot, const isa::Instr& in) {
  const std::optional<uint8_t> d = regfile::destGpr(in);
  if (!d) return false;
  uint64_t& held = held_[static_cast<size_t>(slot)];
  const uint64_t bit = uint64_t{1} << *d;
  if (!(held & bit)) return false;
  held &= ~bit;
  // An RFC is organized like the register file: its write takes the bank's port all the same.
  return removesReads_;
}

// A memory result arrived in the register (the banks were written): its entry gets the value.
void BowMechanism::written(int slot, const isa::Instr& in) {
  const std::optional<uint8_t> d = regfile::destGpr(in);
  if (!d) return;
  WarpValues& v = values_[static_cast<size_t>(slot)];
  const uint64_t bit = uint64_t{1} << *d;
  if (!(v.awaitFill & bit)) return;
  v.awaitFill &= ~bit;
  if (!(v.present & bit)) return;
  isa::WarpContext& ctx = *sm_.warps[static_cast<size_t>(slot)].ctx;
  copyRow(ctx.reg(*d), row(slot, *d), ctx.lanes());
}

}  // namespace simtlm::bow
