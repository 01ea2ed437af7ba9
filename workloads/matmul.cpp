// Tiled SGEMM, as ../shared/reference/matmul_tiled.cu with TILE = 32: 32x32 blocks, inputs
// A[i] = ((i*7) % 13) * 0.25 - 1 and B[i] = ((i*5) % 11) * 0.5 - 2.
#include <cmath>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr long kTile = 32;

class Matmul : public Workload {
 public:
  explicit Matmul(const Options& o)
      : m_(option(o, "m", option(o, "size", 256, 1, 4096), 1, 4096)),
        n_(option(o, "n", m_, 1, 4096)),
        k_(option(o, "k", m_, 1, 4096)) {
    rejectUnknown(o, {"size", "m", "n", "k"}, "matmul");
  }
  std::string name() const override { return "matmul"; }
  std::string description() const override {
    return "tiled SGEMM C[" + std::to_string(m_) + "x" + std::to_string(n_) + "] = A[" +
           std::to_string(m_) + "x" + std::to_string(k_) + "] * B, 32x32 blocks";
  }
  std::string kernelFile() const override { return "matmul_tiled.s"; }
  // matmul.ptx also holds matmul_tiled16, the twin of matmul_tiled16.s (TILE 16).
  std::vector<CudaKernel> cudaKernels() const override { return {{"matmul.ptx", "matmul_tiled"}}; }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    uint32_t a = mem.allocate("A", static_cast<uint32_t>(m_ * k_ * 4));
    uint32_t b = mem.allocate("B", static_cast<uint32_t>(k_ * n_ * 4));
    uint32_t c = mem.allocate("C", static_cast<uint32_t>(m_ * n_ * 4));
    mem.setWords("A", inputA());
    mem.setWords("B", inputB());
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>((n_ + kTile - 1) / kTile), static_cast<uint32_t>((m_ + kTile - 1) / kTile), 1};
    l.block = {kTile, kTile, 1};
    l.params = {a, b, c, static_cast<uint32_t>(m_), static_cast<uint32_t>(n_), static_cast<uint32_t>(k_)};
    return l;
  }

  // The reference accumulates in the kernel's order (tile by tile, k ascending, one fused
  // multiply-add each, zero padding past K), so that the comparison is bit-exact.
  std::string verify(const isa::GlobalMemory& mem) const override {
    auto A = inputA(), B = inputB();
    long tiles = (k_ + kTile - 1) / kTile;
    std::vector<uint32_t> want(m_ * n_);
    for (long r = 0; r < m_; ++r)
      for (long c = 0; c < n_; ++c) {
        float acc = 0.0f;
        for (long kk = 0; kk < tiles * kTile; ++kk) {
          float a = kk < k_ ? isa::F(A[r * k_ + kk]) : 0.0f;
          float b = kk < k_ ? isa::F(B[kk * n_ + c]) : 0.0f;
          acc = std::fma(a, b, acc);
        }
        want[r * n_ + c] = isa::U(acc);
      }
    return compareWords("C", mem, want);
  }

 private:
  std::vector<uint32_t> inputA() const {
    std::vector<uint32_t> v(m_ * k_);
    for (size_t i = 0; i < v.size(); ++i) v[i] = isa::U(static_cast<float>((i * 7) % 13) * 0.25f - 1.0f);
    return v;
  }
  std::vector<uint32_t> inputB() const {
    std::vector<uint32_t> v(k_ * n_);
    for (size_t i = 0; i < v.size(); ++i) v[i] = isa::U(static_cast<float>((i * 5) % 11) * 0.5f - 2.0f);
    return v;
  }
  long m_, n_, k_;
};

}  // namespace

std::unique_ptr<Workload> makeMatmul(const Options& o) { return std::make_unique<Matmul>(o); }

}  // namespace simtlm::workloads
