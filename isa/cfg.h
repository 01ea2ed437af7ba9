// Control-flow graph of a kernel with dominators and post-dominators. The immediate
// post-dominator of a branch is its SIMT reconvergence point.
#pragma once

#include <cstdint>
#include <vector>

#include "isa/kernel.h"

namespace simtlm::isa {

struct BasicBlock {
  size_t first = 0, last = 0;  // instruction indices, inclusive
  std::vector<int> succs, preds;
};

class Cfg {
 public:
  explicit Cfg(const Kernel& kernel);

  const std::vector<BasicBlock>& blocks() const { return blocks_; }
  int numBlocks() const { return static_cast<int>(blocks_.size()); }
  // The virtual exit node: successor of every exit, and of running past the last instruction.
  int exitNode() const { return numBlocks(); }
  int blockOf(size_t instrIndex) const { return blockOf_[instrIndex]; }
  // Immediate dominator / post-dominator of a block (-1 for the entry / unreachable;
  // exitNode() when the virtual exit is the immediate post-dominator).
  int idom(int block) const { return idom_[block]; }
  int ipdom(int block) const { return ipdom_[block]; }
  bool dominates(int a, int b) const;
  bool postDominates(int a, int b) const;
  // PC where the threads that diverge at the branch ending `block` reconverge;
  // kNoReconvergence when they only meet at kernel exit.
  static constexpr uint32_t kNoReconvergence = 0xFFFFFFFFu;
  uint32_t reconvergencePc(int block) const;
  // Per instruction index: the reconvergence PC of the branch ending there (kNoReconvergence
  // elsewhere). What the interpreter and the SMs consult when a branch diverges.
  std::vector<uint32_t> reconvergenceTable() const;
  // Blocks executed under the branch that ends `block`: reachable from its successors without
  // passing through its immediate post-dominator.
  std::vector<int> influenceRegion(int block) const;
  // Blocks in reverse post-order from the entry (reachable ones only).
  const std::vector<int>& reversePostOrder() const { return rpo_; }

 private:
  void build(const Kernel& k);
  void computeDominators();
  void computePostDominators();

  std::vector<BasicBlock> blocks_;
  std::vector<int> blockOf_;
  std::vector<int> idom_, ipdom_, rpo_;
};

}  // namespace simtlm::isa
