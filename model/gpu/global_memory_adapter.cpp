#include "model/gpu/global_memory_adapter.h"

#include <cstdio>
#include <cstring>
#include <vector>

namespace simtlm::gpu {

GlobalMemoryAdapter::GlobalMemoryAdapter(mem::Downstream& down, unsigned segmentBytes,
                                         unsigned warpSize, int maxOutstanding, stats::Group stats)
    : down_(down),
      coalescer_({segmentBytes, warpSize, 1},
                 [this](const mem::MemTransaction& t, uint64_t tag) { return send(t, tag); },
                 stats),
      maxOutstanding_(maxOutstanding) {}

bool GlobalMemoryAdapter::canAccept() const {
  return coalescer_.canAccept() && static_cast<int>(accesses_.size()) < maxOutstanding_;
}

void GlobalMemoryAdapter::issue(const sm::GlobalAccess& a, Done done) {
  const uint64_t tag = nextTag_++;
  Access& acc = accesses_[tag];
  acc.a = a;
  acc.done = std::move(done);
  uint64_t addr[32];
  for (int l = 0; l < 32; ++l) addr[l] = a.addr[l];
  if (a.mask == 0) {  // nothing to access: completes at once
    acc.allSent = true;
    finished_.push_back(tag);
    return;
  }
  coalescer_.accept(addr, a.mask, 4, tag, now_);
}

bool GlobalMemoryAdapter::send(const mem::MemTransaction& t, uint64_t tag) {
  Access& acc = accesses_.at(tag);
  const sm::GlobalAccess& a = acc.a;
  const uint64_t base = t.address + t.begin;
  const unsigned size = t.end - t.begin;
  const isa::Format f = isa::info(a.op).format;
  acc.inFlight++;
  if (t.last) acc.allSent = true;
  if (f == isa::Format::Load) {
    const uint32_t lanes = t.lanes;
    down_.read(base, size, [this, tag, lanes, base](const unsigned char* data, bool ok) {
      Access& x = accesses_.at(tag);
      if (ok)
        for (int l = 0; l < 32; ++l)
          if (lanes >> l & 1u) std::memcpy(&x.words[l], data + (x.a.addr[l] - base), 4);
      finishOne(tag, ok);
    });
  } else if (f == isa::Format::Store) {
    std::vector<unsigned char> data(size, 0), enable(size, 0);
    for (int l = 0; l < 32; ++l) {
      if (!(t.lanes >> l & 1u)) continue;
      const uint32_t off = static_cast<uint32_t>(a.addr[l] - base);
      std::memcpy(&data[off], &a.data[l], 4);
      std::memset(&enable[off], 0xFF, 4);
    }
    down_.write(base, data.data(), enable.data(), size,
                [this, tag](const unsigned char*, bool ok) { finishOne(tag, ok); });
  } else {  // atomics: the lanes' operations in lane order, performed at memory
    mem::WordOps ops;
    int lane[32];
    for (int l = 0; l < 32; ++l) {
      if (!(t.lanes >> l & 1u)) continue;
      lane[ops.count] = l;
      ops.push(static_cast<uint32_t>(a.addr[l] - base), a.data[l], a.data2[l]);
    }
    const unsigned n = ops.count;
    std::vector<int> lanes(lane, lane + n);
    down_.atomic(base, a.op, ops, [this, tag, lanes](const unsigned char* old, bool ok) {
      Access& x = accesses_.at(tag);
      if (ok)
        for (size_t i = 0; i < lanes.size(); ++i) std::memcpy(&x.words[lanes[i]], old + 4 * i, 4);
      finishOne(tag, ok);
    });
  }
  return true;  // the downstream queues what it cannot send yet
}

void GlobalMemoryAdapter::finishOne(uint64_t tag, bool ok) {
  Access& x = accesses_.at(tag);
  x.inFlight--;
  if (!ok && x.error.empty()) {
    char b[112];
    std::snprintf(b, sizeof b, "memory returned an error response for a global access near 0x%x",
                  x.a.addr[__builtin_ctz(x.a.mask)]);
    x.error = b;
  }
  if (x.inFlight == 0 && x.allSent) finished_.push_back(tag);
}

void GlobalMemoryAdapter::tick(uint64_t cycle) {
  now_ = cycle;
  coalescer_.tick(cycle);
  while (!finished_.empty()) {
    const uint64_t tag = finished_.front();
    finished_.pop_front();
    Access x = std::move(accesses_.at(tag));
    accesses_.erase(tag);
    x.done(x.words.data(), x.error);
  }
}

}  // namespace simtlm::gpu
