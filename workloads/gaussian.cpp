// Gaussian elimination (BOW's "Gaussian", Table III, Rodinia gaussian): forward elimination of
// a dense `size` x `size` system (workloads/cuda/gaussian.cu, docs/workloads/gaussian.md), two
// launches per pivot: fan1 (the multipliers of column t, blocks of 512) and fan2 (the row
// updates, 4 x 4 blocks), 2 (size - 1) launches in all. The matrix is diagonally dominant
// (off-diagonal entries uniform in [-1, 1), the diagonal size + [0, 1)), b uniform in [-1, 1),
// from a fixed-seed LCG. verify() repeats every division and fma in the kernels' order and
// compares m, a and b bit for bit. CUDA-only.
#include <cmath>
#include <stdexcept>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr uint32_t kFan1Threads = 512, kFan2Side = 4;  // Rodinia's MAXBLOCKSIZE, BLOCK_SIZE_XY

class Gaussian : public Workload {
 public:
  explicit Gaussian(const Options& o)
      : size_(option(o, "size", 32, 2, 1024)), seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"size", "seed"}, "gaussian");
  }
  std::string name() const override { return "gaussian"; }
  std::string description() const override {
    return "Gaussian elimination of a " + std::to_string(size_) + " x " + std::to_string(size_) +
           " system, " + std::to_string(2 * (size_ - 1)) + " launches (Rodinia gaussian; CUDA-only)";
  }
  std::vector<CudaKernel> cudaKernels() const override {
    return {{"gaussian.ptx", "fan1"}, {"gaussian.ptx", "fan2"}};
  }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    const uint32_t bytes = static_cast<uint32_t>(size_ * size_ * 4);
    uint32_t m = mem.allocate("m", bytes), a = mem.allocate("a", bytes);
    mem.allocate("b", static_cast<uint32_t>(size_ * 4));
    std::vector<uint32_t> av, bv;
    input(av, bv);
    mem.setWords("a", av);
    mem.setWords("b", bv);
    return fan1(m, a, 0);
  }
  std::vector<Step> launches(isa::GlobalMemory& mem) const override {
    const isa::LaunchConfig first = setup(mem);
    const uint32_t m = first.params[0], a = first.params[1], b = mem.region("b").base;
    std::vector<Step> steps;
    for (long t = 0; t < size_ - 1; ++t) {
      steps.push_back(Step{0, fan1(m, a, t)});
      isa::LaunchConfig l;
      const uint32_t tiles = static_cast<uint32_t>((size_ + kFan2Side - 1) / kFan2Side);
      l.grid = {tiles, tiles, 1};
      l.block = {kFan2Side, kFan2Side, 1};
      l.params = {m, a, b, static_cast<uint32_t>(size_), static_cast<uint32_t>(t)};
      steps.push_back(Step{1, l});
    }
    return steps;
  }

  std::string verify(const isa::GlobalMemory& mem) const override {
    std::vector<uint32_t> av, bv;
    input(av, bv);
    std::vector<float> a(av.size()), b(bv.size()), m(av.size(), 0.0f);
    for (size_t k = 0; k < av.size(); ++k) a[k] = isa::F(av[k]);
    for (size_t k = 0; k < bv.size(); ++k) b[k] = isa::F(bv[k]);
    const long n = size_;
    for (long t = 0; t < n - 1; ++t) {
      for (long r = t + 1; r < n; ++r) m[r * n + t] = a[r * n + t] / a[t * n + t];
      for (long r = t + 1; r < n; ++r) {
        const float mult = m[r * n + t];
        for (long c = t; c < n; ++c) a[r * n + c] = std::fma(-mult, a[t * n + c], a[r * n + c]);
        b[r] = std::fma(-mult, b[t], b[r]);
      }
    }
    std::vector<uint32_t> mw, aw, bw;
    for (float x : m) mw.push_back(isa::U(x));
    for (float x : a) aw.push_back(isa::U(x));
    for (float x : b) bw.push_back(isa::U(x));
    std::string e = compareWords("m", mem, mw);
    if (e.empty()) e = compareWords("a", mem, aw);
    if (e.empty()) e = compareWords("b", mem, bw);
    return e;
  }

 private:
  isa::LaunchConfig fan1(uint32_t m, uint32_t a, long t) const {
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>((size_ - 1 - t + kFan1Threads - 1) / kFan1Threads), 1, 1};
    l.block = {kFan1Threads, 1, 1};
    l.params = {m, a, static_cast<uint32_t>(size_), static_cast<uint32_t>(t)};
    return l;
  }
  void input(std::vector<uint32_t>& a, std::vector<uint32_t>& b) const {
    uint32_t st = static_cast<uint32_t>(seed_) * 2654435761u;
    auto next = [&] {  // uniform in [0, 1), 24 bits
      st = st * 1664525u + 1013904223u;  // Numerical Recipes LCG
      return static_cast<float>(st >> 8) * (1.0f / 16777216.0f);
    };
    a.assign(size_ * size_, 0);
    for (long r = 0; r < size_; ++r)
      for (long c = 0; c < size_; ++c)
        a[r * size_ + c] = isa::U(r == c ? static_cast<float>(size_) + next() : 2.0f * next() - 1.0f);
    b.assign(size_, 0);
    for (auto& x : b) x = isa::U(2.0f * next() - 1.0f);
  }
  long size_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeGaussian(const Options& o) {
  return std::make_unique<Gaussian>(o);
}

}  // namespace simtlm::workloads
