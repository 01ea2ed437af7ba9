// Rodinia backprop: the two GPU kernels of one training step of the input -> hidden layer of a
// network with `in` input units and hid = 16 hidden units, 16x16 blocks, grid (1, in / 16):
// bpnn_layerforward_CUDA (workloads/kernels/backprop.s: per-block weighted sums by a shared-
// memory tree reduction) then bpnn_adjust_weights_cuda (workloads/kernels/backprop_adjust.s:
// the momentum weight update). Rodinia's host work between the two (summing the partial sums,
// the output layer, the errors) is not modelled: the hidden deltas are an input, and the
// adjust kernel updates its own copy of the weights, as Rodinia's host re-uploads the original
// weights (the layer-forward kernel overwrites input_hidden_cuda) before launching it.
#include <cmath>
#include <stdexcept>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr long kHeight = 16, kHid = 16;  // Rodinia's HEIGHT = WIDTH = 16, hid = 16
constexpr long kCols = kHid + 1;         // a weight row: the bias column and hid weights
constexpr float kEta = 0.3f, kMomentum = 0.3f;

class Backprop : public Workload {
 public:
  explicit Backprop(const Options& o)
      : in_(option(o, "in", 4096, kHeight, kHeight * 65535)), seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"in", "seed"}, "backprop");
    if (in_ % kHeight) throw std::invalid_argument("option in = " + std::to_string(in_) + " is not a multiple of 16");
  }
  std::string name() const override { return "backprop"; }
  std::string description() const override {
    return "backprop layer forward + weight adjust, " + std::to_string(in_) +
           " input units x 16 hidden, 16x16 blocks (Rodinia backprop, 2 kernels)";
  }
  std::string kernelFile() const override { return "backprop.s"; }
  std::vector<std::string> kernelFiles() const override { return {"backprop.s", "backprop_adjust.s"}; }
  std::vector<CudaKernel> cudaKernels() const override {
    return {{"backprop.ptx", "bpnn_layerforward"}, {"backprop.ptx", "bpnn_adjust_weights"}};
  }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    const Inputs x = inputs();
    const uint32_t weightBytes = static_cast<uint32_t>((in_ + 1) * kCols * 4);
    mem.allocate("input_units", static_cast<uint32_t>((in_ + 1) * 4));
    mem.allocate("input_hidden", weightBytes);
    mem.allocate("partial_sum", static_cast<uint32_t>(blocks() * kHid * 4));
    mem.allocate("hidden_delta", kCols * 4);
    mem.allocate("weights", weightBytes);
    mem.allocate("prev_weights", weightBytes);
    mem.setWords("input_units", x.units);
    mem.setWords("input_hidden", x.weights);
    mem.setWords("hidden_delta", x.delta);
    mem.setWords("weights", x.weights);  // the host's re-upload of the original weights
    mem.setWords("prev_weights", x.prev);
    isa::LaunchConfig l = launchShape();
    l.params = {mem.region("input_units").base, mem.region("input_hidden").base, mem.region("partial_sum").base,
                static_cast<uint32_t>(kHid)};
    return l;
  }

  std::vector<Step> launches(isa::GlobalMemory& mem) const override {
    Step forward{0, setup(mem)};
    Step adjust{1, launchShape()};
    adjust.launch.params = {mem.region("hidden_delta").base, static_cast<uint32_t>(kHid),
                            mem.region("input_units").base, mem.region("weights").base,
                            mem.region("prev_weights").base};
    return {forward, adjust};
  }

  // Both kernels' float operations in their order. Layer forward: the products, then the tree
  // steps p = 2, 4, 8, 16 (rows ty % p == 0 add row ty + p/2, which no thread writes in that
  // step). Adjust: (ETA * delta) * ly, fma(oldw, MOMENTUM, .), added to w.
  std::string verify(const isa::GlobalMemory& mem) const override {
    const Inputs x = inputs();
    std::vector<uint32_t> hidden = x.weights, partial(blocks() * kHid), w = x.weights, prev = x.prev;
    for (long by = 0; by < blocks(); ++by) {
      float wm[kHeight][kHid];
      for (long ty = 0; ty < kHeight; ++ty)
        for (long tx = 0; tx < kHid; ++tx)
          wm[ty][tx] = isa::F(x.weights[index(by, ty, tx)]) * isa::F(x.units[kHeight * by + ty + 1]);
      for (long p = 2; p <= kHeight; p *= 2)
        for (long ty = 0; ty < kHeight; ty += p)
          for (long tx = 0; tx < kHid; ++tx) wm[ty][tx] = wm[ty][tx] + wm[ty + p / 2][tx];
      for (long ty = 0; ty < kHeight; ++ty) {
        for (long tx = 0; tx < kHid; ++tx) hidden[index(by, ty, tx)] = isa::U(wm[ty][tx]);
        partial[by * kHid + ty] = isa::U(wm[0][ty]);
      }
    }
    for (long by = 0; by < blocks(); ++by)
      for (long ty = 0; ty < kHeight; ++ty)
        for (long tx = 0; tx < kHid; ++tx) {
          const long i = index(by, ty, tx);
          float t = kEta * isa::F(x.delta[tx + 1]) * isa::F(x.units[kHeight * by + ty + 1]);
          float r = std::fma(isa::F(prev[i]), kMomentum, t);
          w[i] = isa::U(isa::F(w[i]) + r);
          prev[i] = isa::U(r);
        }
    for (long tx = 1; tx <= kHid; ++tx) {  // the bias row, block 0's threads ty == 0
      float r = std::fma(isa::F(prev[tx]), kMomentum, kEta * isa::F(x.delta[tx]));
      w[tx] = isa::U(isa::F(w[tx]) + r);
      prev[tx] = isa::U(r);
    }
    std::string s = compareWords("input_hidden", mem, hidden);
    s += compareWords("partial_sum", mem, partial);
    s += compareWords("weights", mem, w);
    s += compareWords("prev_weights", mem, prev);
    return s;
  }

 private:
  struct Inputs {
    std::vector<uint32_t> units, weights, delta, prev;
  };
  long blocks() const { return in_ / kHeight; }
  // The weight of input unit HEIGHT*by + ty + 1 to hidden unit tx + 1.
  static long index(long by, long ty, long tx) { return kCols * (kHeight * by + ty + 1) + tx + 1; }
  isa::LaunchConfig launchShape() const {
    isa::LaunchConfig l;
    l.grid = {1, static_cast<uint32_t>(blocks()), 1};
    l.block = {kHeight, kHid, 1};
    return l;
  }
  // Inputs and weights in [0, 1) as Rodinia's rand() / RAND_MAX; the hidden deltas and the
  // previous weight changes in [-1/16, 1/16) (Rodinia's first step starts from zero changes;
  // non-zero ones make the momentum term count). All on a 2^-24 grid from one LCG stream.
  Inputs inputs() const {
    uint32_t s = static_cast<uint32_t>(seed_);
    auto next = [&s] {
      s = s * 1664525u + 1013904223u;  // Numerical Recipes LCG
      return static_cast<float>(s >> 8) * (1.0f / 16777216.0f);
    };
    Inputs x;
    const size_t weights = static_cast<size_t>((in_ + 1) * kCols);
    for (long i = 0; i <= in_; ++i) x.units.push_back(isa::U(next()));
    for (size_t i = 0; i < weights; ++i) x.weights.push_back(isa::U(next()));
    for (long i = 0; i < kCols; ++i) x.delta.push_back(isa::U(next() * 0.125f - 0.0625f));
    for (size_t i = 0; i < weights; ++i) x.prev.push_back(isa::U(next() * 0.125f - 0.0625f));
    return x;
  }
  long in_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeBackprop(const Options& o) { return std::make_unique<Backprop>(o); }

}  // namespace simtlm::workloads
