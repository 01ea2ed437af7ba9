// The boundary between an SM's execute unit and its LD/ST unit for global memory (coalescer,
// L1 and memory socket in the GPU top; an ideal memory in runGrid), so that an LD/ST unit of the
// user's own can stand behind it:
//   requests   execute -> LD/ST, an interface method call (GlobalMemoryPort::issue) in the cycle
//              the instruction dispatches, after canAccept(), the unit's ready line, said yes:
//              whether it can take an access depends on the one it took this very cycle, which
//              a channel could only tell a cycle later.
//   responses  LD/ST -> the SM, a channel with the standard sc_fifo interfaces: one
//              GlobalResponse per request, written in the LD/ST unit's step when its last
//              transaction is answered; the SM reads them at the start of its `answers` step,
//              which runs after the LD/ST unit's in the same cycle. Under the sequential
//              scheduling it is a pipeline register (pipeline_register.h) committed after the
//              LD/ST step; under sm.scheduling=systemc an sc_fifo of the SM's module.
#pragma once

#include <array>
#include <cstdint>
#include <ostream>
#include <string>

#include <systemc>

#include "isa/opcode.h"

namespace simtlm::sm {

// A compact description of an access's addresses: lane l's byte address is base + stride x l
// (mod 2^32), known without per-lane address generation. The LD/ST unit then generates the
// transactions from base and stride and places each lane's word by that formula (the paper's
// rotation network), not from addr[], which the SM leaves empty.
struct CompactAddress {
  bool valid = false;
  uint32_t base = 0;
  uint32_t stride = 0;
};

// A global load, store or atomic of one warp instruction.
struct GlobalAccess {
  isa::Op op{};
  uint32_t mask = 0;                    // lanes that access
  std::array<uint32_t, 32> addr{};      // byte addresses (empty when compact.valid)
  CompactAddress compact;               // loads and stores only
  std::array<uint32_t, 32> data{};      // store data / atomic operand b
  std::array<uint32_t, 32> data2{};     // cas swap value
  // Lane l's byte address, from whichever description the access carries.
  uint32_t address(int l) const {
    return compact.valid ? compact.base + compact.stride * static_cast<uint32_t>(l) : addr[static_cast<size_t>(l)];
  }
};

struct GlobalRequest {
  uint64_t id = 0;  // chosen by the SM, returned in the response
  GlobalAccess access;
};

struct GlobalResponse {
  uint64_t id = 0;
  std::array<uint32_t, 32> words{};  // per lane: load data, atomics' old values
  std::string error;                 // empty, or why memory refused the access
};

// sc_fifo<T> prints its contents (sc_fifo::print) with operator<<.
std::ostream& operator<<(std::ostream& os, const GlobalResponse& r);

// A memory's configured latency is its load-to-use latency, as the sources of the values
// measured it (a pointer chase: a load's issue to its dependant's issue). The SM's own stages
// take some of those cycles: the operand read and the dispatch before the access, and the
// cycles the answer spends on its way back (the response channel's one; a shared access: the
// LD/ST unit's write-back latency instead). A memory unit waits its latency less these
// (docs/timing-model.md); this is the one place that subtracts them.
constexpr int kOperandStages = 2;
constexpr int memoryUnitLatency(int loadToUse, int returnStages = 1) {
  const int unit = loadToUse - kOperandStages - (returnStages > 1 ? returnStages : 1);
  return unit > 0 ? unit : 0;
}

// The SM's LD/ST unit for global memory.
class GlobalMemoryPort {
 public:
  virtual ~GlobalMemoryPort() = default;
  // The channel its responses go to (before its first tick).
  virtual void bind(sc_core::sc_fifo_out_if<GlobalResponse>& responses) = 0;
  virtual bool canAccept() const = 0;
  // A count of the ticks after which canAccept() turned true again, at an address that stays
  // valid for the port's life: an SM that found the port refusing need not look again, nor be
  // ticked, until it changes. Null: no such count (the SM looks at the port every cycle).
  virtual const uint64_t* acceptVersion() const { return nullptr; }
  virtual void issue(const GlobalRequest& request) = 0;
  // One cycle: transactions on, answers in, a response out for each access fully answered.
  virtual void tick(uint64_t cycle) = 0;
  virtual bool idle() const = 0;
  // At each kernel launch, before the first tick of its grid, which is cycle `cycle` (a cache
  // invalidates itself: the host may have written memory).
  virtual void startKernel(uint64_t cycle) { (void)cycle; }
  // Responses the unit may have written and not had read: the channel's size must be at least this.
  static constexpr int kMaxResponses = 64;
};

}  // namespace simtlm::sm
