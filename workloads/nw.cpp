// Needleman-Wunsch (BOW's "NW", Table III, Rodinia nw): the global alignment score matrix of two
// random sequences of `n` residues (workloads/cuda/nw.cu, docs/workloads/nw.md), in 16 x 16
// tiles of 16 threads, one launch per anti-diagonal of tiles: n/16 launches of nw_upper, then
// n/16 - 1 of nw_lower. The substitution scores are a fixed symmetric 24 x 24 table (values in
// [-4, 11], matches scoring highest, as BLOSUM62 which Rodinia uses) drawn from a fixed-seed
// LCG, the residues uniform among 24. Integers only. CUDA-only.
#include <algorithm>
#include <stdexcept>

#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr long kTile = 16, kResidues = 24;

class Nw : public Workload {
 public:
  explicit Nw(const Options& o)
      : n_(option(o, "n", 256, 16, 4096)),
        penalty_(option(o, "penalty", 10, 0, 1000)),
        seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"n", "penalty", "seed"}, "nw");
    if (n_ % kTile)
      throw std::invalid_argument("option n = " + std::to_string(n_) + " is not a multiple of 16");
  }
  std::string name() const override { return "nw"; }
  std::string description() const override {
    return "Needleman-Wunsch scores of two sequences of " + std::to_string(n_) +
           " residues, 16 x 16 tiles, " + std::to_string(2 * tiles() - 1) +
           " launches (Rodinia nw; CUDA-only)";
  }
  std::vector<CudaKernel> cudaKernels() const override {
    return {{"nw.ptx", "nw_upper"}, {"nw.ptx", "nw_lower"}};
  }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    const uint32_t bytes = static_cast<uint32_t>(cols() * cols() * 4);
    uint32_t ref = mem.allocate("reference", bytes), score = mem.allocate("score", bytes);
    mem.setWords("reference", reference());
    mem.setWords("score", initialScore());
    isa::LaunchConfig l;
    l.grid = {1, 1, 1};
    l.block = {static_cast<uint32_t>(kTile), 1, 1};
    l.params = {ref, score, static_cast<uint32_t>(cols()), static_cast<uint32_t>(penalty_), 1};
    return l;
  }
  std::vector<Step> launches(isa::GlobalMemory& mem) const override {
    const isa::LaunchConfig first = setup(mem);
    std::vector<Step> steps;
    for (long d = 1; d <= tiles(); ++d) {
      Step s{0, first};
      s.launch.grid = {static_cast<uint32_t>(d), 1, 1};
      s.launch.params[4] = static_cast<uint32_t>(d);
      steps.push_back(s);
    }
    for (long d = tiles() - 1; d >= 1; --d) {
      Step s{1, first};
      s.launch.grid = {static_cast<uint32_t>(d), 1, 1};
      s.launch.params[4] = static_cast<uint32_t>(d);
      s.launch.params.push_back(static_cast<uint32_t>(tiles()));
      steps.push_back(s);
    }
    return steps;
  }

  // Row by row: every cell's north, west and north-west neighbours come first, as in any
  // order the tiles respect; integer max is exact, so the order does not matter.
  std::string verify(const isa::GlobalMemory& mem) const override {
    const auto ref = reference();
    auto score = initialScore();
    const long c = cols();
    auto at = [&](long i, long j) { return static_cast<int32_t>(score[i * c + j]); };
    for (long i = 1; i < c; ++i)
      for (long j = 1; j < c; ++j) {
        const int32_t v = std::max({at(i - 1, j - 1) + static_cast<int32_t>(ref[i * c + j]),
                                    at(i, j - 1) - static_cast<int32_t>(penalty_),
                                    at(i - 1, j) - static_cast<int32_t>(penalty_)});
        score[i * c + j] = static_cast<uint32_t>(v);
      }
    return compareWords("score", mem, score);
  }

 private:
  long cols() const { return n_ + 1; }
  long tiles() const { return n_ / kTile; }
  // ref[i][j] = table[a[i]][b[j]] for i, j >= 1 (row and column 0 unused, 0).
  std::vector<uint32_t> reference() const {
    uint32_t st = static_cast<uint32_t>(seed_) * 2654435761u + 12345u;
    auto next = [&](uint32_t m) {
      st = st * 1664525u + 1013904223u;  // Numerical Recipes LCG
      return (st >> 8) % m;
    };
    int32_t table[kResidues][kResidues];
    for (long x = 0; x < kResidues; ++x) {
      table[x][x] = 4 + static_cast<int32_t>(next(8));  // 4 .. 11
      for (long y = 0; y < x; ++y) table[x][y] = table[y][x] = static_cast<int32_t>(next(7)) - 4;
    }
    std::vector<uint32_t> a(cols()), b(cols());
    for (long i = 1; i < cols(); ++i) a[i] = next(kResidues);
    for (long j = 1; j < cols(); ++j) b[j] = next(kResidues);
    std::vector<uint32_t> ref(cols() * cols(), 0);
    for (long i = 1; i < cols(); ++i)
      for (long j = 1; j < cols(); ++j) ref[i * cols() + j] = static_cast<uint32_t>(table[a[i]][b[j]]);
    return ref;
  }
  // Row 0 and column 0: -penalty per gap; the rest 0 (the kernels overwrite it).
  std::vector<uint32_t> initialScore() const {
    std::vector<uint32_t> s(cols() * cols(), 0);
    for (long k = 0; k < cols(); ++k) {
      s[k] = static_cast<uint32_t>(-static_cast<int32_t>(k * penalty_));
      s[k * cols()] = static_cast<uint32_t>(-static_cast<int32_t>(k * penalty_));
    }
    return s;
  }
  long n_, penalty_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeNw(const Options& o) {
  return std::make_unique<Nw>(o);
}

}  // namespace simtlm::workloads
