// Connects an SM's global-memory port to the memory system: each warp access is coalesced
// into segment transactions (l1.line bytes; one handed on per cycle by mem::Coalescer), and each
// transaction goes the way isa::loadPath says:
//   the L1       (mem::L1Cache, statistics `sm<N>.l1`) every access when l1.enabled, and
//                ld.global.nc loads always (GPGPU-Sim caches .nc loads in the L1 even with
//                -gpgpu_gmem_skip_L1D 1): loads as line loads (hits answered hit_latency cycles
//                after accept, misses through MSHRs and a line fill from memory), stores written
//                through with byte enables, atomics performed at memory with their per-lane
//                operations; the L1 reaches memory through `down`.
//   the constant cache  (a second mem::L1Cache, `sm<N>.const_cache`, const_cache.*) ld.const.
//   memory       otherwise, past the L1's tags to `down`: loads read the touched span of each
//                segment, stores write it with byte enables, atomics travel with their per-lane
//                operations. Such an access still passes the L1's pipeline, as every global
//                access does on the GPU (the L1 and texture unit sit between the LD/ST unit
//                and the interconnect): it is answered l1.hit_latency cycles after memory
//                answers it, as an L1 miss is (docs/memory-units.md).
// A store or atomic that passes a cache invalidates the line there, so neither cache holds a
// word older than this SM's own writes.
// Lanes are in lane order everywhere, so the highest lane wins a shared word as in the
// interpreter. Completions are recorded and written to the SM's response channel in tick()
// (sm/global_access.h), so the SM sees them in its own cycle order. The memory-side objects
// answer through `down` (the TLM MemPort in the GPU; a fake in tests). Logger gpu.sm<N>.ldst
// traces each access accepted and answered.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <spdlog/logger.h>

#include "model/common/config.h"
#include "model/common/slot_pool.h"
#include "model/common/stats.h"
#include "model/mem/coalescer.h"
#include "model/mem/downstream.h"
#include "model/mem/l1_cache.h"
#include "model/sm/sm_core.h"

namespace simtlm::gpu {

class GlobalMemoryAdapter : public sm::GlobalMemoryPort, private mem::Downstream::Receiver {
 public:
  // Statistics under `prefix` (`sm<N>`): `.coalescer`, `.l1` and `.const_cache`.
  GlobalMemoryAdapter(mem::Downstream& down, const config::GpuConfig& cfg, int maxOutstanding,
                      stats::Registry& stats, const std::string& prefix);
  // At each kernel launch: the L1 is invalidated (the host may have written memory) and the
  // cycle count starts again.
  void startKernel(uint64_t cycle) override;
  void bind(sc_core::sc_fifo_out_if<sm::GlobalResponse>& responses) override { responses_ = &responses; }
  bool canAccept() const override {
    if (accepting()) return true;
    refusalSeen_ = true;
    return false;
  }
  const uint64_t* acceptVersion() const override { return &acceptVersion_; }
  void issue(const sm::GlobalRequest& request) override;
  void tick(uint64_t cycle) override;
  bool idle() const override {
    return accesses_.live() == 0 && bypassed_.empty() && coalescer_.idle() && (!l1Used_ || l1_.idle()) && (!constUsed_ || constCache_.idle());
  }

 private:
  struct Access {
    sm::GlobalAccess a;
    uint64_t id;  // the SM's
    int inFlight = 0;
    bool allSent = false;
    bool bypassed = false;  // sent past the caches: answered the L1's pipeline latency later
    std::array<uint32_t, 32> words{};
    std::string error;
  };
  // A transaction sent past the caches, until memory answers it: which access, which lanes.
  struct Sent {
    uint32_t tag, lanes;
    uint64_t base;
    unsigned size;
  };
  uint64_t newAccess();       // a free slot of accesses_, its tag
  Access& access(uint64_t tag) { return accesses_[static_cast<uint32_t>(tag)]; }
  uint32_t newSent(const Sent& s);
  bool route(const mem::MemTransaction& t, uint64_t tag);
  // (`acc` is accesses_[tag], looked up once per transaction.)
  bool send(const mem::MemTransaction& t, uint64_t tag, Access& acc);
  bool sendToCache(mem::L1Cache& cache, const mem::MemTransaction& t, uint64_t tag, Access& acc);
  void cacheDone(const mem::L1Response& r);
  // Memory answers a load sent past the caches (`tag`: its sent_ index).
  void answered(std::uint64_t tag, const unsigned char* data, bool ok) override;
  // tick()'s work once something is to be done (out of line: the common tick only waits).
  [[gnu::noinline]] void work(uint64_t cycle);
  void finishOne(uint64_t tag, bool ok);

  mem::Downstream& down_;
  spdlog::logger& log_;    // gpu.sm<N>.ldst: accesses accepted and answered (trace)
  uint64_t kernelStart_ = 0;
  sc_core::sc_fifo_out_if<sm::GlobalResponse>* responses_ = nullptr;
  mem::Coalescer coalescer_;
  bool l1Enabled_;         // plain global accesses go through the L1
  mem::L1Cache l1_;        // installs lines even when l1Enabled_ is false (ld.global.nc)
  mem::L1Cache constCache_;
  // Each cache may hold work: set by an access sent to it, cleared once tick() finds it idle.
  bool l1Used_ = false, constUsed_ = false;
  uint64_t lineMask_;
  int maxOutstanding_;
  uint64_t now_ = 0;
  // sm::GlobalMemoryPort::acceptVersion: ticks that ended a refusal the SM saw.
  uint64_t acceptVersion_ = 0;
  mutable bool refusalSeen_ = false;
  bool accepting() const { return coalescer_.canAccept() && static_cast<int>(accesses_.live()) < maxOutstanding_; }
  // The accesses in flight by tag (their slot here; a deque: none moves while another is added),
  // slots reused: no allocation per access once warm.
  common::SlotPool<Access, std::deque<Access>> accesses_;
  // By index (an answer's callback holds the index only: small enough for std::function's own
  // buffer).
  common::SlotPool<Sent> sent_;
  std::vector<unsigned char> storeData_, storeEnable_;  // a store's bytes while it is sent
  std::deque<uint64_t> finished_;
  // Accesses memory has answered that bypassed the caches, each with the cycle it leaves the
  // L1's pipeline (in order: one latency for all).
  struct Bypassed {
    uint64_t tag, at;
  };
  uint64_t bypassLatency_;
  std::deque<Bypassed> bypassed_;
};

}  // namespace simtlm::gpu
