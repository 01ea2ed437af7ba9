// N-Queens (the UV paper's "NQU", Table 3, GPGPU-Sim's ISPASS-2009 set), a bitmask
// backtracking solver (workloads/cuda/nqueens.cu, docs/workloads/nqueens.md): the host places
// queens on the first `prefix` rows of an n x n board in every legal way; each of those partial
// boards is one thread, which counts its completions; blocks of 64 threads write their sums.
// The total over all blocks is the number of solutions (724 for n = 10). CUDA-only.
#include <functional>
#include <stdexcept>

#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr long kBlock = 64, kMaxLevels = 12;  // the kernel's BLOCK and MAX_LEVELS

// A partial board: occupied columns and the two diagonals' attacks on the next row.
struct Board {
  uint32_t cols, left, right;
};

class NQueens : public Workload {
 public:
  explicit NQueens(const Options& o)
      : n_(option(o, "n", 10, 4, 16)), prefix_(option(o, "prefix", 3, 1, 15)) {
    rejectUnknown(o, {"n", "prefix"}, "nqueens");
    if (prefix_ >= n_ || n_ - prefix_ > kMaxLevels)
      throw std::invalid_argument("option prefix = " + std::to_string(prefix_) +
                                  " must leave 1 to " + std::to_string(kMaxLevels) +
                                  " rows of the " + std::to_string(n_) + " to each thread");
  }
  std::string name() const override { return "nqueens"; }
  std::string description() const override {
    return std::to_string(n_) + "-queens, " + std::to_string(prefixes().size()) +
           " partial boards of " + std::to_string(prefix_) +
           " rows, one per thread, blocks of 64 (ISPASS-2009 NQU; CUDA-only)";
  }
  std::vector<CudaKernel> cudaKernels() const override { return {{"nqueens.ptx", "nqueen"}}; }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    const auto boards = prefixes();
    const uint32_t bytes = static_cast<uint32_t>(boards.size() * 4);
    const uint32_t blocks = static_cast<uint32_t>((boards.size() + kBlock - 1) / kBlock);
    uint32_t total = mem.allocate("total", blocks * 4);
    uint32_t cols = mem.allocate("cols", bytes), left = mem.allocate("left", bytes),
             right = mem.allocate("right", bytes);
    std::vector<uint32_t> c, l, r;
    for (const auto& b : boards) {
      c.push_back(b.cols);
      l.push_back(b.left);
      r.push_back(b.right);
    }
    mem.setWords("cols", c);
    mem.setWords("left", l);
    mem.setWords("right", r);
    isa::LaunchConfig launch;
    launch.grid = {blocks, 1, 1};
    launch.block = {kBlock, 1, 1};
    launch.params = {total,
                     cols,
                     left,
                     right,
                     static_cast<uint32_t>(boards.size()),
                     static_cast<uint32_t>(n_ - prefix_),
                     all()};
    return launch;
  }

  std::string verify(const isa::GlobalMemory& mem) const override {
    const auto boards = prefixes();
    std::vector<uint32_t> want((boards.size() + kBlock - 1) / kBlock, 0);
    for (size_t i = 0; i < boards.size(); ++i)
      want[i / kBlock] += completions(boards[i], n_ - prefix_);
    return compareWords("total", mem, want);
  }

 private:
  uint32_t all() const { return (1u << n_) - 1; }
  // Every legal placement of the first prefix_ rows, columns in increasing order, row by row.
  std::vector<Board> prefixes() const {
    std::vector<Board> out;
    std::function<void(Board, long)> place = [&](Board b, long row) {
      if (row == prefix_) {
        out.push_back(b);
        return;
      }
      for (uint32_t bit = 1; bit & all(); bit <<= 1)
        if (!((b.cols | b.left | b.right) & bit))
          place({b.cols | bit, (b.left | bit) << 1, (b.right | bit) >> 1}, row + 1);
    };
    place({0, 0, 0}, 0);
    return out;
  }
  uint32_t completions(Board b, long rows) const {
    uint32_t n = 0;
    for (uint32_t bit = 1; bit & all(); bit <<= 1) {
      if ((b.cols | b.left | b.right) & bit) continue;
      n += rows == 1
               ? 1
               : completions({b.cols | bit, (b.left | bit) << 1, (b.right | bit) >> 1}, rows - 1);
    }
    return n;
  }
  long n_, prefix_;
};

}  // namespace

std::unique_ptr<Workload> makeNQueens(const Options& o) {
  return std::make_unique<NQueens>(o);
}

}  // namespace simtlm::workloads
