// Floyd-Warshall all-pairs shortest paths, as Pannotia's naive `floydwarshall` kernel (DARSIE
// Table 1 "FWS", (16,16) blocks): the host launches the kernel once per intermediate vertex k,
// each launch relaxing every dist[i][j] through k in place, one thread per entry with i on the
// x axis and j on the y axis as the original (workloads/kernels/floydwarshall.s).
// Input: a random sparse directed graph from a fixed-seed LCG, as Pannotia's host code builds
// its distance matrix (0 on the diagonal, the edge weight, or BIGNUM = 999999 for no edge).
#include <cstdint>
#include <stdexcept>

#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr int32_t kBigNum = 999999;  // Pannotia's "no edge"; 2 * kBigNum < 2^31: no overflow
constexpr long kDegree = 8;          // out-edges drawn per vertex (duplicates dropped)

class FloydWarshall : public Workload {
 public:
  explicit FloydWarshall(const Options& o)
      : n_(option(o, "n", 128, 16, 1024)), seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"n", "seed"}, "floydwarshall");
    if (n_ % 16 != 0)
      throw std::invalid_argument("option n = " + std::to_string(n_) + " must be a multiple of 16 (Pannotia's grid is n/16 x n/16 blocks)");
  }
  std::string name() const override { return "floydwarshall"; }
  std::string description() const override {
    return "Floyd-Warshall on a " + std::to_string(n_) + "-vertex graph: " + std::to_string(n_) +
           " launches of " + std::to_string(n_ / 16) + "x" + std::to_string(n_ / 16) +
           " blocks of 16x16 (Pannotia floydwarshall)";
  }
  std::string kernelFile() const override { return "floydwarshall.s"; }
  std::vector<CudaKernel> cudaKernels() const override { return {{"floydwarshall.ptx", "floydwarshall"}}; }

  // The k = 0 launch; launches() adds k = 1 .. n-1.
  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    const uint32_t bytes = static_cast<uint32_t>(n_ * n_ * 4);
    uint32_t dist = mem.allocate("dist", bytes);
    uint32_t next = mem.allocate("next", bytes);
    mem.setWords("dist", input());
    // Pannotia leaves next_d uninitialized (cudaMalloc); -1 marks "never relaxed" here.
    mem.setWords("next", std::vector<uint32_t>(n_ * n_, 0xffffffffu));
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>(n_ / 16), static_cast<uint32_t>(n_ / 16), 1};
    l.block = {16, 16, 1};
    l.params = {dist, next, static_cast<uint32_t>(n_), 0};
    return l;
  }

  // One launch per k, in order, as the host loop `for (k ...) floydwarshall<<<grid, threads>>>`.
  std::vector<Step> launches(isa::GlobalMemory& mem) const override {
    std::vector<Step> steps{Step{0, setup(mem)}};
    for (long k = 1; k < n_; ++k) {
      Step s = steps[0];
      s.launch.params[3] = static_cast<uint32_t>(k);
      steps.push_back(s);
    }
    return steps;
  }

  // The triple loop of Pannotia's CPU check, with next[] as the kernel writes it. Within one k
  // no thread changes dist[i][k] or dist[k][j] (dist[k][k] = 0, weights >= 0), so the serial
  // order gives the parallel kernel's result.
  std::string verify(const isa::GlobalMemory& mem) const override {
    std::vector<int32_t> dist(n_ * n_);
    auto in = input();
    for (size_t i = 0; i < in.size(); ++i) dist[i] = static_cast<int32_t>(in[i]);
    std::vector<uint32_t> next(n_ * n_, 0xffffffffu);
    for (long k = 0; k < n_; ++k)
      for (long i = 0; i < n_; ++i)
        for (long j = 0; j < n_; ++j)
          if (dist[i * n_ + k] + dist[k * n_ + j] < dist[i * n_ + j]) {
            dist[i * n_ + j] = dist[i * n_ + k] + dist[k * n_ + j];
            next[i * n_ + j] = static_cast<uint32_t>(k);
          }
    std::vector<uint32_t> want(dist.size());
    for (size_t i = 0; i < dist.size(); ++i) want[i] = static_cast<uint32_t>(dist[i]);
    return compareWords("dist", mem, want) + compareWords("next", mem, next);
  }

 private:
  // kDegree random out-edges per vertex with weights 1..100; a repeated (i, j) keeps its first
  // weight, as Pannotia's graph parser does. A drawn self loop is skipped here (its draws still
  // advance the LCG); Pannotia's parser keeps self loops, but its host code then sets the
  // diagonal to 0, as the loop below does, so the matrix is the same either way.
  std::vector<uint32_t> input() const {
    std::vector<int32_t> d(n_ * n_, kBigNum);
    uint32_t s = static_cast<uint32_t>(seed_);
    auto next = [&s] { return (s = s * 1664525u + 1013904223u) >> 8; };  // Numerical Recipes LCG
    std::vector<bool> has(n_ * n_, false);
    for (long i = 0; i < n_; ++i)
      for (long e = 0; e < kDegree; ++e) {
        const long j = static_cast<long>(next() % static_cast<uint32_t>(n_));
        const int32_t w = static_cast<int32_t>(1 + next() % 100);
        if (j == i || has[i * n_ + j]) continue;
        has[i * n_ + j] = true;
        d[i * n_ + j] = w;
      }
    for (long i = 0; i < n_; ++i) d[i * n_ + i] = 0;
    std::vector<uint32_t> v(d.size());
    for (size_t i = 0; i < d.size(); ++i) v[i] = static_cast<uint32_t>(d[i]);
    return v;
  }
  long n_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeFloydWarshall(const Options& o) { return std::make_unique<FloydWarshall>(o); }

}  // namespace simtlm::workloads
