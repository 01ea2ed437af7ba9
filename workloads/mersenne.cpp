// MersenneTwister (the UV paper's "MT", Table 3), after the CUDA SDK sample MersenneTwister
// (workloads/cuda/mersenne.cu, docs/workloads/mersenne.md): RandomGPU draws `per_rng` outputs
// from each of `rngs` small Mersenne Twisters (MT_NN = 19), then BoxMullerGPU turns them into
// normal deviates in place; two launches on one buffer, `blocks` blocks of 128 threads each (the
// SDK's 32 x 128 for its 4096 generators). The SDK reads its generators' parameter sets from
// MersenneTwister.dat (dcmt's output); ours are drawn from a fixed-seed LCG (matrix_a with its
// top bit set, as dcmt's are), which changes the numbers, not the work. CUDA-only.
#include <cmath>
#include <stdexcept>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr uint32_t kThreads = 128;
constexpr int kNN = 19, kMM = 9;

class Mersenne : public Workload {
 public:
  explicit Mersenne(const Options& o)
      : rngs_(option(o, "rngs", 4096, 1, 65536)),
        perRng_(option(o, "per_rng", 64, 2, 65536)),
        blocks_(option(o, "blocks", 32, 1, 65535)),
        seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"rngs", "per_rng", "blocks", "seed"}, "mersenne");
    if (perRng_ % 2)
      throw std::invalid_argument("option per_rng = " + std::to_string(perRng_) + " is not even");
    if (rngs_ * perRng_ > (1L << 24))
      throw std::invalid_argument("options rngs x per_rng = " + std::to_string(rngs_ * perRng_) +
                                  " exceed 16M outputs");
  }
  std::string name() const override { return "mersenne"; }
  std::string description() const override {
    return "Mersenne Twister, " + std::to_string(rngs_) + " generators x " +
           std::to_string(perRng_) + " outputs, then Box-Muller; " + std::to_string(blocks_) +
           " blocks of 128 (CUDA SDK MersenneTwister; CUDA-only)";
  }
  std::vector<CudaKernel> cudaKernels() const override {
    return {{"mersenne.ptx", "RandomGPU"}, {"mersenne.ptx", "BoxMullerGPU"}};
  }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    uint32_t random = mem.allocate("random", static_cast<uint32_t>(rngs_ * perRng_ * 4));
    uint32_t mt = mem.allocate("mt_params", static_cast<uint32_t>(rngs_ * 16));
    mem.setWords("mt_params", params());
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>(blocks_), 1, 1};
    l.block = {kThreads, 1, 1};
    l.params = {random, mt, static_cast<uint32_t>(perRng_), static_cast<uint32_t>(rngs_)};
    return l;
  }
  std::vector<Step> launches(isa::GlobalMemory& mem) const override {
    Step random{0, setup(mem)}, boxMuller{1, random.launch};
    boxMuller.launch.params = {random.launch.params[0], static_cast<uint32_t>(perRng_),
                               static_cast<uint32_t>(rngs_)};
    return {random, boxMuller};
  }

  std::string verify(const isa::GlobalMemory& mem) const override {
    const auto p = params();
    std::vector<uint32_t> want(rngs_ * perRng_);
    for (long g = 0; g < rngs_; ++g) {
      const uint32_t matrixA = p[g * 4], maskB = p[g * 4 + 1], maskC = p[g * 4 + 2];
      uint32_t mt[kNN];
      mt[0] = p[g * 4 + 3];
      for (int i = 1; i < kNN; ++i)
        mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + static_cast<uint32_t>(i);
      int s = 0;
      std::vector<float> out(perRng_);
      for (long j = 0; j < perRng_; ++j) {
        const int s1 = (s + 1) % kNN, sm = (s + kMM) % kNN;
        uint32_t x = (mt[s] & 0xFFFFFFFEu) | (mt[s1] & 1u);
        x = mt[sm] ^ (x >> 1) ^ ((x & 1) ? matrixA : 0u);
        mt[s] = x;
        s = s1;
        x ^= x >> 12;
        x ^= (x << 7) & maskB;
        x ^= (x << 15) & maskC;
        x ^= x >> 18;
        out[j] = (static_cast<float>(x) + 1.0f) * (1.0f / 4294967296.0f);
      }
      // Box-Muller on each pair, as the kernel's intrinsics (lg2, sin, cos: the ISA's host values).
      for (long j = 0; j < perRng_; j += 2) {
        const float r = std::sqrt(-2.0f * (std::log2(out[j]) * 0.693147182f));
        const float phi = (2.0f * 3.14159265358979f) * out[j + 1];
        out[j] = r * std::cos(phi);
        out[j + 1] = r * std::sin(phi);
      }
      for (long j = 0; j < perRng_; ++j) want[g + j * rngs_] = isa::U(out[j]);
    }
    return compareWords("random", mem, want);
  }

 private:
  // {matrix_a, mask_b, mask_c, seed} per generator.
  std::vector<uint32_t> params() const {
    uint32_t st = static_cast<uint32_t>(seed_);
    auto next = [&st] { return st = st * 1664525u + 1013904223u; };  // Numerical Recipes LCG
    std::vector<uint32_t> w;
    for (long g = 0; g < rngs_; ++g) {
      const uint32_t a = next() | 0x80000000u, b = next(), c = next(), seed = next();
      for (uint32_t v : {a, b, c, seed}) w.push_back(v);
    }
    return w;
  }
  long rngs_, perRng_, blocks_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeMersenne(const Options& o) {
  return std::make_unique<Mersenne>(o);
}

}  // namespace simtlm::workloads
