#include "model/sm/warp_scheduler.h"

namespace simtlm::sm {
namespace {

class GtoScheduler : public WarpScheduler {
 public:
  explicit GtoScheduler(int n) : age_(static_cast<size_t>(n), 0) {
    for (int i = 0; i < n; ++i) age_[i] = static_cast<uint64_t>(i);
  }
  int pick(const std::vector<bool>& ready) override {
    if (last_ >= 0 && ready[last_]) return last_;
    int best = -1;
    for (int i = 0; i < static_cast<int>(ready.size()); ++i)
      if (ready[i] && (best < 0 || age_[i] < age_[best])) best = i;
    if (best >= 0) last_ = best;
    return best;
  }
  void setAge(int index, uint64_t age) override {
    age_[index] = age;
    if (last_ == index) last_ = -1;
  }

 private:
  std::vector<uint64_t> age_;
  int last_ = -1;
};

class LrrScheduler : public WarpScheduler {
 public:
  explicit LrrScheduler(int n) : n_(n) {}
  int pick(const std::vector<bool>& ready) override {
    for (int k = 1; k <= n_; ++k) {
      int i = (last_ + k) % n_;
      if (ready[i]) {
        last_ = i;
        return i;
      }
    }
    return -1;
  }
  void setAge(int, uint64_t) override {}

 private:
  int n_;
  int last_ = -1;
};

}  // namespace

std::unique_ptr<WarpScheduler> makeScheduler(config::SchedPolicy policy, int numWarps) {
  if (policy == config::SchedPolicy::Gto) return std::make_unique<GtoScheduler>(numWarps);
  return std::make_unique<LrrScheduler>(numWarps);
}

}  // namespace simtlm::sm
