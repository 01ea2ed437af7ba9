#include "model/gpu/sm_bus.h"

#include <cstring>
#include <string>
#include <vector>

namespace simtlm::gpu {

using namespace sc_core;

SmBus::SmBus(sc_module_name name, mem::Downstream& down, mem::MemPort& port)
    : sc_module(name), from_sms("from_sms"), down_(down), port_(port) {
  from_sms.register_nb_transport_fw(this, &SmBus::nb_transport_fw);
  from_sms.register_transport_dbg(this, &SmBus::transport_dbg);
}

tlm::tlm_sync_enum SmBus::nb_transport_fw(int sm, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                          sc_time&) {
  if (phase == tlm::END_RESP) return tlm::TLM_COMPLETED;
  if (phase != tlm::BEGIN_REQ)
    SC_REPORT_FATAL(name(), ("illegal phase on the forward path: " + std::string(phase.get_name())).c_str());
  if (gp.has_mm()) gp.acquire();  // held until answered
  const std::uint32_t slot = owed_.acquire();
  owed_[slot] = Owed{sm, &gp};
  forward(gp, [this, slot, generation = generation_](const unsigned char* data, bool ok) {
    if (generation != generation_) return;  // answered by release() already
    const Owed o = owed_[slot];
    owed_[slot] = Owed{};
    owed_.release(slot);
    respond(o, data, ok);
  });
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void SmBus::forward(tlm::tlm_generic_payload& gp, mem::Downstream::Done done) {
  const std::uint64_t address = gp.get_address();
  const unsigned size = gp.get_data_length();
  if (const auto* atomic = gp.get_extension<mem::AtomicExtension>())
    return down_.atomic(address, atomic->op, atomic->ops, std::move(done));
  if (gp.is_read()) return down_.read(address, size, std::move(done));
  const unsigned char* enable = gp.get_byte_enable_ptr();
  std::vector<unsigned char> spread;  // enables shorter than the data repeat over it (TLM-2.0)
  if (enable && gp.get_byte_enable_length() != size) {
    for (unsigned i = 0; i < size; ++i) spread.push_back(enable[i % gp.get_byte_enable_length()]);
    enable = spread.data();
  }
  down_.write(address, gp.get_data_ptr(), enable, size, std::move(done));
}

void SmBus::respond(const Owed& o, const unsigned char* data, bool ok) {
  tlm::tlm_generic_payload& gp = *o.gp;
  if (ok && data && gp.is_read()) std::memcpy(gp.get_data_ptr(), data, gp.get_data_length());
  gp.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_GENERIC_ERROR_RESPONSE);
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_time delay = SC_ZERO_TIME;
  from_sms[o.sm]->nb_transport_bw(gp, phase, delay);  // TLM_ACCEPTED: END_RESP follows, nothing to do
  if (gp.has_mm()) gp.release();
}

void SmBus::release() {
  generation_++;
  for (std::uint32_t slot = 0; slot < owed_.slots(); ++slot) {
    const Owed o = owed_[slot];
    if (o.sm < 0) continue;
    owed_[slot] = Owed{};
    owed_.release(slot);
    respond(o, nullptr, false);  // by index: a request made meanwhile would only add a slot
  }
}

unsigned SmBus::transport_dbg(int, tlm::tlm_generic_payload& gp) {
  if (gp.is_read()) return port_.debug_read(gp.get_address(), gp.get_data_ptr(), gp.get_data_length());
  if (gp.is_write()) return port_.debug_write(gp.get_address(), gp.get_data_ptr(), gp.get_data_length());
  return 0;
}

}  // namespace simtlm::gpu
