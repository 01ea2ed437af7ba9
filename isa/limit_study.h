// The redundancy limit study of DARSIE Fig. 1 and Fig. 2: an oracle over a run of the
// functional interpreter, independent of any mechanism.
//
// The k-th execution of PC p by a warp is compared with the k-th execution of p by the other
// warps of its thread block (TB-redundant) and of the whole grid (grid-redundant): redundant
// when every warp executed it with identical source operand vectors and an identical result.
// Warp-redundant: every source operand holds one scalar across the warp's lanes.
// Choices where the paper is silent (docs/limit-study.md):
//  - only instructions that produce a register or predicate value can be redundant (they are
//    what can be executed once and shared); stores, atomics, branches, barriers and exit never;
//  - an instruction executed with inactive lanes (SIMD divergence, exited lanes, a partial
//    warp) is not redundant (DARSIE Fig. 2: "executed in diverged control flow");
//  - TB-redundant instructions are split by the structure of the value they produce across the
//    lanes: uniform (one scalar), affine (base + lane * stride) or unstructured (Fig. 3).
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "isa/interpreter.h"

namespace simtlm::isa {

enum class Structure : uint8_t { Uniform, Affine, Unstructured };
const char* structureName(Structure s);

struct PcRedundancy {
  uint64_t executed = 0, tbRedundant = 0, gridRedundant = 0, warpRedundant = 0;
  std::array<uint64_t, 3> tbByStructure{};  // indexed by Structure
};

struct LimitStudyResult {
  uint64_t warpInstructions = 0;  // all executed warp instructions
  uint64_t eligible = 0;          // value-producing, full warp, not atomic
  uint64_t gridRedundant = 0, tbRedundant = 0, warpRedundant = 0;
  uint64_t gridEliminable = 0;    // grid-redundant executions beyond the first of each
  uint64_t tbEliminable = 0;      // TB-redundant executions beyond the first per TB
  // UV Sec. 2 / Fig. 2 counts differently: thread operations, not warp instructions. A warp
  // instruction with the whole warp active, every source one scalar, that is neither a memory
  // instruction nor a branch, holds warp size - 1 redundant operations; the fraction's
  // denominator is all executed thread instructions (interp.thread_instructions).
  uint64_t uvIntraWarpOps = 0;
  // UV's inter-warp count (Fig. 2, "inter-warp only"): such an instruction whose PC, scalar
  // sources and scalar result another warp of its thread block had already executed (an ideal
  // instruction reuse buffer would hit) holds warp size redundant operations.
  uint64_t uvInterWarpOps = 0;
  std::array<uint64_t, 3> tbByStructure{};
  std::vector<PcRedundancy> perPc;  // the first launched kernel's, by instruction index

  double fraction(uint64_t n) const {
    return warpInstructions ? static_cast<double>(n) / static_cast<double>(warpInstructions) : 0.0;
  }
};

class LimitStudy : public ExecObserver {
 public:
  void onLaunch(const Kernel& k, const LaunchConfig& l) override;
  void onBlockStart(uint32_t blockLinear, uint32_t numWarps) override;
  void onWarpStep(const WarpStep& s) override;
  void onBlockEnd(uint32_t blockLinear) override;
  void onGridEnd() override;

  const LimitStudyResult& result() const { return r_; }

 private:
  // One (PC, k) instance across warps: how many executed it, whether all matched the first.
  struct Group {
    uint32_t count = 0;
    bool same = true;
    Structure structure = Structure::Uniform;
    size_t sig = 0, sigLen = 0;  // reference signature in the arena
  };
  using GroupMap = std::unordered_map<uint64_t, Group>;

  void record(GroupMap& groups, std::vector<uint32_t>& arena, uint64_t key, Structure st);
  // UV's inter-warp reuse: the block's uniform instructions by PC, scalar sources and result.
  struct Reuse {
    uint32_t idx = 0, n = 0;
    std::array<uint32_t, 5> v{};
    bool operator==(const Reuse& o) const { return idx == o.idx && n == o.n && v == o.v; }
  };
  struct ReuseHash {
    size_t operator()(const Reuse& r) const;
  };
  void countInterWarp(const WarpStep& s, size_t idx);

  LimitStudyResult r_;
  bool launched_ = false;
  std::vector<uint64_t> firstCode_;
  std::vector<PcRedundancy>* pcs_ = nullptr;  // r_.perPc, or otherPcs_ for another kernel
  std::vector<PcRedundancy> otherPcs_;
  uint32_t warpsPerBlock_ = 0, numBlocks_ = 0, warpSize_ = 0;
  size_t codeSize_ = 0;
  std::vector<uint32_t> visits_;  // per (warp, pc) execution count in the current block
  GroupMap tb_, grid_;
  std::unordered_map<Reuse, uint64_t, ReuseHash> reuse_;  // which warps of the block executed it
  std::vector<uint32_t> tbArena_, gridArena_, sig_;
};

}  // namespace simtlm::isa
