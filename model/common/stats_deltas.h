// What the counters of a statistics registry gained in each period of a run (a period is one
// kernel launch: the per-launch statistics), kept as the counters that changed.
//
// A registry of a large machine has thousands of counters and a run may have hundreds of
// launches; most counters do not move in a launch (a launch uses a few SMs' worth of units, a
// mechanism's rare events stay at zero). Memory grows with what changed, not with
// launches x counters: each period stores (counter, increase) pairs for the counters that moved.
// Reading a period back gives the same flat map a snapshot difference would.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/common/stats.h"

namespace simtlm::stats {

class Deltas {
 public:
  // Starts the first period at the registry's current values.
  void start(const Registry& r);
  // Ends a period: records each counter's increase since the previous mark (or start). Entries
  // added to the registry since (a rebuild) count from zero.
  void mark(const Registry& r);

  size_t periods() const { return begin_.size(); }
  // Period `p` as {"name": increase}. With `zeros`, every counter registered when the period
  // ended, those that did not move included (a snapshot difference); otherwise only those that
  // moved. `keep` (optional) chooses names.
  nlohmann::json toJson(size_t p, bool zeros, const std::function<bool(const std::string&)>& keep = nullptr) const;
  // The increase of counter `name` in period `p` (0 when it did not move or does not exist).
  uint64_t value(size_t p, const std::string& name) const;
  // Counters that moved in period `p`.
  size_t changed(size_t p) const { return end(p) - begin_[p]; }

 private:
  size_t end(size_t p) const { return p + 1 < begin_.size() ? begin_[p + 1] : index_.size(); }
  void follow(const Registry& r);  // names_ and counter_ for entries registered since

  std::vector<std::string> names_;  // every registry entry, in registration order
  std::vector<bool> counter_;       // the entry is a counter (not a derived value)
  std::vector<uint64_t> last_;      // counter values at the last mark
  std::vector<uint32_t> entries_;   // entries registered when each period ended
  std::vector<uint32_t> begin_;     // each period's first pair in index_ / delta_
  std::vector<uint32_t> index_;     // (entry, increase) pairs, in entry order within a period
  std::vector<uint64_t> delta_;
};

}  // namespace simtlm::stats
