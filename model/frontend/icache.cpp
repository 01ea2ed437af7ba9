#include "model/frontend/icache.h"

#include <stdexcept>

namespace simtlm::frontend {

ICache::ICache(const config::GpuConfig::Frontend& cfg, mem::Downstream& memory, stats::Group stats)
    : cfg_(cfg), memory_(memory) {
  const int line = cfg_.icache_line;
  const bool pow2 = line >= 8 && !(line & (line - 1));
  if (!pow2 || cfg_.icache_assoc <= 0 || cfg_.icache_mshrs <= 0 || cfg_.icache_hit_latency < 0 ||
      cfg_.icache_size <= 0 || cfg_.icache_size % (line * cfg_.icache_assoc) != 0)
    throw std::invalid_argument("ICache: icache_line a power of two >= 8, icache_size a multiple "
                                "of icache_line * icache_assoc, icache_mshrs > 0");
  assoc_ = static_cast<unsigned>(cfg_.icache_assoc);
  sets_ = static_cast<unsigned>(cfg_.icache_size / (line * cfg_.icache_assoc));
  while ((1 << lineShift_) < line) ++lineShift_;
  ways_.resize(std::size_t{sets_} * assoc_);
  mshrs_.resize(static_cast<std::size_t>(cfg_.icache_mshrs));
  for (unsigned i = unsigned(mshrs_.size()); i-- > 0;) free_.push_back(i);

  stats.add("accesses", accesses_, "accesses", "instruction fetch accesses (one per warp fetch)");
  stats.add("hits", hits_, "accesses", "fetch accesses that hit");
  stats.add("misses", misses_, "accesses", "fetch accesses that missed (including merged ones)");
  stats.add("merged", merged_, "accesses", "misses merged into the MSHR of a fill in flight");
  stats.add("fills", fills_, "transactions", "line fills sent to memory");
  stats.add("fill_errors", fillErrors_, "transactions", "line fills answered with an error");
  stats.add("mshr_full_stalls", mshrFullStalls_, "cycles",
            "fetches refused because every MSHR was in use");
  stats.addRatio("hit_rate", "hits", "accesses", "ratio", "hits per access");
}

int ICache::find(std::uint64_t line) const {
  const unsigned set = static_cast<unsigned>((line >> lineShift_) % sets_);
  const Way* w = &ways_[std::size_t{set} * assoc_];
  for (unsigned i = 0; i < assoc_; ++i)
    if (w[i].valid && w[i].line == line) return static_cast<int>(set * assoc_ + i);
  return -1;
}

int ICache::openMshr(std::uint64_t line) const {
  for (std::size_t i = 0; i < mshrs_.size(); ++i)
    if (mshrs_[i].busy && !mshrs_[i].stale && mshrs_[i].line == line) return static_cast<int>(i);
  return -1;
}

void ICache::install(std::uint64_t line) {
  if (find(line) >= 0) return;
  const unsigned set = static_cast<unsigned>((line >> lineShift_) % sets_);
  int victim = -1;  // the first invalid way, else the least recently used
  for (unsigned i = 0; i < assoc_; ++i) {
    const int j = static_cast<int>(set * assoc_ + i);
    if (!ways_[j].valid) { victim = j; break; }
    if (victim < 0 || ways_[j].lru < ways_[victim].lru) victim = j;
  }
  ways_[victim] = Way{line, ++clock_, true};
}

bool ICache::canAccept(std::uint64_t address) const {
  if (!free_.empty()) return true;
  const std::uint64_t line = lineOf(address);
  if (find(line) >= 0 || openMshr(line) >= 0) return true;
  ++mshrFullStalls_;
  return false;
}

ICache::Outcome ICache::access(std::uint64_t address, std::uint64_t tag, std::uint64_t,
                               unsigned* wayHint) {
  ++accesses_;
  const std::uint64_t line = lineOf(address);
  int way = -1;
  if (wayHint && *wayHint < ways_.size() && ways_[*wayHint].valid && ways_[*wayHint].line == line)
    way = static_cast<int>(*wayHint);
  else
    way = find(line);
  if (way >= 0) {
    ++hits_;
    ways_[way].lru = ++clock_;
    if (wayHint) *wayHint = static_cast<unsigned>(way);
    return Outcome::Hit;
  }
  ++misses_;
  if (wayHint) *wayHint = kNoWay;
  if (const int m = openMshr(line); m >= 0) {
    ++merged_;
    mshrs_[m].waiters.push_back({tag, address});
    return Outcome::Merged;
  }
  if (free_.empty()) throw std::logic_error("ICache::access: no MSHR free (check canAccept)");
  const unsigned idx = free_.back();
  free_.pop_back();
  Mshr& m = mshrs_[idx];
  m.line = line;
  m.busy = true;
  m.stale = false;
  m.waiters.assign(1, Waiter{tag, address});
  ++fills_;
  // The callback may run before read() returns (or much later): only queue it here.
  memory_.read(line, unsigned(cfg_.icache_line),
               [this, idx](const unsigned char*, bool ok) { arrivals_.push_back({idx, ok}); });
  if (!arrivals_.empty() && arrivals_.back().mshr == idx && arrivals_.back().ok) {
    // Answered inside read(): install now (an error is left to tick(), which reports it).
    arrivals_.pop_back();
    m.busy = false;
    m.waiters.clear();
    free_.push_back(idx);
    install(line);
    if (wayHint) *wayHint = static_cast<unsigned>(find(line));
    return Outcome::Filled;
  }
  return Outcome::Miss;
}

bool ICache::tick(std::uint64_t cycle) {
  if (arrivals_.empty()) return false;
  while (!arrivals_.empty()) {
    const Arrival a = arrivals_.front();
    arrivals_.pop_front();
    Mshr& m = mshrs_[a.mshr];
    std::vector<Waiter> waiters;
    waiters.swap(m.waiters);
    const bool stale = m.stale;
    m.busy = m.stale = false;
    free_.push_back(a.mshr);
    if (!a.ok) ++fillErrors_;
    if (stale) continue;
    if (a.ok) install(m.line);
    if (respond_)
      for (const Waiter& w : waiters) respond_(w.tag, w.address, a.ok, cycle);
  }
  return true;
}

void ICache::invalidate() {
  for (Way& w : ways_) w.valid = false;
  for (Mshr& m : mshrs_)
    if (m.busy) {
      m.stale = true;
      m.waiters.clear();
    }
}

}  // namespace simtlm::frontend
