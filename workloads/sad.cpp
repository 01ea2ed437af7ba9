// Sum of absolute differences (BOW's "SAD", Table III, Parboil sad): H.264 motion estimation's
// SADs (workloads/cuda/sad.cu, docs/workloads/sad.md). For every 16 x 16 macroblock of a
// `width` x `height` frame and every displacement within +-`range` pixels: the 16 4 x 4
// sub-blocks' SADs against the reference frame (coordinates clamped to the frame), then the 25
// larger partitions' (8x4, 4x8, 8x8, 16x8, 8x16, 16x16). Two launches: mb_sad_calc,
// larger_sad_calc. Pixels are 8-bit values held in 32-bit words, from a fixed-seed LCG; the
// current frame is the reference moved by (3, -2) pixels plus noise. Integers only. CUDA-only.
#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr long kPosPerThread = 18, kShapes = 41;  // the kernels' POS_PER_THREAD and SHAPES
constexpr uint32_t kLargerThreads = 128;

class Sad : public Workload {
 public:
  explicit Sad(const Options& o)
      : width_(option(o, "width", 64, 16, 1024)),
        height_(option(o, "height", 48, 16, 1024)),
        range_(option(o, "range", 16, 1, 16)),
        seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"width", "height", "range", "seed"}, "sad");
    if (width_ % 16 || height_ % 16)
      throw std::invalid_argument("options width = " + std::to_string(width_) + ", height = " +
                                  std::to_string(height_) + " must be multiples of 16");
  }
  std::string name() const override { return "sad"; }
  std::string description() const override {
    return "SADs of the " + std::to_string(mbs()) + " macroblocks of a " + std::to_string(width_) +
           " x " + std::to_string(height_) + " frame, search range +-" + std::to_string(range_) +
           ", 4x4 to 16x16 (Parboil sad; CUDA-only)";
  }
  std::vector<CudaKernel> cudaKernels() const override {
    return {{"sad.ptx", "mb_sad_calc"}, {"sad.ptx", "larger_sad_calc"}};
  }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    const uint32_t pixels = static_cast<uint32_t>(width_ * height_ * 4);
    uint32_t sads = mem.allocate("sads", static_cast<uint32_t>(mbs() * kShapes * npos() * 4));
    uint32_t cur = mem.allocate("cur", pixels), ref = mem.allocate("ref", pixels);
    std::vector<uint32_t> c, r;
    frames(c, r);
    mem.setWords("cur", c);
    mem.setWords("ref", r);
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>(width_ / 16), static_cast<uint32_t>(height_ / 16), 1};
    l.block = {static_cast<uint32_t>(16 * ((npos() + kPosPerThread - 1) / kPosPerThread)), 1, 1};
    l.params = {sads, cur, ref, static_cast<uint32_t>(width_), static_cast<uint32_t>(height_),
                static_cast<uint32_t>(range_)};
    return l;
  }
  std::vector<Step> launches(isa::GlobalMemory& mem) const override {
    Step sub{0, setup(mem)}, larger = sub;
    larger.kernel = 1;
    larger.launch.block = {kLargerThreads, 1, 1};
    larger.launch.params = {sub.launch.params[0], static_cast<uint32_t>(range_)};
    return {sub, larger};
  }

  std::string verify(const isa::GlobalMemory& mem) const override {
    std::vector<uint32_t> c, r;
    frames(c, r);
    const long side = 2 * range_ + 1, n = npos(), mbw = width_ / 16;
    std::vector<uint32_t> want(mbs() * kShapes * n);
    for (long mb = 0; mb < mbs(); ++mb)
      for (long pos = 0; pos < n; ++pos) {
        const long dy = pos / side - range_, dx = pos % side - range_;
        uint32_t s[16];
        for (long sub = 0; sub < 16; ++sub) {
          const long x0 = (mb % mbw) * 16 + (sub % 4) * 4, y0 = (mb / mbw) * 16 + (sub / 4) * 4;
          uint32_t sad = 0;
          for (long i = 0; i < 4; ++i)
            for (long j = 0; j < 4; ++j) {
              const long ry = std::clamp(y0 + dy + i, 0L, height_ - 1);
              const long rx = std::clamp(x0 + dx + j, 0L, width_ - 1);
              sad += static_cast<uint32_t>(std::abs(static_cast<long>(c[(y0 + i) * width_ + x0 + j]) -
                                                    static_cast<long>(r[ry * width_ + rx])));
            }
          s[sub] = sad;
        }
        // Shapes in the kernel's order: 16 4x4, 8 8x4, 8 4x8, 4 8x8, 16x8 (2), 8x16 (2), 16x16.
        std::vector<uint32_t> shapes(s, s + 16);
        for (int row = 0; row < 4; ++row)
          for (int h = 0; h < 2; ++h) shapes.push_back(s[row * 4 + 2 * h] + s[row * 4 + 2 * h + 1]);
        for (int v = 0; v < 2; ++v)
          for (int col = 0; col < 4; ++col) shapes.push_back(s[8 * v + col] + s[8 * v + 4 + col]);
        uint32_t q[4];
        for (int v = 0; v < 2; ++v)
          for (int h = 0; h < 2; ++h) {
            const int k = 8 * v + 2 * h;
            q[v * 2 + h] = s[k] + s[k + 1] + s[k + 4] + s[k + 5];
            shapes.push_back(q[v * 2 + h]);
          }
        for (uint32_t x : {q[0] + q[1], q[2] + q[3], q[0] + q[2], q[1] + q[3], q[0] + q[1] + q[2] + q[3]})
          shapes.push_back(x);
        for (long k = 0; k < kShapes; ++k) want[(mb * kShapes + k) * n + pos] = shapes[k];
      }
    return compareWords("sads", mem, want);
  }

 private:
  long mbs() const { return (width_ / 16) * (height_ / 16); }
  long npos() const { return (2 * range_ + 1) * (2 * range_ + 1); }
  // The reference frame: LCG bytes, smoothed over 2 x 2 so that nearby displacements differ
  // gradually; the current frame: the reference displaced by (3, -2), clamped, plus noise in
  // [-4, 4), so that the best match lies near (-3, 2).
  void frames(std::vector<uint32_t>& cur, std::vector<uint32_t>& ref) const {
    uint32_t st = static_cast<uint32_t>(seed_) * 2654435761u;
    auto next = [&] {
      st = st * 1664525u + 1013904223u;  // Numerical Recipes LCG
      return st >> 24;
    };
    std::vector<uint32_t> raw(width_ * height_);
    for (auto& p : raw) p = next();
    ref.assign(width_ * height_, 0);
    for (long y = 0; y < height_; ++y)
      for (long x = 0; x < width_; ++x) {
        const long x1 = std::min(x + 1, width_ - 1), y1 = std::min(y + 1, height_ - 1);
        ref[y * width_ + x] = (raw[y * width_ + x] + raw[y * width_ + x1] + raw[y1 * width_ + x] +
                               raw[y1 * width_ + x1]) / 4;
      }
    cur.assign(width_ * height_, 0);
    for (long y = 0; y < height_; ++y)
      for (long x = 0; x < width_; ++x) {
        const long sx = std::clamp(x - 3, 0L, width_ - 1), sy = std::clamp(y + 2, 0L, height_ - 1);
        const long v = static_cast<long>(ref[sy * width_ + sx]) + static_cast<long>(next() >> 5) - 4;
        cur[y * width_ + x] = static_cast<uint32_t>(std::clamp(v, 0L, 255L));
      }
  }
  long width_, height_, range_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeSad(const Options& o) {
  return std::make_unique<Sad>(o);
}

}  // namespace simtlm::workloads
