// LIBOR Monte Carlo, as the GPGPU-sim benchmark LIB (Pathcalc_Portfolio_KernelGPU): one path
// per thread, 256-thread 1D blocks, N = 80 forward rates, Nmat = 40, 15 swaptions, z = 0.3.
// lambda comes from a fixed-seed LCG around the original's 0.2; maturities and swap rates are
// the original's. The per-thread arrays L, z, B, S are local memory (.local), as in the original.
#include <cmath>
#include <stdexcept>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr long kBlock = 256, kN = 80, kNmat = 40, kNopt = 15;
constexpr float kDelta = 0.25f, kLog2e = 1.44269504f;
constexpr uint32_t kMaturities[kNopt] = {4, 4, 4, 8, 8, 8, 20, 20, 20, 28, 28, 28, 40, 40, 40};
constexpr float kSwaprates[kNopt] = {.045f, .05f, .055f, .045f, .05f, .055f, .045f, .05f,
                                     .055f, .045f, .05f, .055f, .045f, .05f, .055f};

class Libor : public Workload {
 public:
  explicit Libor(const Options& o) : npath_(option(o, "npath", 4096, kBlock, 65536)) {
    rejectUnknown(o, {"npath"}, "libor");
    if (npath_ % kBlock != 0)
      throw std::invalid_argument("option npath = " + std::to_string(npath_) + " must be a multiple of 256");
  }
  std::string name() const override { return "libor"; }
  std::string description() const override {
    return "LIBOR Monte Carlo (LIB), " + std::to_string(npath_) + " paths, 80 rates, 40 steps, 1D blocks of 256";
  }
  std::string kernelFile() const override { return "libor.s"; }
  std::vector<CudaKernel> cudaKernels() const override { return {{"libor.ptx", "libor"}}; }
  std::map<std::string, std::string> constantBuffers() const override {
    return {{"c_lambda", "lambda"}, {"c_maturities", "maturities"}, {"c_swaprates", "swaprates"}};
  }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    uint32_t lam = mem.allocate("lambda", kN * 4);
    uint32_t mat = mem.allocate("maturities", kNopt * 4);
    uint32_t swp = mem.allocate("swaprates", kNopt * 4);
    uint32_t v = mem.allocate("v", static_cast<uint32_t>(npath_ * 4));
    mem.setWords("lambda", inputLambda());
    std::vector<uint32_t> m(kMaturities, kMaturities + kNopt), s(kNopt);
    for (long i = 0; i < kNopt; ++i) s[i] = isa::U(kSwaprates[i]);
    mem.setWords("maturities", m);
    mem.setWords("swaprates", s);
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>(npath_ / kBlock), 1, 1};
    l.block = {kBlock, 1, 1};
    l.params = {lam, mat, swp, v};
    return l;
  }

  // One path in the kernel's operation order (every path is the same, as in the original);
  // fma where the kernel has fma.f32, exp2f for ex2.f32, IEEE division for div.f32.
  std::string verify(const isa::GlobalMemory& mem) const override {
    std::vector<uint32_t> lamIn = inputLambda();
    float lambda[kN], L[kN], B[kN - kNmat], S[kN - kNmat];
    for (long i = 0; i < kN; ++i) lambda[i] = isa::F(lamIn[i]), L[i] = 0.05f;
    const float sd = std::sqrt(kDelta);
    for (long n = 0; n < kNmat; ++n) {
      float sqez = sd * 0.3f, v = 0.0f;
      for (long i = n + 1; i < kN; ++i) {
        float lam = lambda[i - n - 1], con1 = kDelta * lam;
        float t = (con1 * L[i]) / std::fma(kDelta, L[i], 1.0f);
        v = v + t;
        float a = lam * std::fma(-0.5f, con1, sqez);
        float vrat = std::exp2(std::fma(con1, v, a) * kLog2e);
        L[i] = L[i] * vrat;
      }
    }
    float b = 1.0f, s = 0.0f;
    for (long n = kNmat; n < kN; ++n) {
      b = b / std::fma(kDelta, L[n], 1.0f);
      s = std::fma(kDelta, b, s);
      B[n - kNmat] = b;
      S[n - kNmat] = s;
    }
    float v = 0.0f;
    for (long i = 0; i < kNopt; ++i) {
      long m = kMaturities[i] - 1;
      float swapval = std::fma(kSwaprates[i], S[m], B[m]) - 1.0f;
      if (swapval < 0.0f) v = std::fma(-100.0f, swapval, v);
    }
    b = 1.0f;  // the discount, as the original: b over the first Nmat rates, then v = b * v
    for (long n = 0; n < kNmat; ++n) b = b / std::fma(kDelta, L[n], 1.0f);
    v = b * v;
    std::vector<uint32_t> want(npath_, isa::U(v));
    return compareWords("v", mem, want);
  }

 private:
  std::vector<uint32_t> inputLambda() const {
    uint64_t s = 0x11b0f00du;
    std::vector<uint32_t> v(kN);
    for (auto& w : v) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      w = isa::U(0.15f + 0.1f * (static_cast<float>(s >> 40) * (1.0f / 16777216.0f)));
    }
    return v;
  }
  long npath_;
};

}  // namespace

std::unique_ptr<Workload> makeLibor(const Options& o) { return std::make_unique<Libor>(o); }

}  // namespace simtlm::workloads
