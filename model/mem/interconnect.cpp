#include "model/mem/interconnect.h"

#include <algorithm>
#include <string>

namespace simtlm::mem {

using namespace sc_core;

Interconnect::Interconnect(sc_module_name name, const InterconnectConfig& config)
    : sc_module(name),
      from_initiators("from_initiators"),
      to_targets("to_targets"),
      config_(config),
      fw_peq_("fw_peq", this, &Interconnect::from_initiator),
      bw_peq_("bw_peq", this, &Interconnect::from_target) {
  from_initiators.register_nb_transport_fw(this, &Interconnect::nb_transport_fw);
  from_initiators.register_b_transport(this, &Interconnect::b_transport);
  from_initiators.register_transport_dbg(this, &Interconnect::transport_dbg);
  from_initiators.register_get_direct_mem_ptr(this, &Interconnect::get_direct_mem_ptr);
  to_targets.register_nb_transport_bw(this, &Interconnect::nb_transport_bw);
  to_targets.register_invalidate_direct_mem_ptr(this, &Interconnect::invalidate_direct_mem_ptr);
}

void Interconnect::map(unsigned target, std::uint64_t base, std::uint64_t size, bool translate) {
  if (size == 0 || base + (size - 1) < base)
    SC_REPORT_FATAL(name(), "map: empty range or range wraps around the address space");
  for (const Range& r : ranges_)
    if (base <= r.base + (r.size - 1) && r.base <= base + (size - 1))
      SC_REPORT_FATAL(name(), "map: range overlaps an existing range");
  ranges_.push_back({base, size, target, translate, {}, {}});
}

void Interconnect::mapInterleaved(std::uint64_t base, std::uint64_t size,
                                  std::vector<unsigned> targets, std::uint64_t granule,
                                  Selector select) {
  if (targets.empty() || !select || granule == 0)
    SC_REPORT_FATAL(name(), "mapInterleaved: no targets, no selector or granule 0");
  map(targets[0], base, size, false);
  ranges_.back().targets = std::move(targets);
  ranges_.back().select = std::move(select);
  ranges_.back().granule = granule;
}

const Interconnect::Range* Interconnect::decode(std::uint64_t address) const {
  for (const Range& r : ranges_)
    if (address >= r.base && address - r.base < r.size) return &r;
  return nullptr;
}

void Interconnect::end_of_elaboration() {
  const unsigned targets = to_targets.size(), initiators = from_initiators.size();
  for (const Range& r : ranges_)
    for (unsigned t : r.targets.empty() ? std::vector<unsigned>{r.target} : r.targets)
      if (t >= targets)
        SC_REPORT_FATAL(name(), ("range mapped to target " + std::to_string(t) + " but only " +
                                 std::to_string(targets) + " bound").c_str());
  request_queue_.resize(targets);
  request_open_.assign(targets, nullptr);
  initiator_request_open_.assign(initiators, false);
  response_queue_.resize(initiators);
  response_open_.assign(initiators, nullptr);
}

const Interconnect::Range* Interconnect::route_or_error(gp_t& gp) {
  const Range* r = decode(gp.get_address());
  if (!r) {
    ++stats_.unmapped;
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }
  return r;
}

tlm::tlm_sync_enum Interconnect::nb_transport_fw(int id, gp_t& gp, tlm::tlm_phase& phase,
                                                 sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    if (initiator_request_open_[id])
      SC_REPORT_FATAL(name(), "initiator sent BEGIN_REQ before END_REQ of its previous request");
    const Range* r = route_or_error(gp);
    if (!r) return tlm::TLM_COMPLETED;
    ++stats_.requests;
    initiator_request_open_[id] = true;
    gp.acquire();
    const std::uint64_t a = gp.get_address();
    Route* old = routes_.find(&gp);  // (a payload reused before its END_RESP was taken: replaced, as before)
    (old ? *old : routes_.insert(&gp)) = Route{static_cast<unsigned>(id), r->targetOf(a), a, r->translate ? a - r->base : a, true};
    fw_peq_.notify(gp, phase, delay + config_.request_delay);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::END_RESP) {
    fw_peq_.notify(gp, phase, delay);
    return tlm::TLM_COMPLETED;
  }
  SC_REPORT_FATAL(name(), "illegal phase from an initiator");
  return tlm::TLM_COMPLETED;
}

