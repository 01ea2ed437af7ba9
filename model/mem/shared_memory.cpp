#include "model/mem/shared_memory.h"

#include "isa/semantics.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace simtlm::mem {

SharedMemory::SharedMemory(const config::GpuConfig::Shared& cfg, unsigned warp_size,
                           unsigned slots, Respond respond, stats::Group stats)
    : cfg_(cfg), warp_size_(warp_size), respond_(std::move(respond)) {
  if (cfg_.banks <= 0 || cfg_.bank_width <= 0 || cfg_.size < 0 || cfg_.latency < 0 ||
      warp_size_ == 0 || warp_size_ > kMaxLanes)
    throw std::invalid_argument("SharedMemory: banks, bank_width > 0, warp_size 1..32");
  row_ = static_cast<unsigned>(cfg_.banks * cfg_.bank_width);
  laneMask_ = warp_size_ == 32 ? ~0u : (1u << warp_size_) - 1;
  wordBanks_ = cfg_.bank_width % 4 == 0 && cfg_.banks <= 128;
  const auto pow2 = [](unsigned v) { return (v & (v - 1)) == 0; };
  rowShift_ = wordBanks_ && pow2(row_) && pow2(static_cast<unsigned>(cfg_.banks))
                  ? __builtin_ctz(row_)
                  : -1;
  storage_.assign(static_cast<std::size_t>(cfg_.size), 0);
  regions_.resize(slots);
  stats.add("accesses", accesses_, "accesses", "warp shared-memory accesses");
  stats.add("lane_accesses", lane_accesses_, "accesses", "active lanes of those accesses");
  stats.add("bank_conflicts", conflicts_, "conflicts",
            "extra cycles from bank conflicts (degree - 1 per access)");
  stats.add("stalls", stalls_, "cycles", "cycles an access was refused (banks busy)");
}

bool SharedMemory::allocate(unsigned slot, std::uint32_t bytes) {
  if (slot >= regions_.size() || regions_[slot].used)
    throw std::logic_error("SharedMemory::allocate: bad or occupied slot");
  const std::uint64_t need = (std::uint64_t{bytes} + row_ - 1) / row_ * row_;
  std::vector<const Region*> used;
  for (const Region& r : regions_)
    if (r.used) used.push_back(&r);
  std::sort(used.begin(), used.end(), [](auto* x, auto* y) { return x->base < y->base; });
  std::uint64_t base = 0;
  for (const Region* r : used) {
    if (base + need <= r->base) break;
    base = std::max<std::uint64_t>(base, r->base + r->reserved);
  }
  if (base + need > storage_.size()) return false;
  regions_[slot] = Region{true, static_cast<std::uint32_t>(base), bytes,
                          static_cast<std::uint32_t>(need)};
  std::fill_n(storage_.begin() + static_cast<std::ptrdiff_t>(base), bytes, 0);
  return true;
}

void SharedMemory::release(unsigned slot) {
  if (slot >= regions_.size()) throw std::logic_error("SharedMemory::release: bad slot");
  regions_[slot] = Region{};
}

std::uint32_t SharedMemory::freeBytes() const {
  std::uint64_t used = 0;
  for (const Region& r : regions_)
    if (r.used) used += r.reserved;
  return static_cast<std::uint32_t>(storage_.size() - used);
}

unsigned SharedMemory::conflictDegree(const std::uint32_t* address, std::uint32_t mask) const {
  const std::uint32_t lanes = mask & laneMask_;
  return degree(address, lanes, addressBits(address, lanes));
}

SharedMemory::AddressBits SharedMemory::addressBits(const std::uint32_t* address,
                                                    std::uint32_t lanes) const {
  AddressBits bits;
  forEachLane(lanes, [&](unsigned l) {
    bits.any |= address[l];
    bits.all &= address[l];
  });
  return bits;
}

unsigned SharedMemory::degree(const std::uint32_t* address, std::uint32_t lanes,
                              AddressBits bits) const {
  if (lanes == 0) return 0;
  const bool aligned = (bits.any & 3u) == 0;
  // The common conflict-free accesses (consecutive words, a broadcast) stay within one bank
  // row: each distinct word is then in its own bank.
  if (aligned && rowShift_ >= 0 && ((bits.any ^ bits.all) >> rowShift_) == 0) return 1;
  if (aligned && wordBanks_) return wordDegree(address, lanes);
  return generalDegree(address, lanes);
}

