// The GPU's side of the SMs' memory sockets as the SM-side units see it (I-caches, L1s, the
// global path): it forwards every request of SM i to that SM's socket (route(i)) and hands each
// answer back, unless the GPU has released the kernel that made the request since (a fault, a
// soft reset). The TLM transactions already sent cannot be called back; their answers arrive
// later and are dropped here, so that no rebuilt unit ever sees an answer to a request it did
// not make. It also counts the answers and the requests still owed, over all SMs, for the
// watchdog (sm::MemoryActivity).
//
// It also fixes what a cycle of the SMs sees of memory, whichever way the units are scheduled
// (docs/timing-model.md): from the first beginCycle() on, answers are held and handed over at
// the next beginCycle(), so a unit sees an answer in the first cycle that starts after it
// arrived, in whichever delta cycle of the current one (or between two cycles) it came. They are
// handed over in the order of their arrival time and, among those that arrived at the same
// simulated time, each SM's in the order its requests were made: the order of same-time
// arrivals is the SystemC kernel's (its event queue's, which the scheduling's own processes and
// events change), not the model's. Requests are held as well and sent at endCycle() in SM order,
// each SM's in the order its units made them, whatever order the units ran in (systemc: the
// units of all SMs interleaved, one unit per delta cycle; sequential: SM after SM in alternating
// directions, or the SMs on several host threads, sim.threads). stopHolding() (no kernel running)
// hands over what is held, and later answers as they come. Within a cycle a route touches only
// its own state, so SMs on different threads may use their routes at once; answers and the
// sending happen on the caller's thread, outside the SMs' part of the cycle.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "model/common/slot_pool.h"
#include "model/mem/downstream.h"
#include "model/sm/grid_engine.h"

namespace simtlm::gpu {

class MemoryGate : public sm::MemoryActivity {
 public:
  // downs[i]: where SM i's requests go (its memory socket).
  explicit MemoryGate(const std::vector<mem::Downstream*>& downs);
  // What SM i's units send their requests to.
  mem::Downstream& route(int sm) { return *routes_.at(static_cast<size_t>(sm)); }
  // SM i's requests go to `down` from now on instead (before the simulation starts).
  void reroute(int sm, mem::Downstream& down) { routes_.at(static_cast<size_t>(sm))->reroute(down); }
  // Answers to the requests made so far are dropped from now on, held ones included; held
  // requests are dropped unsent.
  void dropAnswers();
  std::uint64_t answers() const override { return answers_; }
  std::uint64_t outstanding() const override;

  void beginCycle();
  void endCycle();
  void stopHolding();

 private:
  // A request made through a route and not answered yet: its completion, kept here so that the
  // one passed down is a small callback (route, slot, generation) that std::function holds
  // without allocating.
  struct Pending {
    mem::Downstream::Done done;           // or, for readTo, receiver and tag
    mem::Downstream::Receiver* receiver = nullptr;
    std::uint64_t tag = 0;
    std::uint64_t request = 0;  // Route::requests when it was made (an answer's place)
    unsigned bytes = 0;         // how many bytes the answer's data has (copied when held)
  };
  struct HeldRequest {
    enum class Kind : std::uint8_t { Read, Write, Atomic } kind;
    bool enable;                // a write with byte enables (after its data in `bytes`)
    isa::Op op;
    std::uint32_t slot;         // Route::pending
    std::uint64_t address;
    unsigned size;
    std::size_t at;             // a write's data (and enables) in Held::bytes; an atomic's ops in Held::ops
  };
  struct Held {  // a route's requests of the cycle, with their bytes (storage kept from cycle to cycle)
    std::vector<HeldRequest> requests;
    std::vector<unsigned char> bytes;
    std::vector<mem::WordOps> ops;
    void clear() {
      requests.clear();
      bytes.clear();
      ops.clear();
    }
  };
  class Route : public mem::Downstream, public mem::Downstream::Receiver {
   public:
    Route(MemoryGate& gate, mem::Downstream& down) : gate_(gate), down_(&down) {}
    void reroute(mem::Downstream& down) { down_ = &down; }
    void read(std::uint64_t address, unsigned size, Done done) override;
    void readTo(std::uint64_t address, unsigned size, mem::Downstream::Receiver& to, std::uint64_t tag) override;
    void write(std::uint64_t address, const unsigned char* data, const unsigned char* byte_enable,
               unsigned size, Done done) override;
    void atomic(std::uint64_t address, isa::Op op, const mem::WordOps& ops, Done done) override;
    void send(const HeldRequest& r, const Held& from);
    void answered(std::uint32_t slot, std::uint32_t generation, const unsigned char* data, bool ok);
    // An answer to a read sent with readTo: the tag is (generation << 32) | slot.
    void answered(std::uint64_t tag, const unsigned char* data, bool ok) override {
      answered(static_cast<std::uint32_t>(tag), static_cast<std::uint32_t>(tag >> 32), data, ok);
    }
    void forget();  // dropAnswers: every pending request and held one
    Held held;
    common::SlotPool<Pending> pending;
    std::uint32_t index = 0;       // the SM
    std::uint64_t requests = 0;    // requests made so far (an answer's place among same-time ones)
    std::uint64_t owed = 0;        // requests made through this route and not answered yet

   private:
    std::uint32_t take(Done done, unsigned bytes);  // a request is owed from now on: its slot
    std::uint32_t take(mem::Downstream::Receiver& to, std::uint64_t tag, unsigned bytes);
    std::uint32_t takeSlot(unsigned bytes);  // (what both take()s share: owed, slot, order)
    Done gated(std::uint32_t slot);                  // what the request's answer calls
    MemoryGate& gate_;
    mem::Downstream* down_;
  };
  struct HeldAnswer {
    std::uint32_t generation;
    std::uint32_t sm;
    std::uint64_t time;  // arrival (sc_time value)
    std::uint64_t request;  // Route::requests when it was made
    std::uint32_t slot;
    bool hasData, ok;
    std::size_t at;      // its data in the answers' bytes
  };
  struct Answers {
    std::vector<HeldAnswer> held;
    std::vector<unsigned char> bytes;
  };
  void handOver();  // the held answers, in order
  // Hands a request's answer to its maker and frees its slot.
  static void deliver(Route& route, std::uint32_t slot, const unsigned char* data, bool ok);
  std::vector<std::unique_ptr<Route>> routes_;
  Answers heldAnswers_, handing_;  // handing_: the ones being handed over (storage kept)
  Held sending_;  // endCycle: one route's held requests while they are sent
  std::uint32_t generation_ = 0;
  std::uint64_t answers_ = 0;
  bool inCycle_ = false;
  bool holding_ = false;                     // answers are held (beginCycle .. stopHolding)
};

}  // namespace simtlm::gpu
