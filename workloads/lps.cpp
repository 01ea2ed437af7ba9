// 3D Laplace solver (Kim et al. ISCA 2013 "lps", Table 1/2, GPGPU-Sim's ISPASS-2009 LPS; the BOW
// paper's LPS), after the Jacobi sweep of that benchmark (workloads/cuda/lps.cu,
// docs/workloads/lps.md): `iterations` sweeps over an nx x ny x nz grid, each a launch
// alternating the two grids as source and destination; an interior point becomes the mean of
// its six neighbours, a boundary point is copied. Blocks of 32 x 4 threads over the x-y plane,
// each thread walking its column along z with the plane's tile in shared memory. The initial
// grid is uniform in [0, 1) from a fixed-seed LCG. CUDA-only.
#include <stdexcept>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr uint32_t kBx = 32, kBy = 4;  // the kernel's BX, BY

class Lps : public Workload {
 public:
  explicit Lps(const Options& o)
      : nx_(option(o, "nx", 64, 3, 1024)),
        ny_(option(o, "ny", 64, 3, 1024)),
        nz_(option(o, "nz", 64, 3, 1024)),
        iterations_(option(o, "iterations", 2, 1, 100)),
        seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"nx", "ny", "nz", "iterations", "seed"}, "lps");
    if (nx_ * ny_ * nz_ > (1L << 24))
      throw std::invalid_argument("options nx x ny x nz = " + std::to_string(nx_ * ny_ * nz_) +
                                  " exceed 16M points");
  }
  std::string name() const override { return "lps"; }
  std::string description() const override {
    return "3D Laplace, " + std::to_string(iterations_) + " Jacobi sweeps of a " +
           std::to_string(nx_) + " x " + std::to_string(ny_) + " x " + std::to_string(nz_) +
           " grid, 32 x 4 blocks walking z (ISPASS-2009 LPS; CUDA-only)";
  }
  std::vector<CudaKernel> cudaKernels() const override { return {{"lps.ptx", "laplace3d"}}; }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    const uint32_t bytes = static_cast<uint32_t>(nx_ * ny_ * nz_ * 4);
    uint32_t a = mem.allocate("u1", bytes), b = mem.allocate("u2", bytes);
    mem.setWords("u1", input());
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>((nx_ + kBx - 1) / kBx), static_cast<uint32_t>((ny_ + kBy - 1) / kBy), 1};
    l.block = {kBx, kBy, 1};
    l.params = {static_cast<uint32_t>(nx_), static_cast<uint32_t>(ny_), static_cast<uint32_t>(nz_), a, b};
    return l;
  }
  std::vector<Step> launches(isa::GlobalMemory& mem) const override {
    std::vector<Step> steps{{0, setup(mem)}};
    for (long it = 1; it < iterations_; ++it) {
      Step s = steps.back();
      std::swap(s.launch.params[3], s.launch.params[4]);
      steps.push_back(s);
    }
    return steps;
  }

  std::string verify(const isa::GlobalMemory& mem) const override {
    std::vector<uint32_t> src = input(), dst(src.size());
    const long plane = nx_ * ny_;
    for (long it = 0; it < iterations_; ++it) {
      for (long k = 0; k < nz_; ++k)
        for (long j = 0; j < ny_; ++j)
          for (long i = 0; i < nx_; ++i) {
            const long at = i + j * nx_ + k * plane;
            if (i == 0 || i == nx_ - 1 || j == 0 || j == ny_ - 1 || k == 0 || k == nz_ - 1) {
              dst[at] = src[at];
              continue;
            }
            float v = isa::F(src[at - 1]) + isa::F(src[at + 1]);
            v = v + isa::F(src[at - nx_]);
            v = v + isa::F(src[at + nx_]);
            v = v + isa::F(src[at - plane]);
            v = v + isa::F(src[at + plane]);
            dst[at] = isa::U(v * (1.0f / 6.0f));
          }
      std::swap(src, dst);
    }
    // After an odd number of sweeps the result is in u2, after an even number in u1; the other
    // grid holds the sweep before.
    const bool odd = iterations_ % 2 == 1;
    std::string err = compareWords(odd ? "u2" : "u1", mem, src);
    if (err.empty() && iterations_ > 1) err = compareWords(odd ? "u1" : "u2", mem, dst);
    return err;
  }

 private:
  std::vector<uint32_t> input() const {
    uint32_t st = static_cast<uint32_t>(seed_) * 2654435761u + 0x3c6ef372u;
    std::vector<uint32_t> v(nx_ * ny_ * nz_);
    for (auto& w : v) {
      st = st * 1664525u + 1013904223u;  // Numerical Recipes LCG
      w = isa::U(static_cast<float>(st >> 8) * (1.0f / 16777216.0f));
    }
    return v;
  }
  long nx_, ny_, nz_, iterations_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeLps(const Options& o) {
  return std::make_unique<Lps>(o);
}

}  // namespace simtlm::workloads
