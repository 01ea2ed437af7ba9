// PathFinder, as Rodinia's pathfinder (dynproc_kernel, BLOCK_SIZE 1024 as in DARSIE Table 1
// "PT"): the minimum-cost path down a rows x cols grid of wall costs, one launch per strip of
// `pyramid_height` rows, the launches alternating the two result buffers as src and dst
// (workloads/kernels/pathfinder.s). Wall costs rand() % 10 as Rodinia, from a fixed-seed LCG.
#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr long kBlock = 1024;  // BLOCK_SIZE
constexpr long kHalo = 1;

class Pathfinder : public Workload {
 public:
  explicit Pathfinder(const Options& o)
      : cols_(option(o, "cols", 55104, 1, 1L << 22)),
        rows_(option(o, "rows", 100, 2, 1L << 16)),
        height_(option(o, "pyramid_height", 20, 1, (kBlock / 2 - 1) / kHalo)),
        seed_(option(o, "seed", 9, 0, 0xffffffffL)) {
    rejectUnknown(o, {"cols", "rows", "pyramid_height", "seed"}, "pathfinder");
    if (cols_ * rows_ > (1L << 24))
      throw std::invalid_argument("pathfinder: rows x cols = " + std::to_string(cols_ * rows_) +
                                  " is above 2^24 words");
  }
  std::string name() const override { return "pathfinder"; }
  std::string description() const override {
    return "PathFinder " + std::to_string(rows_) + " rows x " + std::to_string(cols_) + " cols, pyramid height " +
           std::to_string(height_) + ": " + std::to_string(numLaunches()) + " launches of " +
           std::to_string(blockCols()) + " blocks of 1024 (Rodinia dynproc_kernel)";
  }
  std::string kernelFile() const override { return "pathfinder.s"; }
  std::vector<CudaKernel> cudaKernels() const override { return {{"pathfinder.ptx", "pathfinder"}}; }

  // Rodinia's buffers: gpuWall holds wall rows 1..rows-1, gpuResult[0] starts as wall row 0,
  // gpuResult[1] is scratch. Returns the first strip's launch (t = 0).
  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    const uint32_t rowBytes = static_cast<uint32_t>(cols_ * 4);
    uint32_t wallAddr = mem.allocate("wall", rowBytes * static_cast<uint32_t>(rows_ - 1));
    uint32_t r0 = mem.allocate("result0", rowBytes);
    uint32_t r1 = mem.allocate("result1", rowBytes);
    Wall w(seed_);  // row 0 into result0, rows 1.. into wall, in place
    fillWords(mem, "result0", [&](size_t) { return w.next(); });
    fillWords(mem, "wall", [&](size_t) { return w.next(); });
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>(blockCols()), 1, 1};
    l.block = {kBlock, 1, 1};
    // dynproc_kernel(iteration, gpuWall, gpuSrc, gpuResults, cols, rows, startStep, border)
    l.params = {0, wallAddr, r0, r1, static_cast<uint32_t>(cols_), static_cast<uint32_t>(rows_), 0,
                static_cast<uint32_t>(height_ * kHalo)};
    return strip(l, 0, r0, r1);
  }

  // calc_path: for (t = 0; t < rows-1; t += pyramid_height) swap src and dst, then launch
  // MIN(pyramid_height, rows-t-1) iterations from row t; the first launch reads gpuResult[0].
  std::vector<Step> launches(isa::GlobalMemory& mem) const override {
    const isa::LaunchConfig first = setup(mem);
    const uint32_t r0 = first.params[2], r1 = first.params[3];
    std::vector<Step> steps;
    long n = 0;
    for (long t = 0; t < rows_ - 1; t += height_, ++n)
      steps.push_back(Step{0, strip(first, t, n % 2 ? r1 : r0, n % 2 ? r0 : r1)});
    return steps;
  }

  // Rodinia's CPU dynamic program: dst[j] = wall[r][j] + min(src[j-1], src[j], src[j+1]) with
  // the missing neighbours at the edges left out. The last launch's dst holds the final row;
  // the other buffer the row the last launch started from (its src).
  std::string verify(const isa::GlobalMemory& mem) const override {
    Wall w(seed_);  // the rows in order, one at a time
    std::vector<int32_t> cur(cols_), next(cols_), before;
    for (long j = 0; j < cols_; ++j) cur[j] = static_cast<int32_t>(w.next());
    long t = 0;
    for (; t < rows_ - 1; t += height_) {
      before = cur;
      for (long r = t + 1; r <= std::min(t + height_, rows_ - 1); ++r) {
        for (long j = 0; j < cols_; ++j) {
          int32_t m = cur[j];
          if (j > 0) m = std::min(m, cur[j - 1]);
          if (j < cols_ - 1) m = std::min(m, cur[j + 1]);
          next[j] = static_cast<int32_t>(w.next()) + m;
        }
        cur.swap(next);
      }
    }
    const bool odd = numLaunches() % 2 == 1;
    std::vector<uint32_t> fin(cur.begin(), cur.end()), prev(before.begin(), before.end());
    return compareWords(odd ? "result1" : "result0", mem, fin) +
           compareWords(odd ? "result0" : "result1", mem, prev);
  }

 private:
  long numLaunches() const { return (rows_ - 1 + height_ - 1) / height_; }
  // Rodinia: smallBlockCol = BLOCK_SIZE - pyramid_height*HALO*2, blockCols = ceil(cols / it).
  long blockCols() const {
    const long small = kBlock - height_ * kHalo * 2;
    return (cols_ + small - 1) / small;
  }
  isa::LaunchConfig strip(isa::LaunchConfig l, long t, uint32_t src, uint32_t dst) const {
    l.params[0] = static_cast<uint32_t>(std::min(height_, rows_ - t - 1));  // iteration
    l.params[2] = src;
    l.params[3] = dst;
    l.params[6] = static_cast<uint32_t>(t);  // startStep
    return l;
  }
  // wall[i][j] = rand() % 10 as Rodinia, from the Numerical Recipes LCG: the words in row-major
  // order, one at a time (the wall is the workload's largest buffer: never a copy of it whole).
  struct Wall {
    explicit Wall(long seed) : s(static_cast<uint32_t>(seed)) {}
    uint32_t next() {
      s = s * 1664525u + 1013904223u;
      return (s >> 8) % 10;
    }
    uint32_t s;
  };
  long cols_, rows_, height_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makePathfinder(const Options& o) { return std::make_unique<Pathfinder>(o); }

}  // namespace simtlm::workloads
