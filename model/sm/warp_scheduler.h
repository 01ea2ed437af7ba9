// Issue-scheduler policies (DESIGN.md 10: policies are interfaces behind one factory).
// A scheduler owns a static partition of the SM's warps and picks, each cycle, one of the
// warps that can issue.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "model/common/config.h"

namespace simtlm::sm {

class WarpScheduler {
 public:
  virtual ~WarpScheduler() = default;
  // `ready[i]` tells whether warp `warps()[i]` can issue this cycle. Returns the index into
  // warps() of the chosen warp, or -1 when none is ready.
  virtual int pick(const std::vector<bool>& ready) = 0;
  // The order in which to look for a ready warp this cycle, for a caller that stops at the first
  // one it finds: `first` (unless -1), then order[0..n). Call issued() with the warp taken; the
  // result is the same as pick() over the same readiness.
  struct Priority {
    int first;
    const int* order;
    int n;
    const int* position;  // position[i]: where warp i stands in order (order[position[i]] == i)
  };
  virtual Priority priority() const = 0;
  virtual void issued(int index) = 0;
  // The warp at index i was (re)assigned to a new block: `age` orders warps for GTO (smaller =
  // older).
  virtual void setAge(int index, uint64_t age) = 0;
};

// Greedy-then-oldest: keep issuing from the last warp while it can; otherwise the oldest ready.
// Loose round robin: the next ready warp after the last one issued.
std::unique_ptr<WarpScheduler> makeScheduler(config::SchedPolicy policy, int numWarps);

// A policy of the user's own (gpu::Gpu::setSchedulerFactory): scheduler `scheduler` of SM `sm`,
// over `numWarps` warps (warp i of its partition is the SM's warp slot i * schedulers + scheduler).
using SchedulerFactory = std::function<std::unique_ptr<WarpScheduler>(int sm, int scheduler, int numWarps)>;

}  // namespace simtlm::sm
