#include "model/gpu/global_memory_adapter.h"

#include "model/common/log.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace simtlm::gpu {

namespace {

// The L1 always caches what it is sent: with l1.enabled false it is sent ld.global.nc only.
config::GpuConfig::L1 l1Config(const config::GpuConfig& cfg) {
  config::GpuConfig::L1 c = cfg.l1;
  c.enabled = true;
  c.hit_latency = sm::memoryUnitLatency(c.hit_latency);  // load-to-use (global_access.h)
  return c;
}

// The constant cache as a cache of the L1's shape: its line is the coalescer's segment.
config::GpuConfig::L1 constCacheConfig(const config::GpuConfig& cfg) {
  const auto& k = cfg.const_cache;
  return {true, k.size, cfg.l1.line, k.assoc, 1, k.mshrs, k.mshr_merge, sm::memoryUnitLatency(k.hit_latency)};
}

// Where lane l's word lies in a transaction's bytes [from, from + span). A lane the transaction
// serves lies inside it, unless a compact address (base + stride x lane) is inconsistent with
// the transactions generated from it: a model error, never silently a word from elsewhere.
uint32_t wordOffset(const sm::GlobalAccess& a, int l, uint64_t from, uint64_t span) {
  const uint64_t address = a.address(l);
  if (address < from || address - from + 4 > span)
    throw std::logic_error("GlobalMemoryAdapter: lane " + std::to_string(l) + "'s word lies outside its transaction");
  return static_cast<uint32_t>(address - from);
}

}  // namespace

GlobalMemoryAdapter::GlobalMemoryAdapter(mem::Downstream& down, const config::GpuConfig& cfg,
                                         int maxOutstanding, stats::Registry& stats,
                                         const std::string& prefix)
    : down_(down),
      log_(log::get("gpu." + prefix + ".ldst")),
      coalescer_({static_cast<unsigned>(cfg.l1.line), static_cast<unsigned>(cfg.gpu.warp_size), 1},
                 [this](const mem::MemTransaction& t, uint64_t tag) { return route(t, tag); },
                 stats::Group(stats, prefix + ".coalescer")),
      l1Enabled_(cfg.l1.enabled),
      l1_(l1Config(cfg), down_, [this](const mem::L1Response& r) { cacheDone(r); },
          stats::Group(stats, prefix + ".l1")),
      constCache_(constCacheConfig(cfg), down_, [this](const mem::L1Response& r) { cacheDone(r); },
                  stats::Group(stats, prefix + ".const_cache")),
      lineMask_(~static_cast<uint64_t>(cfg.l1.line - 1)),
      maxOutstanding_(maxOutstanding),
      bypassLatency_(static_cast<uint64_t>(l1Config(cfg).hit_latency)) {}

void GlobalMemoryAdapter::startKernel(uint64_t cycle) {
  now_ = 0;
  kernelStart_ = cycle;
  acceptVersion_++;
  // Idle: a kernel that faulted had its adapters rebuilt (Gpu::release).
  if (l1_.idle()) l1_.reset();
  if (constCache_.idle()) constCache_.reset();
}

uint64_t GlobalMemoryAdapter::newAccess() {
  const uint32_t tag = accesses_.acquire();
  Access& acc = accesses_[tag];
  acc.inFlight = 0;  // as a new one
  acc.allSent = acc.bypassed = false;
  acc.words = {};
  acc.error.clear();
  return tag;
}

uint32_t GlobalMemoryAdapter::newSent(const Sent& s) {
  const uint32_t i = sent_.acquire();
  sent_[i] = s;
  return i;
}

void GlobalMemoryAdapter::issue(const sm::GlobalRequest& request) {
  const uint64_t tag = newAccess();
  Access& acc = access(tag);
  acc.a = request.access;
  acc.id = request.id;
  const sm::GlobalAccess& a = acc.a;
  if (log_.should_log(spdlog::level::trace))
    log_.trace("cycle {}: access {} accepted: {} of {} lanes", now_ > kernelStart_ ? now_ - kernelStart_ : 0, request.id, isa::info(a.op).name,
               __builtin_popcount(a.mask));
  if (a.mask == 0) {  // nothing to access: completes at once
    acc.allSent = true;
    finished_.push_back(tag);
    return;
  }
  if (a.compact.valid) {  // transactions from base and stride, no address compared
    coalescer_.acceptStrided(a.compact.base, a.compact.stride, a.mask, 4, tag, now_);
    return;
  }
  uint64_t addr[32];
  for (int l = 0; l < 32; ++l) addr[l] = a.addr[l];
  coalescer_.accept(addr, a.mask, 4, tag, now_);
}

