// An SM as a SystemC module (`gpu.sm<N>`): its boundary toward the memory side.
//   to_memory  TLM-2.0 initiator socket (base protocol): the SM's L1 misses, stores and atomics
//              (or, without an L1, its coalesced global accesses) and its I-cache line fills.
// The SM's timing units (sm::SmCore, its I-cache, coalescer and L1) stay plain C++, ticked by
// the GPU's clock and rebuilt when the GPU releases a faulted kernel; they reach this module
// through memory(). The module, its port and its socket are built once, at elaboration.
//
// Binding: whoever builds the platform may bind `to_memory` to a model of their own (an L2, a
// network) before the end of elaboration; otherwise the GPU binds it to its own SM-side
// interconnect (gpu/sm_bus.h), which forwards through the GPU's `to_memory` socket. The port is
// an immediate one (mem::MemPort::Config::immediate): approximately-timed, a request leaves
// within the call that makes it and an answer with no annotated delay is handed back within
// the target's call, so the default path costs no delta cycle. Toward a target of the user's,
// setMode() selects loosely-timed (b_transport) when the configuration asks for it.
#pragma once

#include <systemc>
#include <tlm>

#include "model/mem/downstream.h"
#include "model/mem/mem_port.h"

namespace simtlm::sm {

class SmModule : public sc_core::sc_module {
 public:
  tlm::tlm_initiator_socket<> to_memory;
  mem::MemPort port;  // the SM's initiator, bound through to_memory

  explicit SmModule(sc_core::sc_module_name name);

  // Whether someone has bound to_memory yet (meaningful during elaboration).
  bool bound() { return to_memory.bind_count() > 0; }
  // The protocol spoken on to_memory; before the simulation starts only.
  void setMode(mem::MemPort::Mode mode) { port.set_mode(mode); }
  // Where the SM's units send their requests: the socket, with byte enables sent only when some
  // byte is disabled (and split into runs when the target refuses them).
  mem::Downstream& memory() { return memory_; }

 private:
  mem::MemPortDownstream memory_;
};

}  // namespace simtlm::sm