Interconnect::Route& Interconnect::route(gp_t& gp) {
  Route* r = routes_.find(&gp);
  if (!r) SC_REPORT_FATAL(name(), "a transaction that is not in flight");
  return *r;
}

void Interconnect::from_initiator(gp_t& gp, const tlm::tlm_phase& phase) {
  Route& route = this->route(gp);
  if (phase == tlm::BEGIN_REQ) {
    request_queue_[route.target].push_back(&gp);
    send_request(route.target);
    return;
  }
  const unsigned i = route.initiator;  // END_RESP
  if (response_open_[i] != &gp) SC_REPORT_FATAL(name(), "END_RESP for a transaction not in response");
  response_open_[i] = nullptr;
  routes_.erase(&gp);  // (`route` is not used after this)
  gp.release();
  send_response(i);
}

void Interconnect::send_request(unsigned target) {
  if (request_open_[target] || request_queue_[target].empty()) return;
  gp_t* gp = request_queue_[target].front();
  request_queue_[target].pop_front();
  request_open_[target] = gp;
  gp->set_address(route(*gp).target_address);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_time delay = SC_ZERO_TIME;
  switch (to_targets[target]->nb_transport_fw(*gp, phase, delay)) {
    case tlm::TLM_ACCEPTED:
      break;
    case tlm::TLM_UPDATED:
      if (phase != tlm::END_REQ && phase != tlm::BEGIN_RESP)
        SC_REPORT_FATAL(name(), "target returned TLM_UPDATED with an illegal phase on BEGIN_REQ");
      if (phase == tlm::BEGIN_RESP) {
        route(*gp).target_end_resp = true;
        delay += config_.response_delay;
      }
      bw_peq_.notify(*gp, phase, delay);
      break;
    case tlm::TLM_COMPLETED:
      bw_peq_.notify(*gp, tlm::BEGIN_RESP, delay + config_.response_delay);
      break;
  }
}

