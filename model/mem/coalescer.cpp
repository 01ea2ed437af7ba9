#include "model/mem/coalescer.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace simtlm::mem {

namespace {
bool isPow2(unsigned x) { return x && !(x & (x - 1)); }
}  // namespace

Coalescer::Coalescer(const Config& config, Issue issue, stats::Group stats)
    : config_(config), issue_(std::move(issue)) {
  if (!isPow2(config_.segment_bytes) || config_.warp_size == 0 || config_.warp_size > 32 ||
      config_.per_cycle == 0)
    throw std::invalid_argument(
        "Coalescer: segment_bytes must be a power of two, warp_size 1..32, per_cycle > 0");
  pending_.reserve(config_.warp_size * 2);
  stats.add("accesses", accesses_, "warp instructions", "warp memory instructions coalesced");
  stats.add("transactions", transactions_, "transactions",
            "memory transactions (one per segment touched per instruction)");
  stats.add("stalls", stalls_, "cycles", "cycles a transaction was refused downstream");
}

void Coalescer::coalesce(const std::uint64_t* address, std::uint32_t mask, unsigned size,
                         std::vector<MemTransaction>& out) const {
  if (!isPow2(size) || size > config_.segment_bytes)
    throw std::invalid_argument("Coalescer: access size must be a power of two <= segment");
  out.clear();
  const std::uint64_t seg = config_.segment_bytes;
  // Per transaction, the units touched: a bitmask when the segment has at most 64 units,
  // otherwise a quadratic de-duplication over the (at most 32) lanes.
  const bool small = seg / size <= 64;
  std::array<std::uint64_t, 64> seen{};  // parallel to out: a lane touches at most 2 segments
  for (unsigned l = 0; l < config_.warp_size; ++l) {
    if (!(mask >> l & 1u)) continue;
    const std::uint64_t first = address[l], last = address[l] + size - 1;
    for (std::uint64_t s = first & ~(seg - 1); s <= last; s += seg) {
      const auto b = static_cast<std::uint32_t>(std::max(first, s) - s);
      const auto e = static_cast<std::uint32_t>(std::min(last, s + seg - 1) - s + 1);
      std::size_t t = 0;
      while (t < out.size() && out[t].address != s) ++t;
      if (t == out.size()) {
        out.push_back(MemTransaction{s, 0, b, e, 0, false});
      }
      MemTransaction& m = out[t];
      m.lanes |= 1u << l;
      m.begin = std::min(m.begin, b);
      m.end = std::max(m.end, e);
      const std::uint32_t unit = b / size;
      if (small) {
        if (!(seen[t] >> unit & 1u)) ++m.units;
        seen[t] |= std::uint64_t{1} << unit;
      } else {
        bool dup = false;
        for (unsigned k = 0; k < l && !dup; ++k)
          if ((m.lanes >> k & 1u) && address[k] >= s && address[k] < s + seg)
            dup = (address[k] - s) / size == unit;
        if (!dup) ++m.units;
      }
    }
  }
  std::sort(out.begin(), out.end(),
            [](const MemTransaction& x, const MemTransaction& y) { return x.address < y.address; });
}

void Coalescer::accept(const std::uint64_t* address, std::uint32_t mask, unsigned size,
                       std::uint64_t tag, std::uint64_t cycle) {
  if (!canAccept()) throw std::logic_error("Coalescer::accept while busy");
  coalesce(address, mask, size, pending_);
  if (!pending_.empty()) pending_.back().last = true;
  next_ = 0;
  tag_ = tag;
  accepted_cycle_ = cycle;
  ++accesses_;
  transactions_ += pending_.size();
}

bool Coalescer::tick(std::uint64_t cycle) {
  if (next_ == pending_.size() || cycle <= accepted_cycle_) return false;
  unsigned sent = 0;
  while (sent < config_.per_cycle && next_ < pending_.size()) {
    if (!issue_(pending_[next_], tag_)) {
      ++stalls_;
      break;
    }
    ++next_;
    ++sent;
  }
  return sent > 0;
}

}  // namespace simtlm::mem
