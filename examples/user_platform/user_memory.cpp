#include "user_memory.h"

#include <cstring>

using namespace sc_core;

UserMemory::UserMemory(sc_module_name name, std::uint64_t size, sc_time latency)
    : sc_module(name), socket("socket"), bytes_(size, 0), latency_(latency) {
  socket.register_b_transport(this, &UserMemory::b_transport);
  socket.register_nb_transport_fw(this, &UserMemory::nb_transport_fw);
  socket.register_transport_dbg(this, &UserMemory::transport_dbg);
}

tlm::tlm_response_status UserMemory::access(tlm::tlm_generic_payload& gp, bool debug) {
  const std::uint64_t addr = gp.get_address();
  const unsigned len = gp.get_data_length();
  unsigned char* data = gp.get_data_ptr();
  const unsigned char* be = gp.get_byte_enable_ptr();
  const unsigned be_len = gp.get_byte_enable_length();
  if (!gp.is_read() && !gp.is_write()) return tlm::TLM_COMMAND_ERROR_RESPONSE;
  if (addr >= bytes_.size() || len > bytes_.size() - addr) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  if (!debug && gp.get_streaming_width() < len) return tlm::TLM_BURST_ERROR_RESPONSE;
  if (be && be_len == 0) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  unsigned char* mem = &bytes_[addr];
  if (!be) {
    if (gp.is_read()) std::memcpy(data, mem, len);
    else std::memcpy(mem, data, len);
  } else {
    // The byte-enable array repeats over the data (TLM-2.0 rule); disabled bytes are left
    // untouched in memory on writes and in the initiator's buffer on reads.
    for (unsigned i = 0; i < len; ++i) {
      if (be[i % be_len] == TLM_BYTE_DISABLED) continue;
      if (gp.is_read()) data[i] = mem[i];
      else mem[i] = data[i];
    }
  }
  return tlm::TLM_OK_RESPONSE;
}

void UserMemory::b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
  ++blocking_;
  gp.set_response_status(access(gp, false));
  delay += latency_;
}

tlm::tlm_sync_enum UserMemory::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                               sc_time& delay) {
  // We never send END_REQ or BEGIN_RESP, so the only phase a correct initiator can send is
  // BEGIN_REQ (it must not send END_RESP after TLM_COMPLETED).
  if (phase != tlm::BEGIN_REQ) {
    SC_REPORT_ERROR(name(), "nb_transport_fw: unexpected phase (only BEGIN_REQ is legal here)");
    return tlm::TLM_COMPLETED;
  }
  ++nonBlocking_;
  gp.set_response_status(access(gp, false));
  // Early completion: the whole transaction ends here; the annotated delay tells the initiator
  // when the response is valid.
  delay += latency_;
  return tlm::TLM_COMPLETED;
}

unsigned UserMemory::transport_dbg(tlm::tlm_generic_payload& gp) {
  return access(gp, true) == tlm::TLM_OK_RESPONSE ? gp.get_data_length() : 0;
}
