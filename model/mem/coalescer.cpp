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
  const int unitShift = __builtin_ctz(size);
  // Per transaction, the units touched: a bitmask when the segment has at most 64 units,
  // otherwise a quadratic de-duplication over the (at most 32) lanes.
  const bool small = seg / size <= 64;
  std::array<std::uint64_t, 64> seen;  // parallel to out (a lane touches at most 2 segments)
  // The transaction of the segment used last: neighbouring lanes mostly share a segment.
  std::size_t t = 0;
  std::uint64_t current = ~std::uint64_t{0};  // (never a segment's address)
  // Lane l's bytes [b, e) of segment s.
  const auto add = [&](unsigned l, std::uint64_t s, std::uint32_t b, std::uint32_t e) {
    if (s != current) {
      for (t = 0; t < out.size() && out[t].address != s;) ++t;
      if (t == out.size()) {
        out.push_back(MemTransaction{s, 0, b, e, 0, false});
        seen[t] = 0;
      }
      current = s;
    }
    MemTransaction& m = out[t];
    m.lanes |= 1u << l;
    m.begin = std::min(m.begin, b);
    m.end = std::max(m.end, e);
    const std::uint32_t unit = b >> unitShift;
    if (small) {
      m.units += !(seen[t] >> unit & 1u);
      seen[t] |= std::uint64_t{1} << unit;
    } else {
      bool dup = false;
      for (unsigned k = 0; k < l && !dup; ++k)
        if ((m.lanes >> k & 1u) && address[k] >= s && address[k] < s + seg)
          dup = (address[k] - s) >> unitShift == unit;
      if (!dup) ++m.units;
    }
  };
  const std::uint32_t lanes = mask & (config_.warp_size == 32 ? ~0u : (1u << config_.warp_size) - 1);
  for (std::uint32_t rest = lanes; rest; rest &= rest - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctz(rest));
    const std::uint64_t first = address[l], last = first + size - 1;
    if ((first & (size - 1)) == 0) {  // size-aligned (the usual case): inside one segment
      const std::uint64_t s = first & ~(seg - 1);
      const auto b = static_cast<std::uint32_t>(first - s);
      add(l, s, b, b + size);
      continue;
    }
    for (std::uint64_t s = first & ~(seg - 1); s <= last; s += seg)
      add(l, s, static_cast<std::uint32_t>(std::max(first, s) - s),
          static_cast<std::uint32_t>(std::min(last, s + seg - 1) - s + 1));
  }
  // Lanes in address order (the usual case) leave nothing to sort.
  const auto byAddress = [](const MemTransaction& x, const MemTransaction& y) {
    return x.address < y.address;
  };
  if (!std::is_sorted(out.begin(), out.end(), byAddress)) std::sort(out.begin(), out.end(), byAddress);
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
