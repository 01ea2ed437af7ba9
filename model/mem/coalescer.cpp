#include "model/mem/coalescer.h"

#include "isa/lane_mask.h"

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
  stats.add("compact_accesses", compactAccesses_, "warp instructions",
            "warp memory instructions whose addresses came as base and stride (not coalesced)");
  stats.add("compact_transactions", compactTransactions_, "transactions",
            "their transactions, generated from base and stride without comparing addresses");
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
  // Above every segment in `out` (lanes in address order, the usual case): a new one, no search.
  std::uint64_t above = 0;
  // Below it, the transaction of a segment is looked up by the segment's number modulo 64 (one
  // access touches at most 64 segments, mostly consecutive ones: collisions are rare), and only
  // on a miss searched for: lanes that come back to their segments (two rows of a 2D block) cost
  // no walk.
  constexpr std::uint8_t kNone = 0xFF;
  std::array<std::uint8_t, 64> where;
  where.fill(kNone);
  const int segShift = __builtin_ctzll(seg);
  // Lane l's bytes [b, e) of segment s.
  const auto add = [&](unsigned l, std::uint64_t s, std::uint32_t b, std::uint32_t e) {
    if (s != current) {
      t = out.size();
      std::uint8_t& w = where[(s >> segShift) & 63];
      if (s < above) {
        if (w != kNone && out[w].address == s)
          t = w;
        else
          for (t = 0; t < out.size() && out[t].address != s;) ++t;
      }
      if (t == out.size()) {
        above = std::max(above, s + 1);
        out.push_back(MemTransaction{s, 0, b, e, 0, false});
        seen[t] = 0;
        if (w == kNone) w = static_cast<std::uint8_t>(t);
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
  const std::uint32_t lanes = mask & isa::fullLaneMask(static_cast<int>(config_.warp_size));
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

void Coalescer::coalesceStrided(std::uint32_t base, std::uint32_t stride, std::uint32_t mask, unsigned size,
                                std::vector<MemTransaction>& out) const {
  if (!isPow2(size) || size > config_.segment_bytes)
    throw std::invalid_argument("Coalescer: access size must be a power of two <= segment");
  out.clear();
  const std::uint32_t lanes = mask & isa::fullLaneMask(static_cast<int>(config_.warp_size));
  if (!lanes) return;
  const std::int64_t s = static_cast<std::int32_t>(stride);
  const auto at = [&](int l) { return std::int64_t{base} + s * l; };  // without the wrap
  const int lo = __builtin_ctz(lanes), hi = 31 - __builtin_clz(lanes);
  const bool wraps = at(lo) < 0 || at(hi) < 0 || at(lo) > 0xFFFFFFFFll || at(hi) > 0xFFFFFFFFll;
  if (wraps || (base | stride) & (size - 1)) {  // rare: lane by lane on the computed addresses
    std::uint64_t address[32] = {};
    for (int l = 0; l < 32; ++l) address[l] = base + stride * static_cast<std::uint32_t>(l);
    return coalesce(address, mask, size, out);
  }
  // Size-aligned, no wrap: each access lies in one segment, lanes touch distinct units (or all
  // the same one at stride 0), and the lanes of a segment are a run of lanes.
  const std::int64_t seg = config_.segment_bytes;
  const auto segmentOf = [&](std::int64_t a) { return a & ~(seg - 1); };
  const auto push = [&](std::int64_t segment, std::uint32_t in, std::int64_t low, std::int64_t high) {
    out.push_back(MemTransaction{static_cast<std::uint64_t>(segment), in, static_cast<std::uint32_t>(low - segment),
                                 static_cast<std::uint32_t>(high - segment + size),
                                 s == 0 ? 1u : static_cast<std::uint32_t>(__builtin_popcount(in)), false});
  };
  const auto upTo = [](std::int64_t l) { return l >= 31 ? ~0u : (2u << l) - 1; };  // lanes 0..l
  if (s == 0) return push(segmentOf(base), lanes, base, base);
  for (std::uint32_t rest = lanes; rest;) {
    if (s > 0) {  // ascending with the lane: the lowest lane left starts the next segment
      const int l = __builtin_ctz(rest);
      const std::int64_t segment = segmentOf(at(l));
      const std::uint32_t in = rest & upTo((segment + seg - 1 - base) / s);
      push(segment, in, at(l), at(31 - __builtin_clz(in)));
      rest &= ~in;
    } else {  // descending: the highest lane left has the lowest address
      const int l = 31 - __builtin_clz(rest);
      const std::int64_t segment = segmentOf(at(l));
      const std::int64_t over = std::int64_t{base} - (segment + seg - 1);  // lanes l' with -s*l' >= over
      const std::int64_t first = over <= 0 ? 0 : (over + (-s) - 1) / (-s);
      const std::uint32_t in = rest & ~(first == 0 ? 0u : upTo(first - 1));
      push(segment, in, at(l), at(__builtin_ctz(in)));
      rest &= ~in;
    }
  }
}

void Coalescer::accept(const std::uint64_t* address, std::uint32_t mask, unsigned size,
                       std::uint64_t tag, std::uint64_t cycle) {
  if (!canAccept()) throw std::logic_error("Coalescer::accept while busy");
  coalesce(address, mask, size, pending_);
  queue(tag, cycle);
  ++accesses_;
  transactions_ += pending_.size();
}

void Coalescer::acceptStrided(std::uint32_t base, std::uint32_t stride, std::uint32_t mask, unsigned size,
                              std::uint64_t tag, std::uint64_t cycle) {
  if (!canAccept()) throw std::logic_error("Coalescer::acceptStrided while busy");
  coalesceStrided(base, stride, mask, size, pending_);
  queue(tag, cycle);
  ++compactAccesses_;
  compactTransactions_ += pending_.size();
}

void Coalescer::queue(std::uint64_t tag, std::uint64_t cycle) {
  if (!pending_.empty()) pending_.back().last = true;
  next_ = 0;
  tag_ = tag;
  accepted_cycle_ = cycle;
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
