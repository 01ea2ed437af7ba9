#include "model/sm/warp_scheduler.h"

#include <algorithm>

namespace simtlm::sm {
namespace {

class GtoScheduler : public WarpScheduler {
 public:
  explicit GtoScheduler(int n)
      : age_(static_cast<size_t>(n), 0), byAge_(static_cast<size_t>(n)), rank_(static_cast<size_t>(n)) {
    for (int i = 0; i < n; ++i) {
      age_[i] = static_cast<uint64_t>(i);
      byAge_[i] = rank_[i] = i;
    }
  }
  int pick(const std::vector<bool>& ready) override { return pickFrom(ready); }
  Priority priority() const override {
    return {last_, byAge_.data(), static_cast<int>(byAge_.size()), rank_.data()};
  }
  void issued(int index) override { last_ = index; }
  void setAge(int index, uint64_t age) override {
    age_[index] = age;
    if (last_ == index) last_ = -1;
    // Ages change when a block is admitted, rarely against the picks of every cycle.
    std::sort(byAge_.begin(), byAge_.end(),
              [this](int a, int b) { return age_[a] != age_[b] ? age_[a] < age_[b] : a < b; });
    for (size_t r = 0; r < byAge_.size(); ++r) rank_[static_cast<size_t>(byAge_[r])] = static_cast<int>(r);
  }

 private:
  // The last warp if it is ready, otherwise the oldest ready one (the lowest index among equal
  // ages): the first ready warp in byAge_.
  template <class Ready>
  int pickFrom(const Ready& ready) {
    if (last_ >= 0 && ready[last_]) return last_;
    for (int i : byAge_)
      if (ready[i]) return last_ = i;
    return -1;
  }

  std::vector<uint64_t> age_;
  std::vector<int> byAge_;  // warp indices, oldest first
  std::vector<int> rank_;   // by warp index: its place in byAge_
  int last_ = -1;
};

class LrrScheduler : public WarpScheduler {
 public:
  explicit LrrScheduler(int n) : n_(n), twice_(static_cast<size_t>(2 * n)) {
    for (int i = 0; i < 2 * n; ++i) twice_[static_cast<size_t>(i)] = i % n;
  }
  int pick(const std::vector<bool>& ready) override { return pickFrom(ready); }
  // The warps after the last one issued, wrapping round: a window of 0, 1, ..., n-1, 0, ..., n-1.
  // Warp i stands at (i - start) mod n, which is twice_[n - start + i].
  Priority priority() const override {
    const int start = (last_ + 1) % n_;
    return {-1, twice_.data() + start, n_, twice_.data() + n_ - start};
  }
  void issued(int index) override { last_ = index; }
  void setAge(int, uint64_t) override {}

 private:
  template <class Ready>
  int pickFrom(const Ready& ready) {
    for (int k = 1; k <= n_; ++k) {
      int i = (last_ + k) % n_;
      if (ready[i]) {
        last_ = i;
        return i;
      }
    }
    return -1;
  }

  int n_;
  std::vector<int> twice_;
  int last_ = -1;
};

}  // namespace

std::unique_ptr<WarpScheduler> makeScheduler(config::SchedPolicy policy, int numWarps) {
  if (policy == config::SchedPolicy::Gto) return std::make_unique<GtoScheduler>(numWarps);
  return std::make_unique<LrrScheduler>(numWarps);
}

}  // namespace simtlm::sm
