// Heart wall tracking (the UV paper's "HT", Table 3, from Rodinia's heartwall): points of the
// inner and outer heart wall tracked across the frames of a synthetic ultrasound sequence by
// normalized cross-correlation with a template (workloads/cuda/heartwall.cu,
// docs/workloads/heartwall.md). One launch per frame, one block of `threads` threads per point.
// The frames are a fixed tissue image (dark blood pool, bright muscle ring between the two
// walls, speckle fixed to the tissue) seen under a periodic radial contraction, plus fresh
// per-frame noise, all from integer hashes of `seed`. verify() tracks every point with the
// kernel's integer sums and its float normalization in the same order and compares the
// positions, scores and templates bit for bit. CUDA-only.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

uint32_t mix(uint32_t x) {  // an integer hash (lowbias32)
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
long floorDiv(long a, long b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

class HeartWall : public Workload {
 public:
  explicit HeartWall(const Options& o)
      : width_(option(o, "width", 128, 16, 1024)),
        height_(option(o, "height", 128, 16, 1024)),
        frames_(option(o, "frames", 4, 1, 64)),
        points_(option(o, "points", 20, 1, 256)),
        tsize_(option(o, "tsize", 4, 1, 5)),
        ssize_(option(o, "ssize", 7, 1, 8)),
        threads_(option(o, "threads", 256, 32, 256)),
        update_(option(o, "update", 2, 0, 64)),
        seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(
        o, {"width", "height", "frames", "points", "tsize", "ssize", "threads", "update", "seed"},
        "heartwall");
    if (threads_ & (threads_ - 1))
      throw std::invalid_argument("heartwall: threads must be a power of two");
    if (std::min(width_, height_) < 2 * margin() + 1)
      throw std::invalid_argument(
          "heartwall: width and height must be at least 2 (ssize + tsize) + 1");
  }
  std::string name() const override { return "heartwall"; }
  std::string description() const override {
    return "heart wall tracking, " + std::to_string(points_) + " points over " +
           std::to_string(frames_) + " frames of " + std::to_string(width_) + " x " +
           std::to_string(height_) + ", " + std::to_string(tside()) + "^2 templates, +-" +
           std::to_string(ssize_) + " search (Rodinia heartwall; CUDA-only)";
  }
  std::vector<CudaKernel> cudaKernels() const override {
    return {{"heartwall.ptx", "heartwall_track"}};
  }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    const uint32_t pixels = static_cast<uint32_t>(width_ * height_);
    mem.allocate("frames", static_cast<uint32_t>(frames_) * pixels * 4);
    mem.allocate("templates", static_cast<uint32_t>(points_ * tside() * tside() * 4));
    mem.allocate("rows", static_cast<uint32_t>(points_ * 4));
    mem.allocate("cols", static_cast<uint32_t>(points_ * 4));
    mem.allocate("track", static_cast<uint32_t>(frames_ * points_ * 8));
    mem.allocate("score", static_cast<uint32_t>(frames_ * points_ * 4));
    mem.setWords("frames", frameData());
    std::vector<uint32_t> r, c;
    for (const auto& [row, col] : initialPoints()) {
      r.push_back(static_cast<uint32_t>(row));
      c.push_back(static_cast<uint32_t>(col));
    }
    mem.setWords("rows", r);
    mem.setWords("cols", c);
    return launch(mem, 0);
  }
  std::vector<Step> launches(isa::GlobalMemory& mem) const override {
    std::vector<Step> steps{Step{0, setup(mem)}};
    for (long f = 1; f < frames_; ++f) steps.push_back(Step{0, launch(mem, f)});
    return steps;
  }

  std::string verify(const isa::GlobalMemory& mem) const override {
    const long n = tside() * tside(), S = ssize_, T = tsize_, side = 2 * S + 1,
               wside = tside() + side - 1;
    const std::vector<uint32_t> fr = frameData();
    std::vector<long> rows, cols;
    for (const auto& [row, col] : initialPoints()) {
      rows.push_back(row);
      cols.push_back(col);
    }
    std::vector<uint32_t> tmpl(points_ * n, 0), track(frames_ * points_ * 2),
        score(frames_ * points_);
    std::vector<int> win(wside * wside), t(n);
    for (long f = 0; f < frames_; ++f)
      for (long pt = 0; pt < points_; ++pt) {
        const long top = rows[pt] - S - T, left = cols[pt] - S - T;
        for (long i = 0; i < wside; ++i)
          for (long j = 0; j < wside; ++j)
            win[i * wside + j] = static_cast<int>(fr[(f * height_ + top + i) * width_ + left + j]);
        int sumT = 0, sqT = 0;
        for (long k = 0; k < n; ++k) {
          t[k] = f == 0 ? win[(S + k / tside()) * wside + S + k % tside()]
                        : static_cast<int>(tmpl[pt * n + k]);
          sumT += t[k];
          sqT += t[k] * t[k];
        }
        const int nn = static_cast<int>(n), varT = nn * sqT - sumT * sumT;
        float best = -3.0f;
        long bestPos = side * side;
        for (long p = 0; p < side * side; ++p) {
          const long dy = p / side, dx = p % side;
          int sumI = 0, sumI2 = 0, sumTI = 0;
          for (long k = 0; k < n; ++k) {
            const int a = win[(dy + k / tside()) * wside + dx + k % tside()];
            sumI += a;
            sumI2 += a * a;
            sumTI += a * t[k];
          }
          const int varI = nn * sumI2 - sumI * sumI, num = nn * sumTI - sumT * sumI;
          float corr = -2.0f;
          if (varI > 0 && varT > 0)
            corr = static_cast<float>(num) /
                   std::sqrt(static_cast<float>(varT) * static_cast<float>(varI));
          if (corr > best) {
            best = corr;
            bestPos = p;
          }
        }
        const long dy = bestPos / side, dx = bestPos % side;
        rows[pt] = std::clamp(rows[pt] + dy - S, margin(), height_ - 1 - margin());
        cols[pt] = std::clamp(cols[pt] + dx - S, margin(), width_ - 1 - margin());
        const long slot = f * points_ + pt;
        track[2 * slot] = static_cast<uint32_t>(rows[pt]);
        track[2 * slot + 1] = static_cast<uint32_t>(cols[pt]);
        score[slot] = isa::U(best);
        if (f == 0 || (update_ > 0 && f % update_ == 0))
          for (long k = 0; k < n; ++k) {
            const int a = win[(dy + k / tside()) * wside + dx + k % tside()];
            tmpl[pt * n + k] = static_cast<uint32_t>(f == 0 ? t[k] : (7 * t[k] + a + 4) >> 3);
          }
      }
    std::vector<uint32_t> rw(rows.begin(), rows.end()), cw(cols.begin(), cols.end());
    std::string e = compareWords("track", mem, track);
    if (e.empty()) e = compareWords("score", mem, score);
    if (e.empty()) e = compareWords("rows", mem, rw);
    if (e.empty()) e = compareWords("cols", mem, cw);
    if (e.empty()) e = compareWords("templates", mem, tmpl);
    return e;
  }

 private:
  long tside() const { return 2 * tsize_ + 1; }
  long margin() const { return ssize_ + tsize_; }
  isa::LaunchConfig launch(const isa::GlobalMemory& mem, long f) const {
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>(points_), 1, 1};
    l.block = {static_cast<uint32_t>(threads_), 1, 1};
    const auto base = [&](const char* b) { return mem.region(b).base; };
    l.params = {base("frames") + static_cast<uint32_t>(f * width_ * height_ * 4),
                base("templates"),
                base("rows"),
                base("cols"),
                base("track"),
                base("score"),
                static_cast<uint32_t>(width_),
                static_cast<uint32_t>(height_),
                static_cast<uint32_t>(tsize_),
                static_cast<uint32_t>(ssize_),
                static_cast<uint32_t>(f),
                static_cast<uint32_t>(update_)};
    return l;
  }
  long cx() const { return width_ / 2; }
  long cy() const { return height_ / 2; }
  long radius(bool outer) const { return std::min(width_, height_) * (outer ? 5 : 3) / 16; }
  // The tissue at (x, y): blood pool inside the inner wall, muscle to the outer wall, then the
  // surroundings, with speckle of 2 x 2 tissue pixels.
  int tissue(long x, long y) const {
    const long dx = x - cx(), dy = y - cy(), r2 = dx * dx + dy * dy;
    const long ri = radius(false), ro = radius(true);
    const int base = r2 < ri * ri ? 40 : r2 < ro * ro ? 150 : 70;
    const uint32_t h =
        mix(static_cast<uint32_t>(seed_) ^ mix(static_cast<uint32_t>(floorDiv(x, 2)) * 73856093u ^
                                               static_cast<uint32_t>(floorDiv(y, 2)) * 19349663u));
    return base + static_cast<int>(h % 64) - 32;
  }
  // Frame f: the tissue under a radial scale of (256 + 6 k) / 256 about the centre, k rising
  // 0, 1, 2, 3 and falling back with period 6 (the wall moves up to about 3 pixels), plus noise.
  std::vector<uint32_t> frameData() const {
    std::vector<uint32_t> out;
    out.reserve(frames_ * width_ * height_);
    for (long f = 0; f < frames_; ++f) {
      const long k = f % 6 <= 3 ? f % 6 : 6 - f % 6, s = 256 + 6 * k;
      for (long y = 0; y < height_; ++y)
        for (long x = 0; x < width_; ++x) {
          const long tx = cx() + floorDiv((x - cx()) * s, 256),
                     ty = cy() + floorDiv((y - cy()) * s, 256);
          const uint32_t h = mix(static_cast<uint32_t>(seed_) * 2654435761u ^
                                 mix(static_cast<uint32_t>((f * height_ + y) * width_ + x)));
          const int v = tissue(tx, ty) + static_cast<int>(h % 16) - 8;
          out.push_back(static_cast<uint32_t>(std::clamp(v, 0, 255)));
        }
    }
    return out;
  }
  // Rodinia's 51 points are 20 on the inner wall and 31 on the outer: the same proportion here,
  // evenly spaced in angle, inside the margin the search window needs.
  std::vector<std::pair<long, long>> initialPoints() const {
    std::vector<std::pair<long, long>> p;
    const long inner = points_ * 20 / 51, outer = points_ - inner;
    const double pi = 3.14159265358979323846;
    for (long k = 0; k < points_; ++k) {
      const bool out = k >= inner;
      const long m = out ? outer : inner, i = out ? k - inner : k;
      const double a =
          2.0 * pi * (static_cast<double>(i) + (out ? 0.5 : 0.0)) / static_cast<double>(m);
      const long r = std::lround(static_cast<double>(radius(out)) * std::sin(a));
      const long c = std::lround(static_cast<double>(radius(out)) * std::cos(a));
      p.emplace_back(std::clamp(cy() + r, margin(), height_ - 1 - margin()),
                     std::clamp(cx() + c, margin(), width_ - 1 - margin()));
    }
    return p;
  }
  long width_, height_, frames_, points_, tsize_, ssize_, threads_, update_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeHeartWall(const Options& o) {
  return std::make_unique<HeartWall>(o);
}

}  // namespace simtlm::workloads
