// SharedMemory: one SM's banked shared memory. Functional storage for every resident block
// (a region per block slot, allocated at block launch, zeroed, released at block exit) and the
// timing of a warp access: bank = (address / bank_width) % banks; the lanes of an access that
// reach different bank words of one bank serialise, lanes reaching the same word are served
// together (broadcast), so
//   degree  = max over banks of the distinct bank words addressed there (1 when conflict free)
//   result  = accept cycle + latency + degree - 1
//   the next access is accepted degree cycles after this one.
// An atomic is a read and a write of its word for every lane, one lane after another on a bank
// (lanes on one word serialise too):
//   degree  = max over banks of the lanes addressing it
//   result  = accept cycle + atomic_latency + 2 x (degree - 1); the next access 2 x degree later.
// Loads, stores and atomics are performed at accept, lane by lane in lane order (as the
// functional interpreter does), with isa::evalLane for atomics. A misaligned or out-of-region
// lane stops the access there (earlier lanes keep their effect) and the response reports it.
#pragma once

#include "isa/opcode.h"
#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/mem/atomic_extension.h"
#include "model/mem/fifo.h"

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace simtlm::mem {

struct SharedRequest {
  enum class Kind : std::uint8_t { Load, Store, Atomic };
  Kind kind = Kind::Load;
  std::uint64_t tag = 0;  // the requester's, returned in the response
  unsigned slot = 0;      // block slot whose region is addressed
  isa::Op op{};           // atomics
  std::uint32_t mask = 0;
  std::array<std::uint32_t, kMaxLanes> address{};  // byte addresses within the block's region
  std::array<std::uint32_t, kMaxLanes> b{}, c{};   // store data; atomic operands (c: cas)
};

struct SharedResponse {
  std::uint64_t tag = 0;
  SharedRequest::Kind kind = SharedRequest::Kind::Load;
  std::uint32_t mask = 0;
  const std::uint32_t* data = nullptr;  // per lane: loaded word / atomic old word
  unsigned degree = 1;                  // bank-conflict degree of the access
  bool ok = true;
  int fault_lane = -1;  // when !ok: the lane that faulted, its address and why
  std::uint32_t fault_address = 0;
  const char* error = "";
};

class SharedMemory {
 public:
  using Respond = std::function<void(const SharedResponse&)>;

  // `cfg` from GpuConfig::shared; `slots` block slots (sm.max_blocks). tick() calls `respond`
  // with each answer due, read from the unit's queue in place: `respond` must not accept().
  SharedMemory(const config::GpuConfig::Shared& cfg, unsigned warp_size, unsigned slots,
               Respond respond, stats::Group stats);

  // A zeroed region of `bytes` for block slot `slot` (first fit, aligned to a bank row of
  // banks * bank_width bytes); false when it does not fit. release() frees it.
  bool allocate(unsigned slot, std::uint32_t bytes);
  void release(unsigned slot);
  std::uint32_t freeBytes() const;  // total, counting each region rounded up to bank rows

  // The bank-conflict degree of 4-byte accesses at `address` (lanes in `mask`); 0 if none.
  unsigned conflictDegree(const std::uint32_t* address, std::uint32_t mask) const;

  // Unit contract: tick(c) starts cycle c (call it every cycle while !idle()); canAccept()
  // is false while the banks are still serving a conflicting access.
  bool canAccept() const;
  void accept(const SharedRequest& request, std::uint64_t cycle);
  bool tick(std::uint64_t cycle);
  bool idle() const { return pending_.empty() && now_ >= busy_until_; }
  // Restarts the unit's clock at cycle 0 (a new kernel; the SM's cycle count starts again):
  // drops the bank-busy time and any answer not yet delivered (only a faulted kernel leaves
  // one). The regions stay as they are.
  void restart();

  // Untimed word access for loaders and checks (aligned, inside the slot's region).
  std::uint32_t read(unsigned slot, std::uint32_t address) const;
  void write(unsigned slot, std::uint32_t address, std::uint32_t value);

 private:
  struct Region {
    bool used = false;
    std::uint32_t base = 0, bytes = 0, reserved = 0;  // reserved: rounded to bank rows
  };
  struct Pending {
    std::uint64_t ready;
    SharedResponse response;
    std::array<std::uint32_t, kMaxLanes> data;
  };

  // Bits common to the addresses of a set of lanes: `any` has a bit set by some lane, `all`
  // the bits every lane sets. One pass that serves the quick tests of accept().
  struct AddressBits {
    std::uint32_t any = 0, all = ~0u;
  };
  AddressBits addressBits(const std::uint32_t* address, std::uint32_t lanes) const;
  unsigned degree(const std::uint32_t* address, std::uint32_t lanes, AddressBits bits) const;
  unsigned wordDegree(const std::uint32_t* address, std::uint32_t lanes) const;
  unsigned generalDegree(const std::uint32_t* address, std::uint32_t lanes) const;
  unsigned atomicDegree(const std::uint32_t* address, std::uint32_t lanes) const;
  std::uint32_t faultingLanes(const std::uint32_t* address, std::uint32_t lanes, AddressBits bits,
                              std::uint32_t bytes) const;
  void perform(const SharedRequest& rq, std::uint32_t lanes, std::uint8_t* region,
               std::uint32_t* old) const;
  // fn(lane) for each of `lanes` in lane order; a plain loop when every lane of the warp takes
  // part (the usual case, and the cheapest walk). The bound is a local: fn's stores could alias
  // the member for the compiler, which would load it again for every lane.
  template <class Fn>
  void forEachLane(std::uint32_t lanes, Fn&& fn) const {
    if (lanes == laneMask_) {
      const unsigned n = warp_size_;
      for (unsigned l = 0; l < n; ++l) fn(l);
      return;
    }
    for (std::uint32_t m = lanes; m; m &= m - 1) fn(static_cast<unsigned>(__builtin_ctz(m)));
  }

  config::GpuConfig::Shared cfg_;
  unsigned warp_size_, row_;
  std::uint32_t laneMask_;  // the lanes a warp has
  // Bank arithmetic, fixed by the configuration. wordBanks_: every aligned 4-byte word lies in
  // one bank word (bank_width a multiple of 4) and the banks fit wordDegree's tables.
  // rowShift_: log2 of a bank row's bytes when bank_width and banks are powers of two (then
  // aligned lanes that agree on every address bit from rowShift_ up sit in one row, each
  // distinct word in its own bank), otherwise -1.
  bool wordBanks_;
  int rowShift_;
  Respond respond_;
  std::vector<std::uint8_t> storage_;
  std::vector<Region> regions_;
  Fifo<Pending> pending_;  // in accept order, which is also answer order
  std::uint64_t now_ = 0, busy_until_ = 0;
  mutable std::uint64_t last_stall_ = ~std::uint64_t{0};
  stats::Counter accesses_, lane_accesses_, conflicts_;
  mutable stats::Counter stalls_;
};

}  // namespace simtlm::mem
