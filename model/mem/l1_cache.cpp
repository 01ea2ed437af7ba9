#include "model/mem/l1_cache.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace simtlm::mem {

L1Cache::L1Cache(const config::GpuConfig::L1& cfg, Downstream& memory, Respond respond,
                 stats::Group stats)
    : cfg_(cfg), memory_(memory), respond_(std::move(respond)) {
  const bool pow2 = cfg_.line >= 4 && !(cfg_.line & (cfg_.line - 1));
  if (!pow2 || cfg_.assoc <= 0 || cfg_.mshrs <= 0 || cfg_.mshr_merge <= 0 ||
      cfg_.hit_latency < 0 || cfg_.size <= 0 || cfg_.size % (cfg_.line * cfg_.assoc) != 0)
    throw std::invalid_argument("L1Cache: line a power of two >= 4, size a multiple of "
                                "line * assoc, mshrs and mshr_merge > 0");
  sets_ = static_cast<unsigned>(cfg_.size / (cfg_.line * cfg_.assoc));
  words_ = static_cast<unsigned>(cfg_.line / 4);
  ways_.resize(std::size_t{sets_} * cfg_.assoc);
  data_.assign(ways_.size() * words_, 0);
  mshrs_.resize(cfg_.mshrs);
  for (unsigned i = static_cast<unsigned>(cfg_.mshrs); i-- > 0;) free_.push_back(i);

  stats.add("accesses", accesses_, "accesses", "requests accepted (loads, stores, atomics)");
  stats.add("loads", loads_, "accesses", "line loads");
  stats.add("hits", hits_n_, "accesses", "loads that hit");
  stats.add("misses", misses_, "accesses", "loads that missed (including MSHR merges)");
  stats.add("mshr_merges", merges_, "accesses", "missing loads merged into an MSHR in flight");
  stats.add("stores", stores_, "accesses", "stores (written through)");
  stats.add("atomics", atomics_, "accesses", "atomics (performed at memory)");
  stats.add("stalls", stalls_, "cycles", "cycles a request was refused (MSHRs full)");
  stats.add("transactions", transactions_, "transactions", "memory requests sent");
  stats.addRatio("hit_rate", "hits", "loads", "ratio", "hits per load");
}

int L1Cache::find(std::uint64_t line) const {
  const auto it = wayOf_.find(line);
  return it == wayOf_.end() ? -1 : it->second;
}

void L1Cache::install(std::uint64_t line, const std::uint32_t* words) {
  int i = find(line);
  if (i < 0) {  // the first invalid way, else the least recently used
    const unsigned set = static_cast<unsigned>((line / cfg_.line) % sets_);
    for (unsigned w = 0; w < unsigned(cfg_.assoc); ++w) {
      const int j = static_cast<int>(set * cfg_.assoc + w);
      if (ways_[j].line == Way::kNoLine) { i = j; break; }
      if (i < 0 || ways_[j].lru < ways_[i].lru) i = j;
    }
  }
  if (ways_[i].line != line) {
    if (ways_[i].line != Way::kNoLine) wayOf_.erase(ways_[i].line);
    wayOf_[line] = i;
  }
  ways_[i] = Way{line, ++clock_};
  std::memcpy(&data_[std::size_t(i) * words_], words, words_ * 4);
}

void L1Cache::stall() const {
  if (last_stall_ == now_) return;
  last_stall_ = now_;
  ++stalls_;
}

bool L1Cache::canAccept() const {
  if (!free_.empty()) return true;
  stall();
  return false;
}

bool L1Cache::canAccept(const L1Request& r) const {
  if (!free_.empty() || r.kind != L1Request::Kind::Load) return true;
  const std::uint64_t line = lineOf(r.address);
  if (find(line) >= 0) return true;
  auto range = open_.equal_range(line);
  for (auto it = range.first; it != range.second; ++it)
    if (mshrs_[it->second].waiters.size() < unsigned(cfg_.mshr_merge)) return true;
  stall();
  return false;
}