// Aligned 4-byte lanes, each in one bank word: per bank, a list of the distinct bank words
// asked for (lanes linked through next[]); the degree is the longest list.
unsigned SharedMemory::wordDegree(const std::uint32_t* address, std::uint32_t lanes) const {
  const auto w = static_cast<unsigned>(cfg_.bank_width);
  const auto banks = static_cast<unsigned>(cfg_.banks);
  std::array<std::int8_t, 128> head;
  std::array<std::int8_t, kMaxLanes> next;
  std::array<std::uint32_t, kMaxLanes> word;
  std::array<std::uint8_t, 128> count;
  std::fill_n(head.begin(), banks, std::int8_t{-1});
  std::fill_n(count.begin(), banks, std::uint8_t{0});
  unsigned degree = 0;
  for (std::uint32_t m = lanes; m; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctz(m));
    const std::uint32_t u = address[l] / w;
    const unsigned b = u % banks;
    int j = head[b];
    while (j >= 0 && word[j] != u) j = next[j];
    if (j >= 0) continue;  // same bank word as an earlier lane: broadcast
    word[l] = u;
    next[l] = head[b];
    head[b] = static_cast<std::int8_t>(l);
    degree = std::max<unsigned>(degree, ++count[b]);
  }
  return degree;
}

// Any bank width and alignment: (bank, bank word) pairs; a 4-byte access spans several banks
// when bank_width < 4 (or is misaligned).
unsigned SharedMemory::generalDegree(const std::uint32_t* address, std::uint32_t lanes) const {
  const auto w = static_cast<unsigned>(cfg_.bank_width);
  const auto banks = static_cast<unsigned>(cfg_.banks);
  std::array<std::pair<unsigned, std::uint32_t>, kMaxLanes * 4> keys;
  unsigned n = 0;
  for (std::uint32_t m = lanes; m; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctz(m));
    for (std::uint32_t u = address[l] / w; u <= (address[l] + 3) / w && n < keys.size(); ++u)
      keys[n++] = {u % banks, u};
  }
  std::sort(keys.begin(), keys.begin() + n);
  unsigned degree = 0, run = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (i > 0 && keys[i] == keys[i - 1]) continue;  // same bank word: broadcast
    run = (i > 0 && keys[i].first == keys[i - 1].first) ? run + 1 : 1;
    degree = std::max(degree, run);
  }
  return degree;
}

// Atomics: every lane is its own read-modify-write (no broadcast), so the degree is the most
// lanes on one bank.
unsigned SharedMemory::atomicDegree(const std::uint32_t* address, std::uint32_t lanes) const {
  const auto w = static_cast<unsigned>(cfg_.bank_width);
  const auto banks = static_cast<unsigned>(cfg_.banks);
  std::array<std::uint8_t, 128> count{};
  unsigned degree = 0;
  for (std::uint32_t m = lanes; m; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctz(m));
    degree = std::max<unsigned>(degree, ++count[(address[l] / w) % banks]);
  }
  return degree;
}

bool SharedMemory::canAccept() const {
  if (now_ >= busy_until_) return true;
  if (last_stall_ != now_) {
    last_stall_ = now_;
    ++stalls_;
  }
  return false;
}

void SharedMemory::accept(const SharedRequest& rq, std::uint64_t cycle) {
  if (cycle < busy_until_) throw std::logic_error("SharedMemory::accept while banks are busy");
  if (rq.slot >= regions_.size() || !regions_[rq.slot].used)
    throw std::logic_error("SharedMemory::accept: slot has no region");
  now_ = std::max(now_, cycle);
  const std::uint32_t lanes = rq.mask & laneMask_;
  const AddressBits bits = addressBits(rq.address.data(), lanes);
  const bool atomic = rq.kind == SharedRequest::Kind::Atomic;
  const unsigned degree = std::max(1u, atomic ? atomicDegree(rq.address.data(), lanes)
                                              : this->degree(rq.address.data(), lanes, bits));
  ++accesses_;
  conflicts_ += degree - 1;
  // An atomic reads and writes its bank word: two bank cycles per lane on the busiest bank.
  const unsigned bankCycles = atomic ? 2 : 1;
  busy_until_ = cycle + bankCycles * degree;

  // Made in place: its data array is not cleared (only the performed lanes are answered).
  Pending& p = pending_.push_back();
  p.ready = cycle + static_cast<std::uint64_t>(atomic ? cfg_.atomic_latency : cfg_.latency) +
            bankCycles * (degree - 1);
  SharedResponse& r = p.response;
  r = SharedResponse{};
  r.tag = rq.tag;
  r.kind = rq.kind;
  r.mask = rq.mask;
  r.degree = degree;
  const Region& reg = regions_[rq.slot];
  // The lanes before the first faulting one (lane order) take effect; the fault ends the access.
  const std::uint32_t bad = faultingLanes(rq.address.data(), lanes, bits, reg.bytes);
  const std::uint32_t performed = bad ? lanes & ((1u << __builtin_ctz(bad)) - 1) : lanes;
  if (bad) {
    const unsigned l = static_cast<unsigned>(__builtin_ctz(bad));
    const std::uint32_t a = rq.address[l];
    r.ok = false;
    r.fault_lane = static_cast<int>(l);
    r.fault_address = a;
    r.error = (a & 3u) ? "misaligned 32-bit access" : "shared memory access out of bounds";
  }
  lane_accesses_ += static_cast<std::uint64_t>(__builtin_popcount(performed));
  perform(rq, performed, storage_.data() + reg.base, p.data.data());
}