bool GlobalMemoryAdapter::route(const mem::MemTransaction& t, uint64_t tag) {
  Access& acc = access(tag);
  switch (isa::loadPath(acc.a.op)) {
    case isa::LoadPath::Constant: return sendToCache(constCache_, t, tag, acc);
    case isa::LoadPath::ReadOnly: return sendToCache(l1_, t, tag, acc);
    case isa::LoadPath::Data: break;
  }
  if (isa::info(acc.a.op).format != isa::Format::Load) {  // a write: no cache keeps an older copy
    constCache_.invalidateLine(t.address);
    if (l1Enabled_) return sendToCache(l1_, t, tag, acc);  // (written through there)
    l1_.invalidateLine(t.address);
    return send(t, tag, acc);
  }
  return l1Enabled_ ? sendToCache(l1_, t, tag, acc) : send(t, tag, acc);
}

bool GlobalMemoryAdapter::send(const mem::MemTransaction& t, uint64_t tag, Access& acc) {
  const sm::GlobalAccess& a = acc.a;
  const uint64_t base = t.address + t.begin;
  const unsigned size = t.end - t.begin;
  const isa::Format f = isa::info(a.op).format;
  acc.inFlight++;
  acc.bypassed = true;
  if (t.last) acc.allSent = true;
  if (f == isa::Format::Load) {
    down_.readTo(base, size, *this, newSent({static_cast<uint32_t>(tag), t.lanes, base, size}));
  } else if (f == isa::Format::Store) {
    storeData_.assign(size, 0);
    storeEnable_.assign(size, 0);
    for (int l = 0; l < 32; ++l) {
      if (!(t.lanes >> l & 1u)) continue;
      const uint32_t off = wordOffset(a, l, base, size);
      std::memcpy(&storeData_[off], &a.data[l], 4);
      std::memset(&storeEnable_[off], 0xFF, 4);
    }
    down_.write(base, storeData_.data(), storeEnable_.data(), size,  // (copied by the downstream)
                [this, tag](const unsigned char*, bool ok) { finishOne(tag, ok); });
  } else {  // atomics: the lanes' operations in lane order, performed at memory
    mem::WordOps ops;
    for (int l = 0; l < 32; ++l)
      if (t.lanes >> l & 1u) ops.push(static_cast<uint32_t>(a.addr[l] - base), a.data[l], a.data2[l]);
    const uint32_t i = newSent({static_cast<uint32_t>(tag), t.lanes, base, 0});
    down_.atomic(base, a.op, ops, [this, i](const unsigned char* old, bool ok) {
      const Sent s = sent_[i];
      sent_.release(i);
      Access& x = access(s.tag);
      if (ok) {  // one old word per op: the lanes in lane order
        unsigned n = 0;
        for (int l = 0; l < 32; ++l)
          if (s.lanes >> l & 1u) std::memcpy(&x.words[l], old + 4 * n++, 4);
      }
      finishOne(s.tag, ok);
    });
  }
  return true;  // the downstream queues what it cannot send yet
}

void GlobalMemoryAdapter::answered(std::uint64_t i, const unsigned char* data, bool ok) {
  const Sent s = sent_[static_cast<uint32_t>(i)];
  sent_.release(static_cast<uint32_t>(i));
  Access& x = access(s.tag);
  if (ok)
    for (uint32_t m = s.lanes; m; m &= m - 1) {  // the lanes served, in lane order
      const int l = __builtin_ctz(m);
      std::memcpy(&x.words[l], data + wordOffset(x.a, l, s.base, s.size), 4);
    }
  finishOne(s.tag, ok);
}

