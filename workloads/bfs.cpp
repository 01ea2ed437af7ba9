// Breadth-first search (Kim et al. ISCA 2013 "bfs", Table 1/2, from Rodinia; the BOW and UV
// papers' BFS), after Rodinia's frontier BFS (workloads/cuda/bfs.cu, docs/workloads/bfs.md): a
// random undirected graph of `nodes` nodes in compressed adjacency lists, BFS from node 0, one
// thread per node in blocks of 512. Each iteration is two launches, expand (the frontier's
// nodes label their unvisited neighbours) and commit (the labelled nodes become the frontier);
// the host would stop at the first iteration that labels nothing, so the launches are the
// reference BFS's depth + 1 iterations, each raising its own "changed" word. CUDA-only.
#include <algorithm>
#include <stdexcept>

#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr uint32_t kBlock = 512;  // the kernel's BLOCK

// The graph in Rodinia's layout: per node its first edge and its degree, then the edge list.
struct Graph {
  std::vector<uint32_t> first, degree, edges;
};

class Bfs : public Workload {
 public:
  explicit Bfs(const Options& o)
      : nodes_(option(o, "nodes", 4096, 2, 1 << 20)),
        edges_(option(o, "edges", 2, 1, 16)),
        seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"nodes", "edges", "seed"}, "bfs");
  }
  std::string name() const override { return "bfs"; }
  std::string description() const override {
    return "breadth-first search of a random graph of " + std::to_string(nodes_) + " nodes (" +
           std::to_string(graph().edges.size()) + " directed edges), " +
           std::to_string(iterations()) + " iterations of two launches, blocks of 512 (Rodinia "
           "BFS; CUDA-only)";
  }
  std::vector<CudaKernel> cudaKernels() const override {
    return {{"bfs.ptx", "bfs_expand"}, {"bfs.ptx", "bfs_commit"}};
  }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    const Graph g = graph();
    const uint32_t bytes = static_cast<uint32_t>(nodes_ * 4);
    uint32_t first = mem.allocate("first_edge", bytes), degree = mem.allocate("degree", bytes);
    uint32_t edges = mem.allocate("edges", static_cast<uint32_t>(g.edges.size() * 4));
    uint32_t frontier = mem.allocate("frontier", bytes), updating = mem.allocate("updating", bytes);
    uint32_t visited = mem.allocate("visited", bytes), cost = mem.allocate("cost", bytes);
    mem.allocate("changed", static_cast<uint32_t>(iterations() * 4));
    mem.setWords("first_edge", g.first);
    mem.setWords("degree", g.degree);
    mem.setWords("edges", g.edges);
    std::vector<uint32_t> start(nodes_, 0), costs(nodes_, 0xffffffffu);  // cost -1: unreached
    start[0] = 1;
    costs[0] = 0;
    mem.setWords("frontier", start);
    mem.setWords("visited", start);
    mem.setWords("cost", costs);
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>((nodes_ + kBlock - 1) / kBlock), 1, 1};
    l.block = {kBlock, 1, 1};
    l.params = {first, degree, edges, frontier, updating, visited, cost, static_cast<uint32_t>(nodes_)};
    return l;
  }
  std::vector<Step> launches(isa::GlobalMemory& mem) const override {
    const isa::LaunchConfig expand = setup(mem);
    const auto& p = expand.params;  // first, degree, edges, frontier, updating, visited, cost, n
    const uint32_t changed = mem.region("changed").base;
    std::vector<Step> steps;
    for (long it = 0; it < iterations(); ++it) {
      Step commit{1, expand};
      commit.launch.params = {p[3], p[4], p[5], changed + static_cast<uint32_t>(it * 4), p[7]};
      steps.push_back({0, expand});
      steps.push_back(commit);
    }
    return steps;
  }

  std::string verify(const isa::GlobalMemory& mem) const override {
    const auto level = levels();
    std::vector<uint32_t> cost(nodes_), visited(nodes_), zero(nodes_, 0);
    for (long v = 0; v < nodes_; ++v) {
      cost[v] = static_cast<uint32_t>(level[v]);
      visited[v] = level[v] >= 0;
    }
    std::vector<uint32_t> changed(iterations(), 1);
    changed.back() = 0;  // the iteration after which the host's loop stops
    for (const auto& [name, want] :
         {std::pair<std::string, const std::vector<uint32_t>*>{"cost", &cost},
          {"visited", &visited}, {"frontier", &zero}, {"updating", &zero}, {"changed", &changed}}) {
      std::string err = compareWords(name, mem, *want);
      if (!err.empty()) return err;
    }
    return "";
  }

 private:
  // Rodinia's generator in spirit: each node draws `edges` random partners (not itself), every
  // pair becoming an edge both ways; the adjacency lists keep the drawing order.
  Graph graph() const {
    std::vector<std::vector<uint32_t>> adj(nodes_);
    uint32_t st = static_cast<uint32_t>(seed_) * 2654435761u + 0x5bd1e995u;
    auto next = [&] {
      st = st * 1664525u + 1013904223u;  // Numerical Recipes LCG
      return st >> 8;
    };
    for (long v = 0; v < nodes_; ++v)
      for (long k = 0; k < edges_; ++k) {
        uint32_t u = static_cast<uint32_t>((next() % (nodes_ - 1) + v + 1) % nodes_);
        adj[v].push_back(u);
        adj[u].push_back(static_cast<uint32_t>(v));
      }
    Graph g;
    for (const auto& a : adj) {
      g.first.push_back(static_cast<uint32_t>(g.edges.size()));
      g.degree.push_back(static_cast<uint32_t>(a.size()));
      g.edges.insert(g.edges.end(), a.begin(), a.end());
    }
    return g;
  }
  // BFS levels from node 0 (-1 for unreachable nodes).
  std::vector<long> levels() const {
    const Graph g = graph();
    std::vector<long> level(nodes_, -1);
    std::vector<uint32_t> frontier{0};
    level[0] = 0;
    for (long d = 1; !frontier.empty(); ++d) {
      std::vector<uint32_t> next;
      for (uint32_t v : frontier)
        for (uint32_t e = g.first[v]; e < g.first[v] + g.degree[v]; ++e)
          if (level[g.edges[e]] < 0) {
            level[g.edges[e]] = d;
            next.push_back(g.edges[e]);
          }
      frontier = next;
    }
    return level;
  }
  // The host loop's iterations: one per level reached, the last labelling nothing.
  long iterations() const {
    const auto level = levels();
    return *std::max_element(level.begin(), level.end()) + 1;
  }
  long nodes_, edges_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeBfs(const Options& o) {
  return std::make_unique<Bfs>(o);
}

}  // namespace simtlm::workloads