// Lanes whose 4-byte access is misaligned or leaves the region's first `bytes` bytes. No lane
// does when the addresses are aligned and even their bitwise OR (at least the largest) fits.
std::uint32_t SharedMemory::faultingLanes(const std::uint32_t* address, std::uint32_t lanes,
                                          AddressBits bits, std::uint32_t bytes) const {
  if ((bits.any & 3u) == 0 && std::uint64_t{bits.any} + 4 <= bytes) return 0;
  std::uint32_t bad = 0;
  for (std::uint32_t m = lanes; m; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctz(m));
    if ((address[l] & 3u) || std::uint64_t{address[l]} + 4 > bytes) bad |= 1u << l;
  }
  return bad;
}

// The lanes' loads, stores or atomics on the region at `region`, in lane order; `old` receives
// each lane's word before the access.
void SharedMemory::perform(const SharedRequest& rq, std::uint32_t lanes, std::uint8_t* region,
                           std::uint32_t* old) const {
  switch (rq.kind) {
    case SharedRequest::Kind::Load:
      forEachLane(lanes, [&](unsigned l) { std::memcpy(&old[l], region + rq.address[l], 4); });
      break;
    case SharedRequest::Kind::Store:
      forEachLane(lanes, [&](unsigned l) {
        std::memcpy(&old[l], region + rq.address[l], 4);
        std::memcpy(region + rq.address[l], &rq.b[l], 4);
      });
      break;
    case SharedRequest::Kind::Atomic:
      forEachLane(lanes, [&](unsigned l) {
        std::memcpy(&old[l], region + rq.address[l], 4);
        const std::uint32_t nw = isa::evalLane(rq.op, old[l], rq.b[l], rq.c[l]);
        std::memcpy(region + rq.address[l], &nw, 4);
      });
      break;
  }
}

void SharedMemory::restart() {
  pending_.clear();  // only a faulted kernel leaves answers undelivered
  now_ = busy_until_ = 0;
  last_stall_ = ~std::uint64_t{0};
}

bool SharedMemory::tick(std::uint64_t cycle) {
  now_ = cycle;
  bool progress = false;
  while (!pending_.empty() && pending_.front().ready <= cycle) {
    // Answered from its slot, which keeps its contents until the next accept() (respond_ must
    // not make one).
    Pending& p = pending_.front();
    pending_.pop_front();
    p.response.data = p.data.data();  // (here: a growing ring moves its slots)
    if (respond_) respond_(p.response);
    progress = true;
  }
  return progress;
}

std::uint32_t SharedMemory::read(unsigned slot, std::uint32_t address) const {
  const Region& r = regions_.at(slot);
  if (!r.used || (address & 3u) || std::uint64_t{address} + 4 > r.bytes)
    throw std::out_of_range("SharedMemory::read");
  std::uint32_t v;
  std::memcpy(&v, &storage_[r.base + address], 4);
  return v;
}

void SharedMemory::write(unsigned slot, std::uint32_t address, std::uint32_t value) {
  const Region& r = regions_.at(slot);
  if (!r.used || (address & 3u) || std::uint64_t{address} + 4 > r.bytes)
    throw std::out_of_range("SharedMemory::write");
  std::memcpy(&storage_[r.base + address], &value, 4);
}

}  // namespace simtlm::mem