tlm::tlm_sync_enum Interconnect::nb_transport_bw(int, gp_t& gp, tlm::tlm_phase& phase,
                                                 sc_time& delay) {
  if (!routes_.contains(&gp)) SC_REPORT_FATAL(name(), "backward call for an unknown transaction");
  if (phase == tlm::END_REQ) {
    bw_peq_.notify(gp, phase, delay);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {  // take the response now; the target is free at once
    bw_peq_.notify(gp, phase, delay + config_.response_delay);
    return tlm::TLM_COMPLETED;
  }
  SC_REPORT_FATAL(name(), "illegal phase from a target");
  return tlm::TLM_COMPLETED;
}

void Interconnect::from_target(gp_t& gp, const tlm::tlm_phase& phase) {
  Route& route = this->route(gp);
  if (phase == tlm::BEGIN_RESP && route.target_end_resp) {
    // The target answered BEGIN_REQ with TLM_UPDATED(BEGIN_RESP) and expects END_RESP on the
    // forward path; send it before the next request so its response channel is free again.
    tlm::tlm_phase p = tlm::END_RESP;
    sc_time delay = SC_ZERO_TIME;
    to_targets[route.target]->nb_transport_fw(gp, p, delay);
  }
  if (request_open_[route.target] == &gp) {  // END_REQ, or implied by BEGIN_RESP
    request_open_[route.target] = nullptr;
    send_request(route.target);
  }
  if (route.request_open) {
    route.request_open = false;
    initiator_request_open_[route.initiator] = false;
    tlm::tlm_phase p = tlm::END_REQ;
    sc_time delay = SC_ZERO_TIME;
    from_initiators[route.initiator]->nb_transport_bw(gp, p, delay);
  }
  if (phase == tlm::BEGIN_RESP) {
    gp.set_address(route.address);
    response_queue_[route.initiator].push_back(&gp);
    send_response(route.initiator);
  }
}

void Interconnect::send_response(unsigned initiator) {
  if (response_open_[initiator] || response_queue_[initiator].empty()) return;
  gp_t* gp = response_queue_[initiator].front();
  response_queue_[initiator].pop_front();
  response_open_[initiator] = gp;
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_time delay = SC_ZERO_TIME;
  if (from_initiators[initiator]->nb_transport_bw(*gp, phase, delay) != tlm::TLM_ACCEPTED)
    fw_peq_.notify(*gp, tlm::END_RESP, delay);  // TLM_UPDATED(END_RESP) or TLM_COMPLETED
}

void Interconnect::b_transport(int, gp_t& gp, sc_time& delay) {
  const Range* r = route_or_error(gp);
  if (!r) return;
  ++stats_.blocking;
  const std::uint64_t a = gp.get_address();
  if (r->translate) gp.set_address(a - r->base);
  delay += config_.request_delay;
  to_targets[r->targetOf(a)]->b_transport(gp, delay);
  delay += config_.response_delay;
  gp.set_address(a);
}

unsigned Interconnect::transport_dbg(int, gp_t& gp) {
  const Range* r = route_or_error(gp);
  if (!r) return 0;
  ++stats_.debug;
  const std::uint64_t a = gp.get_address();
  if (!r->targets.empty()) return interleaved_dbg(*r, gp);
  if (r->translate) gp.set_address(a - r->base);
  const unsigned n = to_targets[r->target]->transport_dbg(gp);
  gp.set_address(a);
  return n;
}

unsigned Interconnect::interleaved_dbg(const Range& r, gp_t& gp) {
  // One piece per granule, each to its own target; the payload is restored afterwards.
  const std::uint64_t a = gp.get_address();
  const unsigned len = gp.get_data_length();
  unsigned char* data = gp.get_data_ptr();
  unsigned done = 0;
  while (done < len) {
    const std::uint64_t at = a + done;
    const std::uint64_t end = std::min<std::uint64_t>(a + len, (at / r.granule + 1) * r.granule);
    if (at - r.base >= r.size) break;  // past the range: the rest is not moved
    const unsigned n = static_cast<unsigned>(end - at);
    gp.set_address(at);
    gp.set_data_ptr(data + done);
    gp.set_data_length(n);
    const unsigned moved = to_targets[r.targetOf(at)]->transport_dbg(gp);
    done += moved;
    if (moved < n) break;
  }
  gp.set_address(a);
  gp.set_data_ptr(data);
  gp.set_data_length(len);
  return done;
}

bool Interconnect::get_direct_mem_ptr(int, gp_t& gp, tlm::tlm_dmi& dmi) {
  const Range* r = decode(gp.get_address());
  if (!r || !r->targets.empty()) return false;
  const std::uint64_t a = gp.get_address(), shift = r->translate ? r->base : 0;
  gp.set_address(a - shift);
  const bool ok = to_targets[r->target]->get_direct_mem_ptr(gp, dmi);
  gp.set_address(a);
  if (!ok) return false;
  // Back to initiator addresses, clipped to the mapped range.
  std::uint64_t start = dmi.get_start_address() + shift, end = dmi.get_end_address() + shift;
  const std::uint64_t last = r->base + (r->size - 1);
  if (start < r->base) {
    if (dmi.get_dmi_ptr()) dmi.set_dmi_ptr(dmi.get_dmi_ptr() + (r->base - start));
    start = r->base;
  }
  if (end > last) end = last;
  dmi.set_start_address(start);
  dmi.set_end_address(end);
  return true;
}

void Interconnect::invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end) {
  for (const Range& r : ranges_) {
    if (r.target != static_cast<unsigned>(id) && r.targets.empty()) continue;
    const std::uint64_t shift = r.translate ? r.base : 0, last = r.base + (r.size - 1);
    std::uint64_t s = start + shift, e = end + shift;
    if (end + shift < end) e = last;  // overflow: whole range
    if (s < r.base) s = r.base;
    if (e > last) e = last;
    if (s > e) continue;
    for (unsigned i = 0; i < from_initiators.size(); ++i)
      from_initiators[i]->invalidate_direct_mem_ptr(s, e);
  }
}

}  // namespace simtlm::mem
