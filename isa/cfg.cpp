#include "isa/cfg.h"

#include <algorithm>
#include <functional>

namespace simtlm::isa {
namespace {

bool guarded(const Instr& in) { return in.guard != kPredTrue || in.guardNeg; }

// Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm". `succ` gives edges in the
// direction of the analysis; returns the immediate dominator of each node (-1 if unreachable).
std::vector<int> dominatorTree(int numNodes, int root, const std::vector<std::vector<int>>& succ,
                               const std::vector<std::vector<int>>& pred, std::vector<int>* rpoOut) {
  std::vector<int> order, post(numNodes, -1);
  std::vector<char> seen(numNodes, 0);
  // Iterative DFS producing post-order.
  std::vector<std::pair<int, size_t>> stack{{root, 0}};
  seen[root] = 1;
  while (!stack.empty()) {
    auto& [n, i] = stack.back();
    if (i < succ[n].size()) {
      int s = succ[n][i++];
      if (!seen[s]) { seen[s] = 1; stack.push_back({s, 0}); }
    } else {
      post[n] = static_cast<int>(order.size());
      order.push_back(n);
      stack.pop_back();
    }
  }
  std::vector<int> rpo(order.rbegin(), order.rend());
  std::vector<int> idom(numNodes, -1);
  idom[root] = root;
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (post[a] < post[b]) a = idom[a];
      while (post[b] < post[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (int n : rpo) {
      if (n == root) continue;
      int nd = -1;
      for (int p : pred[n]) {
        if (idom[p] == -1) continue;
        nd = nd == -1 ? p : intersect(p, nd);
      }
      if (nd != idom[n]) { idom[n] = nd; changed = true; }
    }
  }
  if (rpoOut) *rpoOut = rpo;
  return idom;
}

}  // namespace

Cfg::Cfg(const Kernel& kernel) {
  build(kernel);
  computeDominators();
  computePostDominators();
}

void Cfg::build(const Kernel& k) {
  size_t n = k.instrs.size();
  std::vector<char> leader(n + 1, 0);
  leader[0] = 1;
  for (size_t i = 0; i < n; ++i) {
    const Instr& in = k.instrs[i];
    if (in.op == Op::BRA) {
      size_t t = Kernel::indexOf(in.imm);
      if (t < n) leader[t] = 1;
      leader[i + 1] = 1;
    } else if (in.op == Op::EXIT) {
      leader[i + 1] = 1;
    }
  }
  blockOf_.assign(n, -1);
  for (size_t i = 0; i < n; ++i) {
    if (leader[i]) blocks_.push_back({i, i, {}, {}});
    blocks_.back().last = i;
    blockOf_[i] = static_cast<int>(blocks_.size()) - 1;
  }
  int exit = numBlocks();
  auto addEdge = [&](int from, int to) {
    auto& s = blocks_[from].succs;
    if (std::find(s.begin(), s.end(), to) == s.end()) s.push_back(to);
  };
  for (int b = 0; b < numBlocks(); ++b) {
    const Instr& last = k.instrs[blocks_[b].last];
    size_t next = blocks_[b].last + 1;
    int fall = next < n ? blockOf_[next] : exit;
    if (last.op == Op::BRA) {
      size_t t = Kernel::indexOf(last.imm);
      addEdge(b, t < n ? blockOf_[t] : exit);
      if (guarded(last)) addEdge(b, fall);
    } else if (last.op == Op::EXIT) {
      addEdge(b, exit);
      if (guarded(last)) addEdge(b, fall);
    } else {
      addEdge(b, fall);
    }
  }
  for (int b = 0; b < numBlocks(); ++b)
    for (int s : blocks_[b].succs)
      if (s != exit) blocks_[s].preds.push_back(b);
}

void Cfg::computeDominators() {
  int nn = numBlocks() + 1;
  std::vector<std::vector<int>> succ(nn), pred(nn);
  for (int b = 0; b < numBlocks(); ++b)
    for (int s : blocks_[b].succs) { succ[b].push_back(s); pred[s].push_back(b); }
  idom_ = dominatorTree(nn, 0, succ, pred, &rpo_);
  idom_[0] = -1;
  rpo_.erase(std::remove(rpo_.begin(), rpo_.end(), exitNode()), rpo_.end());
}

void Cfg::computePostDominators() {
  int nn = numBlocks() + 1;
  std::vector<std::vector<int>> succ(nn), pred(nn);
  for (int b = 0; b < numBlocks(); ++b)
    for (int s : blocks_[b].succs) { succ[s].push_back(b); pred[b].push_back(s); }
  // Blocks that cannot reach the exit (infinite loops) get the exit as post-dominator.
  ipdom_ = dominatorTree(nn, exitNode(), succ, pred, nullptr);
  for (int b = 0; b < numBlocks(); ++b)
    if (ipdom_[b] == -1) ipdom_[b] = exitNode();
  ipdom_[exitNode()] = -1;
}

bool Cfg::dominates(int a, int b) const {
  for (int x = b; x != -1; x = idom_[x])
    if (x == a) return true;
  return false;
}

bool Cfg::postDominates(int a, int b) const {
  for (int x = b; x != -1; x = ipdom_[x])
    if (x == a) return true;
  return false;
}

uint32_t Cfg::reconvergencePc(int block) const {
  int p = ipdom_[block];
  if (p < 0 || p >= numBlocks()) return kNoReconvergence;
  return Kernel::pcOf(blocks_[p].first);
}

std::vector<uint32_t> Cfg::reconvergenceTable() const {
  std::vector<uint32_t> table(blockOf_.size(), kNoReconvergence);
  for (int b = 0; b < numBlocks(); ++b) table[blocks_[b].last] = reconvergencePc(b);
  return table;
}

std::vector<int> Cfg::influenceRegion(int block) const {
  int stop = ipdom_[block];
  std::vector<char> seen(numBlocks() + 1, 0);
  std::vector<int> work, region;
  for (int s : blocks_[block].succs) work.push_back(s);
  while (!work.empty()) {
    int b = work.back();
    work.pop_back();
    if (b == stop || b >= numBlocks() || seen[b]) continue;
    seen[b] = 1;
    region.push_back(b);
    for (int s : blocks_[b].succs) work.push_back(s);
  }
  std::sort(region.begin(), region.end());
  return region;
}

}  // namespace simtlm::isa
