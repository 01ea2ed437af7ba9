// UserMemory: a deliberately plain memory target, written the way a user's own TLM IP might be,
// to show that the GPU works with foreign memory (nothing in here comes from simtlm).
//
//   socket  simple_target_socket, base protocol, 32-bit bus width
//   b_transport      LT access; adds `latency` to the annotated delay
//   nb_transport_fw  the simplest legal AT target: BEGIN_REQ is performed at once and answered
//                    TLM_COMPLETED with `latency` annotated (no END_REQ / BEGIN_RESP phases)
//   transport_dbg    untimed access; the GPU reads kernel code and parameters this way at launch
//
// Addresses are offsets into a flat array of `size` bytes. Byte enables are honoured (the GPU's
// partial-line stores use them); streaming bursts (streaming width < length) are refused with
// TLM_BURST_ERROR_RESPONSE. Atomics (simtlm's AtomicExtension) are not understood, so kernels
// with global atomics need a memory that knows the extension, such as simtlm's DramTarget.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

class UserMemory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<UserMemory> socket;

  UserMemory(sc_core::sc_module_name name, std::uint64_t size, sc_core::sc_time latency);

  // Timed accesses by interface: b_transport (LT) and nb_transport_fw (AT).
  std::uint64_t blockingAccesses() const { return blocking_; }
  std::uint64_t nonBlockingAccesses() const { return nonBlocking_; }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& gp);
  // Checks and performs one access; returns the response status (data moved only if OK).
  // Debug accesses ignore the streaming width, which TLM-2.0 lets a debug target do.
  tlm::tlm_response_status access(tlm::tlm_generic_payload& gp, bool debug);

  std::vector<unsigned char> bytes_;
  sc_core::sc_time latency_;
  std::uint64_t blocking_ = 0, nonBlocking_ = 0;
};
