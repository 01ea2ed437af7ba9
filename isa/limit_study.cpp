#include "isa/limit_study.h"

#include "isa/diagnostics.h"
#include "isa/lane_mask.h"

#include <algorithm>

namespace simtlm::isa {

const char* structureName(Structure s) {
  switch (s) {
    case Structure::Uniform: return "uniform";
    case Structure::Affine: return "affine";
    default: return "unstructured";
  }
}

namespace {

bool producesValue(const Instr& in) {
  Format f = info(in.op).format;
  if (f == Format::Atomic || f == Format::AtomicCas) return false;
  return writesGpr(f) || writesPred(f);
}

// Structure of a vector over the lanes in `mask` (lane l holds v[l * stride]).
Structure structureOf(const uint32_t* v, int stride, uint32_t mask, int lanes) {
  if (stride == 0) return Structure::Uniform;
  int first = -1, second = -1;
  for (int l = 0; l < lanes; ++l) {
    if (!(mask >> l & 1u)) continue;
    if (first < 0) first = l;
    else if (second < 0) { second = l; break; }
  }
  if (second < 0) return Structure::Uniform;
  uint32_t base = v[first];
  // Stride per lane; with non-adjacent lanes the stride must divide exactly.
  int64_t diff = static_cast<int32_t>(v[second] - base);  // strides may be negative
  int64_t gap = second - first;
  if (diff % gap) return Structure::Unstructured;
  uint32_t stride1 = static_cast<uint32_t>(diff / gap);
  for (int l = second; l < lanes; ++l)
    if ((mask >> l & 1u) && v[l] != base + stride1 * static_cast<uint32_t>(l - first))
      return Structure::Unstructured;
  return stride1 == 0 ? Structure::Uniform : Structure::Affine;
}

}  // namespace

void LimitStudy::onLaunch(const Kernel& k, const LaunchConfig& l) {
  // A workload of several launches is one study: the totals add up. Per-PC figures are kept
  // for the first launch's kernel (its later launches add to them); another kernel's go to a
  // scratch table.
  codeSize_ = k.size();
  if (!launched_) {
    firstCode_ = k.code;
    r_.perPc.assign(codeSize_, PcRedundancy{});
  }
  launched_ = true;
  if (k.code == firstCode_) {
    pcs_ = &r_.perPc;
  } else {
    otherPcs_.assign(codeSize_, PcRedundancy{});
    pcs_ = &otherPcs_;
  }
  warpSize_ = l.warpSize;
  warpsPerBlock_ = static_cast<uint32_t>((l.block.count() + l.warpSize - 1) / l.warpSize);
  numBlocks_ = static_cast<uint32_t>(l.grid.count());
  grid_.clear();
  gridArena_.clear();
}

void LimitStudy::onBlockStart(uint32_t, uint32_t numWarps) {
  visits_.assign(static_cast<size_t>(numWarps) * codeSize_, 0);
  tb_.clear();
  tbArena_.clear();
  reuse_.clear();
}

size_t LimitStudy::ReuseHash::operator()(const Reuse& r) const {
  uint64_t h = r.idx * 0x9E3779B97F4A7C15ull ^ r.n;
  for (uint32_t i = 0; i < r.n; ++i) h = (h ^ r.v[i]) * 0x100000001B3ull;
  return static_cast<size_t>(h ^ h >> 29);
}

// Per thread block (our choice: UV does not say over which warps its profile looked; an SM's
// IRB sees the warps of its resident blocks, which share their ctaid-derived values only within
// a block). Warps of a block are at most 64 here (the interpreter's blocks hold up to 2048
// threads of warps of 32 or more lanes).
void LimitStudy::countInterWarp(const WarpStep& s, size_t idx) {
  if (s.numSrcs > 4 || s.warp >= 64) return;
  Reuse key;
  key.idx = static_cast<uint32_t>(idx);
  for (int i = 0; i < s.numSrcs; ++i) key.v[key.n++] = s.src[i][0];
  if (s.result) key.v[key.n++] = s.result[0];
  uint64_t& warps = reuse_[key];
  const uint64_t me = uint64_t{1} << s.warp;
  if (warps & ~me) r_.uvInterWarpOps += static_cast<uint64_t>(s.lanes);
  warps |= me;
}

void LimitStudy::record(GroupMap& groups, std::vector<uint32_t>& arena, uint64_t key, Structure st) {
  auto [it, fresh] = groups.try_emplace(key);
  Group& g = it->second;
  if (fresh) {
    // The oracle keeps one signature per (PC, k): a warp that runs very long (or forever) grows
    // it without bound. Real workloads stay far below the cap (scenarios/large/: under 60 MB).
    constexpr size_t kMaxWords = size_t{1} << 27;  // 512 MiB in each of the TB and grid arenas
    if (arena.size() + sig_.size() > kMaxWords)
      throw LimitError("limit study: more than 512 MiB of operand signatures after " + std::to_string(r_.warpInstructions) +
                       " warp instructions (a warp runs very long or never ends)");
    g.sig = arena.size();
    g.sigLen = sig_.size();
    g.structure = st;
    arena.insert(arena.end(), sig_.begin(), sig_.end());
  } else if (g.same) {
    g.same = g.sigLen == sig_.size() && std::equal(sig_.begin(), sig_.end(), arena.begin() + g.sig);
  }
  g.count++;
}

void LimitStudy::onWarpStep(const WarpStep& s) {
  r_.warpInstructions++;
  size_t idx = Kernel::indexOf(s.pc);
  PcRedundancy& pc = (*pcs_)[idx];
  pc.executed++;
  uint32_t k = visits_[s.warp * codeSize_ + idx]++;
  if (!producesValue(*s.instr) || s.activeMask != fullLaneMask(s.lanes) || s.warpMask != s.activeMask) {
    // Not eligible: still occupies its (PC, k) slot so that the group can never complete.
    sig_.assign(1, 0xFFFFFFFFu);
    uint64_t key = static_cast<uint64_t>(idx) << 32 | k;
    auto poison = [&](GroupMap& g) {
      auto& grp = g[key];
      grp.same = false;
      grp.count++;
    };
    poison(tb_);
    poison(grid_);
    return;
  }
  r_.eligible++;
  // Signature: exec mask, source values and result on the executing lanes.
  sig_.clear();
  sig_.push_back(s.execMask);
  bool warpUniform = true;
  for (int i = 0; i < s.numSrcs; ++i) {
    for (int l = 0; l < s.lanes; ++l)
      if (s.execMask >> l & 1u) sig_.push_back(s.src[i][l * s.srcStride[i]]);
    if (structureOf(s.src[i], s.srcStride[i], s.execMask, s.lanes) != Structure::Uniform) warpUniform = false;
  }
  Structure st = Structure::Uniform;
  if (s.result) {
    // The whole destination vector: lanes whose guard is false keep their old value, and a
    // follower sharing the result would read those too.
    for (int l = 0; l < s.lanes; ++l) sig_.push_back(s.result[l]);
    st = structureOf(s.result, 1, s.execMask, s.lanes);
  }
  if (warpUniform) {
    r_.warpRedundant++;
    pc.warpRedundant++;
    const bool uniformResult = !s.result || st == Structure::Uniform;
    if (!isMemory(info(s.instr->op).format)) {
      r_.uvIntraWarpOps += static_cast<uint64_t>(s.lanes) - 1;
      if (uniformResult) countInterWarp(s, idx);
    }
  }
  uint64_t key = static_cast<uint64_t>(idx) << 32 | k;
  record(tb_, tbArena_, key, st);
  record(grid_, gridArena_, key, st);
}

void LimitStudy::onBlockEnd(uint32_t) {
  for (const auto& [key, g] : tb_) {
    // A single-warp block has nobody to share with: nothing is TB-redundant.
    if (!g.same || g.count != warpsPerBlock_ || warpsPerBlock_ < 2) continue;
    PcRedundancy& pc = (*pcs_)[key >> 32];
    r_.tbRedundant += g.count;
    r_.tbEliminable += g.count - 1;
    r_.tbByStructure[static_cast<int>(g.structure)] += g.count;
    pc.tbRedundant += g.count;
    pc.tbByStructure[static_cast<int>(g.structure)] += g.count;
  }
}

void LimitStudy::onGridEnd() {
  uint64_t totalWarps = static_cast<uint64_t>(warpsPerBlock_) * numBlocks_;
  for (const auto& [key, g] : grid_) {
    if (!g.same || g.count != totalWarps || totalWarps < 2) continue;
    r_.gridRedundant += g.count;
    r_.gridEliminable += g.count - 1;
    (*pcs_)[key >> 32].gridRedundant += g.count;
  }
}

}  // namespace simtlm::isa