void L1Cache::writeLines(const L1Request& r, bool invalidate) {
  // Words of one line come one after another: its lookups are done once per run of them.
  std::uint64_t lastLine = ~std::uint64_t{0};
  int i = -1;
  for (unsigned k = 0; k < r.ops.count; ++k) {
    const std::uint64_t a = r.address + r.ops[k].offset, line = lineOf(a);
    if (line != lastLine) {
      lastLine = line;
      // Fills in flight for this line are older than this write: never install them.
      auto range = open_.equal_range(line);
      for (auto it = range.first; it != range.second; ++it) mshrs_[it->second].stale = true;
      open_.erase(line);
      i = find(line);
    }
    if (i < 0) continue;
    if (invalidate) {
      wayOf_.erase(line);
      ways_[i].line = Way::kNoLine;
      i = -1;  // (the line's later words find it gone)
    } else {
      ways_[i].lru = ++clock_;
      data_[std::size_t(i) * words_ + (a - line) / 4] = r.ops[k].b;
    }
  }
}

void L1Cache::invalidateLine(std::uint64_t address) {
  if (wayOf_.empty() && open_.empty()) return;  // (the common case: nothing cached)
  const std::uint64_t line = lineOf(address);
  auto range = open_.equal_range(line);
  for (auto it = range.first; it != range.second; ++it) mshrs_[it->second].stale = true;
  open_.erase(line);
  if (const int i = find(line); i >= 0) {
    wayOf_.erase(line);
    ways_[i].line = Way::kNoLine;
  }
}

void L1Cache::accept(const L1Request& r, std::uint64_t cycle) {
  now_ = std::max(now_, cycle);
  ++accesses_;
  const std::uint64_t release = cycle + static_cast<std::uint64_t>(cfg_.hit_latency);
  if (r.kind != L1Request::Kind::Load) {
    ++(r.kind == L1Request::Kind::Store ? stores_ : atomics_);
    writeLines(r, r.kind == L1Request::Kind::Atomic);
    outgoing_.push_back(Outgoing{release, r, 0});
    ++outstanding_;
    return;
  }
  ++loads_;
  const std::uint64_t line = lineOf(r.address);
  if (const int i = find(line); i >= 0) {
    ++hits_n_;
    ways_[i].lru = ++clock_;
    const std::uint32_t* w = &data_[std::size_t(i) * words_];
    Hit& h = hits_.push_back();
    h.ready = release;
    h.tag = r.tag;
    h.line = line;
    h.words.assign(w, w + words_);
    return;
  }
  ++misses_;
  auto range = open_.equal_range(line);
  for (auto it = range.first; it != range.second; ++it) {
    Mshr& m = mshrs_[it->second];
    if (m.waiters.size() < unsigned(cfg_.mshr_merge)) {
      m.waiters.push_back(r.tag);
      ++merges_;
      return;
    }
  }
  if (free_.empty()) throw std::logic_error("L1Cache::accept: no MSHR free (check canAccept)");
  const unsigned idx = free_.back();
  free_.pop_back();
  Mshr& m = mshrs_[idx];
  m.line = line;
  m.stale = false;
  m.waiters.assign(1, r.tag);
  if (cfg_.enabled) open_.emplace(line, idx);
  outgoing_.push_back(Outgoing{release, r, idx});
}

