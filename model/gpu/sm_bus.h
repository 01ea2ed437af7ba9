// The GPU's own SM-side interconnect (`gpu.sm_bus`): the default target of the SMs' memory
// sockets (gpu.sm<N>.to_memory, model/sm/sm_module.h) left unbound by the platform. It hands each
// request to the GPU's memory initiator (through `down`, the GPU's mem::MemPortDownstream) within
// the call that brings it, and each answer back to its SM within the call that brings the answer,
// so that the requests reach the GPU's `to_memory` socket in the order and at the time the SMs
// make them, as if the SMs called the GPU's port directly.
// The GPU's memory gate does just that for an SM whose socket is bound here (Gpu::
// before_end_of_elaboration: MemoryGate::reroute), so in a GPU the bus carries no traffic; it stays
// the sockets' binding, and the path for a socket used on its own.
//
// AT only (the SM ports always speak AT to it): BEGIN_REQ is answered TLM_UPDATED(END_REQ) at once;
// BEGIN_RESP follows on the backward path with no delay, its status TLM_OK_RESPONSE or
// TLM_GENERIC_ERROR_RESPONSE (the GPU's port splits a write whose byte enables its target refuses,
// so that status never reaches an SM). transport_dbg goes to the GPU's port. Atomics travel with
// their mem::AtomicExtension.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "model/common/slot_pool.h"
#include "model/mem/downstream.h"
#include "model/mem/mem_port.h"

namespace simtlm::gpu {

class SmBus : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket_optional<SmBus> from_sms;

  SmBus(sc_core::sc_module_name name, mem::Downstream& down, mem::MemPort& port);
  // The GPU released the kernel: every transaction still owed is answered at once with an error
  // (the SMs' units drop those answers), and the answers from memory that come later are ignored.
  void release();

 private:
  struct Owed {
    int sm = -1;  // -1: a free slot
    tlm::tlm_generic_payload* gp = nullptr;
  };
  tlm::tlm_sync_enum nb_transport_fw(int sm, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  unsigned transport_dbg(int sm, tlm::tlm_generic_payload& gp);
  void forward(tlm::tlm_generic_payload& gp, mem::Downstream::Done done);
  void respond(const Owed& o, const unsigned char* data, bool ok);

  mem::Downstream& down_;
  mem::MemPort& port_;
  // Slots reused (no allocation per transaction once warm); release() answers in slot order,
  // which the history of requests determines.
  common::SlotPool<Owed> owed_;
  std::uint32_t generation_ = 0;  // 32 bits: an answer's callback fits std::function's own buffer
};

}  // namespace simtlm::gpu
