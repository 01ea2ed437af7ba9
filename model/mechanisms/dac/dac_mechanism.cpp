// DAC-IDEAL's hooks (docs/dac.md). Leaders are decided at fetch by the oracle (beforeFetch,
// delivered: the warp's tags carried forward through what it fetched), or else at issue
// (issuing, in program order, where the tags are kept); followers' instances are removed beside
// the fetch scheduler (beforeFetch, holdsFetch) and take effect at the I-buffer's front
// (retireSkips), as DARSIE's skips do.
#include "model/mechanisms/dac/dac_mechanism.h"

#include <sstream>

#include "isa/cfg.h"
#include "isa/lane_mask.h"
#include "model/sm/operand_stage.h"
#include "model/sm/scoreboard.h"

namespace simtlm::dac {

namespace {

bool guarded(const isa::Instr& in) { return in.guard != isa::kPredTrue || in.guardNeg; }

// The tag of what `in` writes, by a warp that is whole on the common path or not, from `t`.
// A guard that is not uniform makes the block's value mixed even where this warp wrote none.
Tag predictTag(const isa::Instr& in, const WarpTags& t, bool whole) {
  const bool uniformGuard = !guarded(in) || t.preds[in.guard] == Tag::Uniform;
  return whole && uniformGuard ? resultTag(in, t) : Tag::Generic;
}

}  // namespace

DacMechanism::DacMechanism(sm::SmContext& sm, stats::Registry& stats) : sm_(sm) {
  stats::Group g(stats, "sm" + std::to_string(sm.id) + ".dac");
  g.add("executed_affine", leaders_, "instructions",
        "leader executions of uniform or affine instances: executed once for the thread block");
  g.add("executed_affine.uniform", leadUniform_, "instructions", "of those, uniform values");
  g.add("executed_affine.affine", leadAffine_, "instructions", "of those, affine values");
  g.add("removed", removed_, "instructions",
        "follower instances removed before fetch (not fetched, issued or executed; the value delivered)");
  g.add("removed.uniform", removedUniform_, "instructions", "of those, uniform values");
  g.add("removed.affine", removedAffine_, "instructions", "of those, affine values");
  g.add("removed.after_fetch", fetchedSkips_, "instructions",
        "of those, instances the follower had fetched before a leader was decided for them "
        "(removed before issue: their fetch was spent)");
  g.add("follower_executions", followerExecs_, "instructions",
        "instances another warp leads that a warp executed itself (issued before the leader "
        "was decided, off the common path, not a whole warp, or a skip undone)");
  g.add("unskipped", unskipped_, "instructions",
        "skips turned back into instructions at the I-buffer's front (the warp's tags or path no "
        "longer matched the leader's)");
  g.add("off_path", offPathEntries_, "events",
        "warps that took a branch whose predicate is not uniform (off the common path until its "
        "reconvergence point)");
  g.add("decided_at_fetch", decidedAtFetch_, "instances",
        "instances the oracle gave a leader at fetch (its tags carried through what it fetched): "
        "the block's other warps skip them without fetching them");
  g.add("decided_at_issue", decidedAtIssue_, "instances",
        "instances given a leader only when it issued them (the fetch-time tags did not qualify)");
  g.add("leader_mismatch", leaderMismatches_, "events",
        "leaders whose tag at issue differed from the one decided at fetch (its followers still "
        "check their own tags, and compute their own values)");
  g.add("records_full", recordsFull_, "events",
        "qualifying leader executions not recorded: the block's record table was full");
}

void DacMechanism::kernelStarted() {
  warps_.assign(sm_.warps.size(), Warp{});
  const isa::Kernel& k = *sm_.image.kernel;
  removable_.resize(k.size());
  for (size_t i = 0; i < k.size(); ++i) removable_[i] = removableOp(k.instrs[i]);
  blocks_.clear();
  blocks_.resize(sm_.blocks.size());
}

void DacMechanism::blockAdmitted(int b) {
  const sm::BlockSlot& blk = sm_.blocks[static_cast<size_t>(b)];
  blocks_[static_cast<size_t>(b)].emplace();
  blocks_[static_cast<size_t>(b)]->warps = static_cast<uint32_t>(blk.warps.size());
  for (int s : blk.warps) {
    Warp& dw = warps_[static_cast<size_t>(s)];
    dw.tags.reset();
    dw.passed.assign(sm_.image.kernel->size(), 0);
    dw.offPath = false;
    dw.claimedEnd = 0;
  }
}

void DacMechanism::blockRetired(int b) { blocks_[static_cast<size_t>(b)].reset(); }

bool DacMechanism::eligible(int slot, bool atFetch) const {
  const sm::WarpSlot& w = sm_.warps[static_cast<size_t>(slot)];
  if (!w.active || w.done) return false;
  const Warp& dw = warps_[static_cast<size_t>(slot)];
  if (dw.offPath && !(atFetch && rejoinsBefore(w, dw.offUntil))) return false;
  const isa::WarpContext& c = *w.ctx;
  return c.liveMask() == isa::fullLaneMask(static_cast<int>(sm_.image.launch.warpSize)) && c.exitedMask() == 0 && c.stackDepth() == 1;
}

// Fetch runs ahead of issue: the warp is back on the common path when the instruction at its
// fetch PC issues if the reconvergence PC is fetched already (or is that PC). (Checked again
// where the skip retires.)
bool DacMechanism::rejoinsBefore(const sm::WarpSlot& w, uint32_t pc) {
  if (w.fetchPc == pc) return true;
  for (int i = 0; i < w.ibuf.count(); ++i)
    if (w.ibuf.entry(i).pc == pc) return true;
  return false;
}

uint32_t DacMechanism::fetchInstance(int slot, uint32_t pc) const {
  const sm::WarpSlot& w = sm_.warps[static_cast<size_t>(slot)];
  uint32_t n = warps_[static_cast<size_t>(slot)].passed[isa::Kernel::indexOf(pc)];
  for (int i = 0; i < w.ibuf.count(); ++i) n += w.ibuf.entry(i).pc == pc;
  return n;
}

bool DacMechanism::ledByOther(int slot, size_t idx) const {
  const sm::WarpSlot& w = sm_.warps[static_cast<size_t>(slot)];
  const Block& blk = *blocks_[static_cast<size_t>(w.block)];
  if (blk.records.empty() || !eligible(slot, true)) return false;
  const auto it = blk.records.find(key(idx, fetchInstance(slot, w.fetchPc)));
  return it != blk.records.end() && it->second.leader != slot;
}

WarpTags DacMechanism::tagsAtFetch(int slot) const {
  const sm::WarpSlot& w = sm_.warps[static_cast<size_t>(slot)];
  WarpTags t = warps_[static_cast<size_t>(slot)].tags;
  const bool whole = eligible(slot, true);
  for (int i = 0; i < w.ibuf.count(); ++i) {
    const isa::Instr& in = w.ibuf.entry(i).instr;
    writeTag(in, predictTag(in, t, whole), t);
  }
  return t;
}

bool DacMechanism::lead(int slot, uint32_t pc, size_t idx, uint32_t instance, Tag kind) {
  const sm::WarpSlot& w = sm_.warps[static_cast<size_t>(slot)];
  Block& blk = *blocks_[static_cast<size_t>(w.block)];
  if (blk.records.size() >= kMaxRecords) return false;
  blk.records.emplace(key(idx, instance), Record{kind, passedBy(w.block, idx, instance), slot});
  for (int o : sm_.blocks[static_cast<size_t>(w.block)].warps)
    if (o != slot) removeFetched(o, pc, idx, instance);
  sm_.event();
  return true;
}

// Fetch stops after a control instruction until it issues, so from the fetch PC to the next
// one the warp's path is known: its tags are carried through the run in program order, and
// every qualifying instance no warp of the block leads yet is the warp's to lead.
void DacMechanism::claimAhead(int slot) {
  const sm::WarpSlot& w = sm_.warps[static_cast<size_t>(slot)];
  Warp& dw = warps_[static_cast<size_t>(slot)];
  if (claimed(dw, w.fetchPc) || !eligible(slot, true)) return;
  WarpTags t = tagsAtFetch(slot);
  const Block& blk = *blocks_[static_cast<size_t>(w.block)];
  uint32_t pc = w.fetchPc;
  for (int k = 0; k < kClaimRun; ++k, pc += 8) {
    const size_t idx = isa::Kernel::indexOf(pc);
    if (idx >= sm_.image.kernel->size()) break;
    const isa::Instr& in = sm_.image.kernel->instrs[idx];
    const Tag tag = predictTag(in, t, true);
    writeTag(in, tag, t);
    if (removable_[idx] && tag != Tag::Generic) {
      const uint32_t instance = fetchInstance(slot, pc);
      if (blk.records.count(key(idx, instance)) == 0 && lead(slot, pc, idx, instance, tag)) decidedAtFetch_++;
    }
    if (in.op == isa::Op::BRA || in.op == isa::Op::EXIT) break;
  }
  dw.claimedEnd = pc + 8;
}

// A fetch that started before the oracle looked at its PCs (a warp whose previous fetch was
// delivered this cycle): the warp leads what it fetches first.
void DacMechanism::delivered(int slot, sm::IBufferEntry& entry) {
  const isa::Instr& in = entry.instr;
  const size_t idx = isa::Kernel::indexOf(entry.pc);
  if (!removable_[idx] || !eligible(slot, true)) return;
  const uint32_t instance = fetchInstance(slot, entry.pc);
  const Block& blk = *blocks_[static_cast<size_t>(sm_.warps[static_cast<size_t>(slot)].block)];
  if (blk.records.count(key(idx, instance)) > 0) return;
  const Tag tag = predictTag(in, tagsAtFetch(slot), true);
  if (tag != Tag::Generic && lead(slot, entry.pc, idx, instance, tag)) decidedAtFetch_++;
}

void DacMechanism::flushed(int slot) { warps_[static_cast<size_t>(slot)].claimedEnd = 0; }

bool DacMechanism::holdsFetch(int slot) const {
  // The PC is removed next cycle by beforeFetch (or this cycle, before fetch looks again); at
  // the skip bound the warp waits for room rather than fetch what its leader executes.
  return skippable(slot);
}

// Beside the fetch scheduler: every warp whose fetch PC is a removable instance another warp
// leads gets skips, as many consecutive ones as its I-buffer takes (a PC increment each, no
// I-cache access); then the oracle decides the run from where its fetch goes on.
void DacMechanism::beforeFetch(uint64_t cycle) {
  sm_.now = cycle;
  for (size_t slot = 0; slot < sm_.warps.size(); ++slot) {
    sm::WarpSlot& w = sm_.warps[slot];
    if (!w.active || w.done || w.fetchInFlight || w.fetchBlocked) continue;
    int pushed = 0;
    while (w.ibuf.skips() < kMaxSkips && skippable(static_cast<int>(slot))) {
      sm::IBufferEntry s = sm_.decode(w.fetchPc);
      s.skip = true;
      s.tag = -1;
      w.ibuf.push(s);
      w.fetchPc += 8;
      pushed++;
    }
    if (!claimed(warps_[slot], w.fetchPc)) claimAhead(static_cast<int>(slot));  // (the call costs)
    if (pushed == 0) continue;
    sm_.event();
    sm_.wake(static_cast<int>(slot));
  }
}

// A warp that fetched the instance before its leader issued it does not issue it either: the
// I-buffer entry becomes a skip (its fetch was spent). Every warp of the block is woken: its
// fetch PC may be removable now.
void DacMechanism::removeFetched(int slot, uint32_t pc, size_t idx, uint32_t instance) {
  sm::WarpSlot& w = sm_.warps[static_cast<size_t>(slot)];
  uint32_t n = warps_[static_cast<size_t>(slot)].passed[idx];
  for (int i = 0; i < w.ibuf.count(); ++i) {
    if (w.ibuf.entry(i).pc != pc) continue;
    if (n++ != instance) continue;
    if (!w.ibuf.entry(i).skip) w.ibuf.skipEntry(i, kFetchedTag);
    break;
  }
  sm_.wake(slot);
}

void DacMechanism::pass(int slot, size_t idx, uint32_t instance) {
  Warp& dw = warps_[static_cast<size_t>(slot)];
  dw.passed[idx]++;
  Block& blk = *blocks_[static_cast<size_t>(sm_.warps[static_cast<size_t>(slot)].block)];
  auto it = blk.records.find(key(idx, instance));
  if (it != blk.records.end() && ++it->second.passed == blk.warps) blk.records.erase(it);
}

// Warps of the block that passed the instance already (executed it before any whole warp on the
// common path did) or never will (exited): a record is dropped once every warp is counted.
uint32_t DacMechanism::passedBy(int blockSlot, size_t idx, uint32_t instance) const {
  uint32_t n = 0;
  for (int o : sm_.blocks[static_cast<size_t>(blockSlot)].warps)
    n += sm_.warps[static_cast<size_t>(o)].done || warps_[static_cast<size_t>(o)].passed[idx] > instance;
  return n;
}

// An exited warp passes no more instances: the records it had not passed count it now.
void DacMechanism::warpExited(int slot) {
  const Warp& dw = warps_[static_cast<size_t>(slot)];
  Block& blk = *blocks_[static_cast<size_t>(sm_.warps[static_cast<size_t>(slot)].block)];
  for (auto it = blk.records.begin(); it != blk.records.end();) {
    const size_t idx = static_cast<size_t>(it->first >> 32);
    const uint32_t instance = static_cast<uint32_t>(it->first);
    if (dw.passed[idx] <= instance && ++it->second.passed == blk.warps) it = blk.records.erase(it);
    else ++it;
  }
}

// The warp is at `pc` with the whole warp active: the path its block's warps may have split at
// joins again there.
static void arrive(bool& offPath, uint32_t offUntil, uint32_t pc, const isa::WarpContext& c) {
  if (offPath && pc == offUntil && c.stackDepth() == 1) offPath = false;
}

// At issue, in program order: the destination's tag, the leader's record, the path.
void DacMechanism::issuing(int slot, const sm::IBufferEntry& e, uint32_t exec) {
  Warp& dw = warps_[static_cast<size_t>(slot)];
  const sm::WarpSlot& w = sm_.warps[static_cast<size_t>(slot)];
  const isa::Instr& in = e.instr;
  const size_t idx = isa::Kernel::indexOf(e.pc);
  arrive(dw.offPath, dw.offUntil, e.pc, *w.ctx);
  const uint32_t instance = dw.passed[idx];
  const bool whole = eligible(slot);
  // A guard that is uniform writes every thread of the block or none; any other one mixes.
  const Tag tag = predictTag(in, dw.tags, whole);
  if (exec != 0 || tag == Tag::Generic) writeTag(in, tag, dw.tags);
  if (in.op == isa::Op::BRA) dw.claimedEnd = 0;  // fetch goes on where the branch resolves
  const Block& blk = *blocks_[static_cast<size_t>(w.block)];
  const auto it = blk.records.find(key(idx, instance));
  bool leads = false;
  if (it != blk.records.end()) {
    if (it->second.leader != slot) followerExecs_++;
    else if (it->second.kind == tag) leads = true;
    else leaderMismatches_++;
  } else if (whole && removable_[idx] && tag != Tag::Generic) {
    // Not decided at fetch: the block's other warps may skip this instance from now on.
    leads = lead(slot, e.pc, idx, instance, tag);
    (leads ? decidedAtIssue_ : recordsFull_)++;
  }
  if (leads) {
    leaders_++;
    (tag == Tag::Uniform ? leadUniform_ : leadAffine_)++;
  }
  pass(slot, idx, instance);
  if (in.op == isa::Op::BRA && guarded(in) && !dw.offPath && dw.tags.preds[in.guard] != Tag::Uniform) {
    dw.offPath = true;
    dw.offUntil = sm_.image.reconvergence[idx];
    offPathEntries_++;
  }
}

// Skips at the I-buffer's front take effect in program order, once the warp's older
// instructions have read their operands (none in a collector) and no write of a register the
// instruction reads or writes is in flight. The warp's own threads' value is computed then: the
// leader's result is another warp's, and DAC's affine stream would hold the block's tuple.
void DacMechanism::retireSkips(int slot) {
  sm::WarpSlot& w = sm_.warps[static_cast<size_t>(slot)];
  Warp& dw = warps_[static_cast<size_t>(slot)];
  while (!w.ibuf.empty() && w.ibuf.front().skip) {
    const sm::IBufferEntry e = w.ibuf.front();
    if (e.pc != w.pc) return;  // fetched down a path the warp did not take: the SM drops it
    if (w.atBarrier) return;   // fetched past a bar.sync: it takes effect after the barrier
    if (sm_.operands.inCollectors(slot) > 0 || !sm_.scoreboard.canIssue(slot, e.touched)) return;
    const isa::Instr& in = e.instr;
    const size_t idx = isa::Kernel::indexOf(e.pc);
    arrive(dw.offPath, dw.offUntil, e.pc, *w.ctx);
    const uint32_t instance = dw.passed[idx];
    const Block& blk = *blocks_[static_cast<size_t>(w.block)];
    const auto it = blk.records.find(key(idx, instance));
    if (!eligible(slot) || it == blk.records.end() || resultTag(in, dw.tags) != it->second.kind) return unskip(slot);
    const Tag kind = it->second.kind;
    const uint32_t exec = w.ctx->execMask(in);
    w.ctx->executeAlu(in, exec);
    writeTag(in, kind, dw.tags);
    pass(slot, idx, instance);
    sm_.advance(slot, in, exec, e.pc);
    removed_++;
    fetchedSkips_ += e.tag == kFetchedTag;
    (kind == Tag::Uniform ? removedUniform_ : removedAffine_)++;
    w.ibuf.pop();
    sm_.wake(slot);
    sm_.event();
  }
}

// The skip becomes an instruction the warp issues and executes itself (it is fetched after all).
void DacMechanism::unskip(int slot) {
  sm::WarpSlot& w = sm_.warps[static_cast<size_t>(slot)];
  if (w.ibuf.front().tag != kFetchedTag) sm_.fetched++;
  w.ibuf.front().tag = -1;
  w.ibuf.unskipFront();
  unskipped_++;
  sm_.wake(slot);
  sm_.event();
}

std::string DacMechanism::describeWarp(int slot) const {
  const sm::WarpSlot& w = sm_.warps[static_cast<size_t>(slot)];
  if (w.ibuf.empty() || !w.ibuf.front().skip) return {};
  std::ostringstream s;
  s << "DAC-IDEAL skip at pc " << w.ibuf.front().pc << " waits for its operands";
  return s.str();
}

}  // namespace simtlm::dac
