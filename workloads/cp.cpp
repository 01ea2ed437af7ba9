// Coulombic potential, as Parboil CP (cuenergy): one z-slice of size x size lattice points,
// 16x8 blocks with UNROLLX = 8 points per thread, `atoms` atoms read uniformly by all threads.
// Inputs come from a fixed-seed 64-bit LCG; the grid starts with small non-zero values because
// the kernel accumulates into it (energygrid[...] += ...), as the original does.
#include <cmath>
#include <stdexcept>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr long kBlockX = 16, kBlockY = 8, kUnrollX = 8;
constexpr float kSpacing = 0.1f;

// Deterministic LCG (Knuth MMIX constants); next() gives 24 random bits as a float in [0, 1).
struct Lcg {
  uint64_t s;
  float next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<float>(s >> 40) * (1.0f / 16777216.0f);
  }
};

class Cp : public Workload {
 public:
  explicit Cp(const Options& o)
      : size_(option(o, "size", 256, kBlockX * kUnrollX, 4096)), atoms_(option(o, "atoms", 100, 1, 4000)) {
    rejectUnknown(o, {"size", "atoms"}, "cp");
    if (size_ % (kBlockX * kUnrollX) != 0)
      throw std::invalid_argument("option size = " + std::to_string(size_) + " must be a multiple of 128");
  }
  std::string name() const override { return "cp"; }
  std::string description() const override {
    return "Coulombic potential (Parboil CP) on a " + std::to_string(size_) + "x" + std::to_string(size_) +
           " slice, " + std::to_string(atoms_) + " atoms, 16x8 blocks, 8 points per thread";
  }
  std::string kernelFile() const override { return "cp.s"; }
  std::vector<CudaKernel> cudaKernels() const override { return {{"cp.ptx", "cp"}}; }
  std::map<std::string, std::string> constantBuffers() const override { return {{"atominfo", "atoms"}}; }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    uint32_t a = mem.allocate("atoms", static_cast<uint32_t>(atoms_ * 16));
    uint32_t e = mem.allocate("energy", static_cast<uint32_t>(size_ * size_ * 4));
    mem.setWords("atoms", inputAtoms());
    mem.setWords("energy", inputGrid());
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>(size_ / (kBlockX * kUnrollX)), static_cast<uint32_t>(size_ / kBlockY), 1};
    l.block = {kBlockX, kBlockY, 1};
    l.params = {a, static_cast<uint32_t>(atoms_), isa::U(kSpacing), e};
    return l;
  }

  // Mirrors the kernel: dx chained by + gridspacing*16, fma for dy*dy+z, dx*dx+dyz2 and the
  // accumulation, rsqrt as 1/sqrt (the interpreter's rsqrt.f32), atoms in order.
  std::string verify(const isa::GlobalMemory& mem) const override {
    std::vector<uint32_t> at = inputAtoms(), want = inputGrid();
    for (long y = 0; y < size_; ++y)
      for (long x0 = 0; x0 < size_; x0 += kBlockX * kUnrollX)
        for (long tx = 0; tx < kBlockX; ++tx) {
          uint32_t xindex = static_cast<uint32_t>(x0 + tx);
          float coory = kSpacing * static_cast<float>(static_cast<uint32_t>(y));
          float coorx = kSpacing * static_cast<float>(xindex);
          float gu = kSpacing * 16.0f;
          float e[kUnrollX] = {};
          for (long i = 0; i < atoms_; ++i) {
            float ax = isa::F(at[4 * i]), ay = isa::F(at[4 * i + 1]);
            float az = isa::F(at[4 * i + 2]), aw = isa::F(at[4 * i + 3]);
            float dy = coory - ay;
            float dyz2 = std::fma(dy, dy, az);
            float dx = coorx - ax;
            for (long u = 0; u < kUnrollX; ++u) {
              if (u) dx = dx + gu;
              float r = 1.0f / std::sqrt(std::fma(dx, dx, dyz2));
              e[u] = std::fma(aw, r, e[u]);
            }
          }
          for (long u = 0; u < kUnrollX; ++u) {
            size_t idx = static_cast<size_t>(y * size_ + xindex + kBlockX * u);
            want[idx] = isa::U(isa::F(want[idx]) + e[u]);
          }
        }
    return compareWords("energy", mem, want);
  }

 private:
  // Atoms spread over the slice's extent in x and y, 0.5..4.5 above it (dz^2 >= 0.25, so no
  // point coincides with an atom), charges in [-1, 1).
  std::vector<uint32_t> inputAtoms() const {
    Lcg g{0x5eed0001u};
    float extent = kSpacing * static_cast<float>(size_);
    std::vector<uint32_t> v(atoms_ * 4);
    for (long i = 0; i < atoms_; ++i) {
      float x = g.next() * extent, y = g.next() * extent, dz = 0.5f + 4.0f * g.next();
      float q = 2.0f * g.next() - 1.0f;
      v[4 * i] = isa::U(x);
      v[4 * i + 1] = isa::U(y);
      v[4 * i + 2] = isa::U(dz * dz);
      v[4 * i + 3] = isa::U(q);
    }
    return v;
  }
  std::vector<uint32_t> inputGrid() const {
    Lcg g{0x5eed0002u};
    std::vector<uint32_t> v(size_ * size_);
    for (auto& w : v) w = isa::U(g.next() - 0.5f);
    return v;
  }
  long size_, atoms_;
};

}  // namespace

std::unique_ptr<Workload> makeCp(const Options& o) { return std::make_unique<Cp>(o); }

}  // namespace simtlm::workloads
