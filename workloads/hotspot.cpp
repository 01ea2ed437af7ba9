// HotSpot, as Rodinia's hotspot (calculate_temp, BLOCK_SIZE 16): one launch of `iterations`
// (the pyramid height) Jacobi steps of the thermal stencil over a rows x cols chip, with the
// chip constants of Rodinia's host code. Inputs from a fixed-seed LCG: temperatures in
// [320, 336) K and power in [0, 0.004), both multiples of 2^-8 / 2^-18 (exact in float).
#include <cmath>
#include <cstdint>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr long kBlock = 16;

// Rodinia hotspot.cu constants.
constexpr double kMaxPd = 3.0e6, kPrecision = 0.001, kSpecHeatSi = 1.75e6, kKSi = 100;
constexpr double kFactorChip = 0.5, kTChip = 0.0005, kChipHeight = 0.016, kChipWidth = 0.016;
constexpr float kAmbTemp = 80.0f;

class Hotspot : public Workload {
 public:
  explicit Hotspot(const Options& o)
      : rows_(option(o, "rows", option(o, "size", 256, 1, 4096), 1, 4096)),
        cols_(option(o, "cols", option(o, "size", 256, 1, 4096), 1, 4096)),
        iter_(option(o, "iterations", 2, 1, 7)) {
    rejectUnknown(o, {"size", "rows", "cols", "iterations"}, "hotspot");
  }
  std::string name() const override { return "hotspot"; }
  std::string description() const override {
    return "HotSpot thermal stencil " + std::to_string(rows_) + "x" + std::to_string(cols_) + ", " +
           std::to_string(iter_) + " iterations in shared memory, 16x16 blocks";
  }
  std::string kernelFile() const override { return "hotspot.s"; }
  std::vector<CudaKernel> cudaKernels() const override { return {{"hotspot.ptx", "hotspot"}}; }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    const uint32_t bytes = static_cast<uint32_t>(rows_ * cols_ * 4);
    uint32_t power = mem.allocate("power", bytes);
    uint32_t src = mem.allocate("temp_src", bytes);
    uint32_t dst = mem.allocate("temp_dst", bytes);
    std::vector<uint32_t> t, p;
    inputs(t, p);
    mem.setWords("power", p);
    mem.setWords("temp_src", t);
    const Consts c = consts();
    const long small = kBlock - 2 * iter_;  // small_block_rows = small_block_cols
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>((cols_ + small - 1) / small), static_cast<uint32_t>((rows_ + small - 1) / small), 1};
    l.block = {kBlock, kBlock, 1};
    l.params = {static_cast<uint32_t>(iter_), power, src, dst, static_cast<uint32_t>(cols_),
                static_cast<uint32_t>(rows_), static_cast<uint32_t>(iter_), static_cast<uint32_t>(iter_),
                isa::U(c.cap), isa::U(c.rx), isa::U(c.ry), isa::U(c.rz), isa::U(c.step)};
    return l;
  }

  // The pyramid computes, for every cell of its small block, exactly `iterations` global
  // Jacobi steps with neighbours clamped at the chip's edges; the reference does those steps
  // over the whole chip with the kernel's float operations in the kernel's order.
  std::string verify(const isa::GlobalMemory& mem) const override {
    std::vector<uint32_t> tw, pw;
    inputs(tw, pw);
    const Consts c = consts();
    const float sdc = c.step / c.cap, rx1 = 1.0f / c.rx, ry1 = 1.0f / c.ry, rz1 = 1.0f / c.rz;
    std::vector<float> t(tw.size()), next(tw.size());
    for (size_t i = 0; i < tw.size(); ++i) t[i] = isa::F(tw[i]);
    for (long it = 0; it < iter_; ++it) {
      for (long y = 0; y < rows_; ++y)
        for (long x = 0; x < cols_; ++x) {
          const long n = y > 0 ? y - 1 : 0, s = y < rows_ - 1 ? y + 1 : rows_ - 1;
          const long w = x > 0 ? x - 1 : 0, e = x < cols_ - 1 ? x + 1 : cols_ - 1;
          const float tc = t[y * cols_ + x];
          const float a = std::fma(-2.0f, tc, t[s * cols_ + x] + t[n * cols_ + x]);
          const float b = std::fma(-2.0f, tc, t[y * cols_ + e] + t[y * cols_ + w]);
          const float d = kAmbTemp - tc;
          float acc = std::fma(a, ry1, isa::F(pw[y * cols_ + x]));
          acc = std::fma(b, rx1, acc);
          acc = std::fma(d, rz1, acc);
          next[y * cols_ + x] = std::fma(sdc, acc, tc);
        }
      t.swap(next);
    }
    std::vector<uint32_t> want(t.size());
    for (size_t i = 0; i < t.size(); ++i) want[i] = isa::U(t[i]);
    return compareWords("temp_dst", mem, want);
  }

 private:
  struct Consts {
    float cap, rx, ry, rz, step;
  };
  // Rodinia's host code, in double, passed to the kernel as floats.
  Consts consts() const {
    const double gridHeight = kChipHeight / static_cast<double>(rows_);
    const double gridWidth = kChipWidth / static_cast<double>(cols_);
    const double cap = kFactorChip * kSpecHeatSi * kTChip * gridWidth * gridHeight;
    const double rx = gridWidth / (2.0 * kKSi * kTChip * gridHeight);
    const double ry = gridHeight / (2.0 * kKSi * kTChip * gridWidth);
    const double rz = kTChip / (kKSi * gridHeight * gridWidth);
    const double maxSlope = kMaxPd / (kFactorChip * kTChip * kSpecHeatSi);
    const double step = kPrecision / maxSlope;
    return {static_cast<float>(cap), static_cast<float>(rx), static_cast<float>(ry), static_cast<float>(rz),
            static_cast<float>(step)};
  }
  void inputs(std::vector<uint32_t>& temp, std::vector<uint32_t>& power) const {
    uint32_t x = 12345u;  // LCG (Numerical Recipes constants)
    auto next = [&x] { return (x = x * 1664525u + 1013904223u) >> 8; };
    temp.resize(rows_ * cols_);
    power.resize(rows_ * cols_);
    for (size_t i = 0; i < temp.size(); ++i) {
      temp[i] = isa::U(320.0f + static_cast<float>(next() % 4096) / 256.0f);
      power[i] = isa::U(static_cast<float>(next() % 1024) / 262144.0f);
    }
  }
  long rows_, cols_, iter_;
};

}  // namespace

std::unique_ptr<Workload> makeHotspot(const Options& o) { return std::make_unique<Hotspot>(o); }

}  // namespace simtlm::workloads