// One segment transaction as a request to a cache: a line load, or the lanes' word operations
// (lane order, byte offsets from the segment, which is the line) of a store or an atomic.
// Refused (the coalescer retries next cycle) when the cache has no MSHR for it.
bool GlobalMemoryAdapter::sendToCache(mem::L1Cache& cache, const mem::MemTransaction& t,
                                      uint64_t tag, Access& acc) {
  const sm::GlobalAccess& a = acc.a;
  const isa::Format f = isa::info(a.op).format;
  (&cache == &l1_ ? l1Used_ : constUsed_) = true;
  mem::L1Request rq;
  rq.tag = tag;
  rq.address = t.address;
  if (f == isa::Format::Load) {
    rq.kind = mem::L1Request::Kind::Load;
  } else {
    rq.kind = f == isa::Format::Store ? mem::L1Request::Kind::Store : mem::L1Request::Kind::Atomic;
    rq.op = a.op;
    for (int l = 0; l < 32; ++l)
      if (t.lanes >> l & 1u) rq.ops.push(wordOffset(a, l, t.address, ~lineMask_ + 1), a.data[l], a.data2[l]);
  }
  if (!cache.canAccept(rq)) return false;
  acc.inFlight++;
  if (t.last) acc.allSent = true;
  cache.accept(rq, now_);
  return true;
}

// A cache answers one transaction of access `tag`: a load with its line (each lane of the access
// on that line takes its word), an atomic with one old word per op (its lanes in lane order), a
// store with nothing.
void GlobalMemoryAdapter::cacheDone(const mem::L1Response& r) {
  Access& x = access(r.tag);
  if (r.ok && r.kind != mem::L1Request::Kind::Store) {
    unsigned i = 0;
    for (int l = 0; l < 32; ++l) {
      const uint32_t address = x.a.address(l);  // (a compact access: the rotation network's placement)
      if (!(x.a.mask >> l & 1u) || (address & lineMask_) != r.address) continue;
      x.words[l] = r.kind == mem::L1Request::Kind::Load ? r.words[(address - r.address) / 4] : r.words[i++];
    }
  }
  finishOne(r.tag, r.ok);
}

void GlobalMemoryAdapter::finishOne(uint64_t tag, bool ok) {
  Access& x = access(tag);
  x.inFlight--;
  if (!ok && x.error.empty()) {
    char b[112];
    std::snprintf(b, sizeof b, "memory returned an error response for a global access near 0x%x",
                  x.a.address(__builtin_ctz(x.a.mask)));
    x.error = b;
  }
  if (x.inFlight != 0 || !x.allSent) return;
  // (an access finished now is answered in the next tick: the pipeline's cycles come on top)
  if (x.bypassed && bypassLatency_ > 0) bypassed_.push_back({tag, now_ + 1 + bypassLatency_});
  else finished_.push_back(tag);
}

void GlobalMemoryAdapter::tick(uint64_t cycle) {
  now_ = cycle;
  // Only waiting for memory (the SM at rest, mostly): nothing to hand on, nothing due.
  if (coalescer_.idle() && !l1Used_ && !constUsed_ && finished_.empty() &&
      (bypassed_.empty() || bypassed_.front().at > cycle))
    return;
  work(cycle);
}

void GlobalMemoryAdapter::work(uint64_t cycle) {
  coalescer_.tick(cycle);  // transactions into the L1 (or to memory), accepted at `cycle`
  // Memory answers, due hits, one request out; a cache is looked at only from its first access
  // until it is found idle (its state lies a host cache miss or two away, on every SM).
  if (l1Used_) {
    if (l1_.idle()) l1Used_ = false;
    else l1_.tick(cycle);
  }
  if (constUsed_) {
    if (constCache_.idle()) constUsed_ = false;
    else constCache_.tick(cycle);
  }
  while (!bypassed_.empty() && bypassed_.front().at <= cycle) {
    finished_.push_back(bypassed_.front().tag);
    bypassed_.pop_front();
  }
  while (!finished_.empty()) {
    const uint64_t tag = finished_.front();
    finished_.pop_front();
    Access& x = access(tag);
    sm::GlobalResponse r;
    r.id = x.id;
    r.words = x.words;
    r.error = std::move(x.error);
    accesses_.release(static_cast<uint32_t>(tag));
    if (log_.should_log(spdlog::level::trace))
      log_.trace("cycle {}: access {} answered{}", cycle - kernelStart_, r.id, r.error.empty() ? "" : ": " + r.error);
    if (!responses_ || !responses_->nb_write(r))
      throw std::logic_error("GlobalMemoryAdapter: the SM's response channel is unbound or full");
  }
  if (refusalSeen_ && accepting()) {
    refusalSeen_ = false;
    acceptVersion_++;
  }
}

}  // namespace simtlm::gpu
