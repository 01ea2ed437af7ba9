// European call options priced on a binomial tree, as the CUDA SDK sample binomialOptions
// (binomialOptionsKernel, float, CACHE_SIZE 256 / CACHE_DELTA 32 tiling; workloads/kernels/
// binomial.s): one 256-thread block per option, `steps` time steps. The option data is
// prepared on the host in double as the sample's binomialOptionsGPU() does, from random
// options as its main() draws them (S in [5, 30), X in [1, 100), T in [0.25, 10), R = 0.06,
// V = 0.10), from a fixed-seed LCG.
#include <cmath>
#include <stdexcept>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr long kCacheSize = 256, kCacheDelta = 32;
constexpr float kLog2e = 1.44269504f;  // the kernel's LOG2E: __expf(x) = ex2(x * log2(e))

class Binomial : public Workload {
 public:
  explicit Binomial(const Options& o)
      : options_(option(o, "options", 64, 1, 65535)),
        steps_(option(o, "steps", 256, kCacheDelta, 4096)),
        seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"options", "steps", "seed"}, "binomial");
    if (steps_ % kCacheDelta)
      throw std::invalid_argument("option steps = " + std::to_string(steps_) + " is not a multiple of 32");
  }
  std::string name() const override { return "binomial"; }
  std::string description() const override {
    return "binomial option pricing, " + std::to_string(options_) + " options x " + std::to_string(steps_) +
           " steps, 256-thread blocks (CUDA SDK binomialOptions)";
  }
  std::string kernelFile() const override { return "binomial.s"; }
  std::vector<CudaKernel> cudaKernels() const override {
    return {{"binomial.ptx", "binomialOptionsKernel"}};
  }
  std::map<std::string, std::string> constantBuffers() const override {
    return {{"c_OptionData", "option_data"}};
  }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    uint32_t value = mem.allocate("call_value", static_cast<uint32_t>(options_ * 4));
    uint32_t buffer = mem.allocate("call_buffer", static_cast<uint32_t>(options_ * frame() * 4));
    uint32_t data = mem.allocate("option_data", static_cast<uint32_t>(options_ * 5 * 4));
    mem.setWords("option_data", optionData());
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>(options_), 1, 1};
    l.block = {kCacheSize, 1, 1};
    l.params = {value, buffer, data, static_cast<uint32_t>(steps_)};
    return l;
  }

  // Every value the kernel keeps is a node of the tree computed by the same recurrence
  // V[j] = fma(puByDf, V[j + 1], pdByDf * V[j]) from the leaves (the threads past c_start compute
  // values that never reach a flushed node). d_Call[j] ends holding level 32 * ceil(j / 32),
  // flushed by the last pass i with j <= i - 32; the top 32 nodes keep their leaf values (no
  // pass flushes them) and the 16 padding words stay 0.
  std::string verify(const isa::GlobalMemory& mem) const override {
    const auto data = optionData();
    const long n = steps_;
    std::vector<uint32_t> value(options_), buffer(options_ * frame(), 0);
    std::vector<float> v(n + 1);
    for (long o = 0; o < options_; ++o) {
      const float s = isa::F(data[o * 5]), x = isa::F(data[o * 5 + 1]), vdt = isa::F(data[o * 5 + 2]);
      const float pu = isa::F(data[o * 5 + 3]), pd = isa::F(data[o * 5 + 4]);
      uint32_t* frameWords = &buffer[o * frame()];
      for (long i = 0; i <= n; ++i) {
        float t = static_cast<float>(i);
        t = (t + t - static_cast<float>(n)) * vdt;
        float d = std::fma(s, std::exp2(t * kLog2e), -x);
        v[i] = d > 0.0f ? d : 0.0f;
      }
      for (long j = 0; j <= n; ++j) frameWords[j] = isa::U(v[j]);
      for (long level = n - 1; level >= 0; --level) {
        for (long j = 0; j <= level; ++j) v[j] = std::fma(pu, v[j + 1], pd * v[j]);
        if (level % kCacheDelta == 0)
          for (long j = level > 0 ? level - kCacheDelta + 1 : 0; j <= level; ++j) frameWords[j] = isa::U(v[j]);
      }
      value[o] = isa::U(v[0]);
    }
    return compareWords("call_value", mem, value) +
           compareWords("call_buffer", mem, buffer);
  }

 private:
  long frame() const { return steps_ + 16; }  // NUM_STEPS + 16 floats per option
  // {S, X, vDt, puByDf, pdByDf} per option, as binomialOptionsGPU() computes them (double).
  std::vector<uint32_t> optionData() const {
    uint32_t st = static_cast<uint32_t>(seed_);
    auto randFloat = [&st](float lo, float hi) {
      st = st * 1664525u + 1013904223u;  // Numerical Recipes LCG
      float t = static_cast<float>(st >> 8) * (1.0f / 16777216.0f);
      return (1.0f - t) * lo + t * hi;  // the sample's RandFloat
    };
    std::vector<uint32_t> w;
    for (long o = 0; o < options_; ++o) {
      const double S = randFloat(5.0f, 30.0f), X = randFloat(1.0f, 100.0f), T = randFloat(0.25f, 10.0f);
      const double R = 0.06f, V = 0.10f;
      const double dt = T / static_cast<double>(steps_), vDt = V * std::sqrt(dt), rDt = R * dt;
      const double If = std::exp(rDt), Df = std::exp(-rDt), u = std::exp(vDt), d = std::exp(-vDt);
      const double pu = (If - d) / (u - d), pd = 1.0 - pu;
      for (double f : {S, X, vDt, pu * Df, pd * Df}) w.push_back(isa::U(static_cast<float>(f)));
    }
    return w;
  }
  long options_, steps_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeBinomial(const Options& o) { return std::make_unique<Binomial>(o); }

}  // namespace simtlm::workloads