void L1Cache::send(const Outgoing& o) {
  ++transactions_;
  const L1Request& r = o.request;
  if (r.kind == L1Request::Kind::Load) {
    const std::uint64_t line = mshrs_[o.mshr].line;
    const unsigned idx = o.mshr;
    memory_.read(line, unsigned(cfg_.line), [this, idx, line](const unsigned char* d, bool ok) {
      arrive(Arrival{L1Request::Kind::Load, idx, 0, line, words_, ok,
                     ok ? std::vector<unsigned char>(d, d + words_ * 4)
                        : std::vector<unsigned char>(words_ * 4, 0)});
    });
    return;
  }
  if (r.kind == L1Request::Kind::Atomic) {
    memory_.atomic(r.address, r.op, r.ops, [this, r](const unsigned char* d, bool ok) {
      const unsigned n = r.ops.count * 4;
      arrive(Arrival{L1Request::Kind::Atomic, 0, r.tag, r.address, r.ops.count, ok,
                     ok ? std::vector<unsigned char>(d, d + n) : std::vector<unsigned char>(n, 0)});
    });
    return;
  }
  // Store: one write over the span of its words; byte enables mark the words written.
  std::uint32_t lo = ~0u, hi = 0;
  for (unsigned k = 0; k < r.ops.count; ++k) {
    lo = std::min(lo, r.ops[k].offset);
    hi = std::max(hi, r.ops[k].offset + 4);
  }
  if (r.ops.count == 0) lo = hi = 0;
  const unsigned n = hi - lo;
  std::vector<unsigned char> data(n, 0), be(n, TLM_BYTE_DISABLED);
  for (unsigned k = 0; k < r.ops.count; ++k) {  // lane order: later lanes win
    std::memcpy(&data[r.ops[k].offset - lo], &r.ops[k].b, 4);
    std::fill_n(&be[r.ops[k].offset - lo], 4, TLM_BYTE_ENABLED);
  }
  const std::uint64_t tag = r.tag, address = r.address;
  auto done = [this, tag, address](const unsigned char*, bool ok) {
    arrive(Arrival{L1Request::Kind::Store, 0, tag, address, 0, ok, {}});
  };
  if (n == 0) {
    done(nullptr, true);
    return;
  }
  memory_.write(r.address + lo, data.data(), be.data(), n, std::move(done));
}

void L1Cache::arrive(Arrival a) {
  arrivals_.push_back(std::move(a));
  if (wakeup_) wakeup_();
}

bool L1Cache::tick(std::uint64_t cycle) {
  now_ = std::max(now_, cycle);
  bool progress = false;
  while (!arrivals_.empty()) {
    Arrival a = std::move(arrivals_.front());
    arrivals_.pop_front();
    progress = true;
    const auto* words = reinterpret_cast<const std::uint32_t*>(a.data.data());
    if (a.kind != L1Request::Kind::Load) {
      --outstanding_;
      if (respond_) respond_(L1Response{a.tag, a.kind, a.address, words, a.count, false, a.ok});
      continue;
    }
    Mshr& m = mshrs_[a.mshr];
    std::vector<std::uint64_t> waiters;
    waiters.swap(m.waiters);
    if (!m.stale) {
      auto range = open_.equal_range(m.line);
      for (auto it = range.first; it != range.second; ++it)
        if (it->second == a.mshr) { open_.erase(it); break; }
      if (a.ok && cfg_.enabled) install(m.line, words);
    }
    free_.push_back(a.mshr);
    for (std::uint64_t tag : waiters)
      if (respond_) respond_(L1Response{tag, a.kind, a.address, words, a.count, false, a.ok});
  }
  while (!hits_.empty() && hits_.front().ready <= cycle) {
    const Hit& h = hits_.front();
    hits_.pop_front();  // (its slot stays as it is until the next push: respond_ makes none)
    progress = true;
    if (respond_) respond_(L1Response{h.tag, L1Request::Kind::Load, h.line, h.words.data(),
                                      words_, true, true});
  }
  if (!outgoing_.empty() && outgoing_.front().release <= cycle && last_send_ != cycle) {
    last_send_ = cycle;
    send(outgoing_.front());  // (not copied: send() adds nothing to outgoing_)
    outgoing_.pop_front();
    progress = true;
  }
  return progress;
}

bool L1Cache::idle() const {
  return hits_.empty() && outgoing_.empty() && arrivals_.empty() && outstanding_ == 0 &&
         free_.size() == unsigned(cfg_.mshrs);
}

void L1Cache::reset() {
  if (!idle()) throw std::logic_error("L1Cache::reset while requests are in flight");
  for (Way& w : ways_) w = Way{};
  wayOf_.clear();
  open_.clear();
  now_ = 0;
  last_send_ = last_stall_ = std::numeric_limits<std::uint64_t>::max();
}

std::uint64_t L1Cache::nextEventCycle() const {
  if (!arrivals_.empty()) return now_;
  std::uint64_t t = std::numeric_limits<std::uint64_t>::max();
  if (!hits_.empty()) t = hits_.front().ready;
  if (!outgoing_.empty()) t = std::min(t, std::max(outgoing_.front().release, last_send_ + 1));
  return t;
}

}  // namespace simtlm::mem
