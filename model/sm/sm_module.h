// An SM as a SystemC module (`gpu.sm<N>`): its boundary toward the memory side.
//   to_memory  TLM-2.0 initiator socket (base protocol): the SM's L1 misses, stores and atomics
//              (or, without an L1, its coalesced global accesses) and its I-cache line fills.
// Its units are child modules named by role (`gpu.sm<N>.icache`, `.ldst`, `.answers`,
// `.writeback`, `.execute`, `.operands`, `.issue`, `.fetch`: GridEngine::Unit). Their state
// (sm::SmCore, its I-cache, coalescer and L1) is plain C++, rebuilt when the GPU releases a
// faulted kernel, and reaches memory through memory(). With sm.scheduling=systemc each unit
// module runs its step from its own SC_METHOD, triggered once per cycle by the GPU's delta
// chain (docs/timing-model.md); otherwise the GPU's clock calls the steps in one loop and the
// unit modules have no process. The module, its units, its port and its socket are built once,
// at elaboration.
//
// Binding: whoever builds the platform may bind `to_memory` to a model of their own (an L2, a
// network) before the end of elaboration; otherwise the GPU binds it to its own SM-side
// interconnect (gpu/sm_bus.h), which forwards through the GPU's `to_memory` socket. The port is
// an immediate one (mem::MemPort::Config::immediate): approximately-timed, a request leaves
// within the call that makes it and an answer with no annotated delay is handed back within
// the target's call, so the default path costs no delta cycle. Toward a target of the user's,
// setMode() selects loosely-timed (b_transport) when the configuration asks for it.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>

#include "model/mem/downstream.h"
#include "model/mem/mem_port.h"
#include "model/sm/global_access.h"
#include "model/sm/pending_result.h"

namespace simtlm::sm {

// One unit of an SM in the SystemC hierarchy. With a trigger, an SC_METHOD runs `step` each
// time the trigger fires (never at initialization); without one, the module has no process.
class UnitModule : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(UnitModule);
  UnitModule(sc_core::sc_module_name name, const sc_core::sc_event* trigger, std::function<void()> step);

 private:
  void run() { step_(); }
  std::function<void()> step_;
};

class SmModule : public sc_core::sc_module {
 public:
  tlm::tlm_initiator_socket<> to_memory;
  mem::MemPort port;  // the SM's initiator, bound through to_memory

  // Unit u is named units[u] and, when triggers is not empty, runs step(u) whenever triggers[u]
  // fires.
  SmModule(sc_core::sc_module_name name, const std::vector<const char*>& units,
           const std::vector<const sc_core::sc_event*>& triggers, const std::function<void(int unit)>& step);
  const std::vector<std::unique_ptr<UnitModule>>& units() const { return units_; }
  // With the systemc scheduling, the channel from the LD/ST unit to the answers unit
  // (`gpu.sm<N>.ldst_answers`, global_access.h; null otherwise: the engine's pipeline register).
  sc_core::sc_fifo<GlobalResponse>* answers() { return answers_.get(); }
  // Likewise the channels of results to write-back (`execute_results`, `answer_results`,
  // pending_result.h).
  ResultChannel executeResults() { return {executeResults_.get(), executeResults_.get()}; }
  ResultChannel answerResults() { return {answerResults_.get(), answerResults_.get()}; }
  void drainAnswers();  // drops what a released kernel's units left in the channels

  // Whether someone has bound to_memory yet (meaningful during elaboration).
  bool bound() { return to_memory.bind_count() > 0; }
  // The protocol spoken on to_memory; before the simulation starts only.
  void setMode(mem::MemPort::Mode mode) { port.set_mode(mode); }
  // Where the SM's units send their requests: the socket, with byte enables sent only when some
  // byte is disabled (and split into runs when the target refuses them).
  mem::Downstream& memory() { return memory_; }

 private:
  mem::MemPortDownstream memory_;
  std::vector<std::unique_ptr<UnitModule>> units_;
  std::unique_ptr<sc_core::sc_fifo<GlobalResponse>> answers_;
  std::unique_ptr<sc_core::sc_fifo<PendingResult>> executeResults_, answerResults_;
};

}  // namespace simtlm::sm
