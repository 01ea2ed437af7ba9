// Connects an SM's global-memory port to the memory system: each warp access is coalesced
// into segment transactions (one handed on per cycle by mem::Coalescer) that go to a
// mem::Downstream (the TLM MemPort in the GPU; a fake in tests). Loads read the touched span of
// each segment, stores write it with byte enables (lanes in lane order, so the highest lane wins
// as in the interpreter), atomics travel with their per-lane operations and are performed at
// memory. Completions from the memory side are recorded and handed to the SM in tick(), so the
// SM sees them in its own cycle order.
#pragma once

#include <deque>
#include <unordered_map>

#include "model/common/stats.h"
#include "model/mem/coalescer.h"
#include "model/mem/downstream.h"
#include "model/sm/sm_core.h"

namespace simtlm::gpu {

class GlobalMemoryAdapter : public sm::GlobalMemoryPort {
 public:
  GlobalMemoryAdapter(mem::Downstream& down, unsigned segmentBytes, unsigned warpSize,
                      int maxOutstanding, stats::Group stats);
  bool canAccept() const override;
  void issue(const sm::GlobalAccess& access, Done done) override;
  void tick(uint64_t cycle) override;
  bool idle() const override { return accesses_.empty() && coalescer_.idle(); }

 private:
  struct Access {
    sm::GlobalAccess a;
    Done done;
    int inFlight = 0;
    bool allSent = false;
    std::array<uint32_t, 32> words{};
    std::string error;
  };
  bool send(const mem::MemTransaction& t, uint64_t tag);
  void finishOne(uint64_t tag, bool ok);

  mem::Downstream& down_;
  mem::Coalescer coalescer_;
  int maxOutstanding_;
  uint64_t nextTag_ = 0, now_ = 0;
  std::unordered_map<uint64_t, Access> accesses_;
  std::deque<uint64_t> finished_;
};

}  // namespace simtlm::gpu
