// Interconnect: routes TLM-2.0 base-protocol traffic by address from N initiators (bound to the
// multi-socket `from_initiators`) to M targets (bound to `to_targets`, in binding order 0..M-1).
//
// map(target, base, size, translate): addresses [base, base+size) go to target; with translate
// the target sees address - base (DMI regions and invalidations are translated back).
// Unmapped addresses: TLM_ADDRESS_ERROR_RESPONSE (BEGIN_REQ is answered TLM_COMPLETED at once;
// b_transport sets the status; transport_dbg moves 0 bytes; DMI is refused).
//
// AT: one request in flight per target (others wait in a FIFO; each initiator gets END_REQ when
// its target ends the request phase), responses are taken from targets at once (TLM_COMPLETED on
// BEGIN_RESP, so a target is never held by a slow initiator) and delivered to each initiator one
// at a time, waiting for END_RESP. request_delay / response_delay are added on the way.
// b_transport, transport_dbg and get_direct_mem_ptr are forwarded (with the delays for
// b_transport); invalidate_direct_mem_ptr is broadcast to all initiators.
//
// mapInterleaved(base, size, targets, granule, select): the range is spread over several targets
// (the slices of an L2) by address, untranslated: an access goes to targets[select(address)],
// chosen by its first byte (initiators keep timed accesses within one granule); transport_dbg is
// split at granule boundaries and each piece goes to its own target; DMI is refused.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include "model/mem/payload_map.h"
#include "model/mem/timed_peq.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

namespace simtlm::mem {

struct InterconnectConfig {
  sc_core::sc_time request_delay = sc_core::SC_ZERO_TIME;   // initiator to target
  sc_core::sc_time response_delay = sc_core::SC_ZERO_TIME;  // target to initiator
};

class Interconnect : public sc_core::sc_module {
 public:
  using Selector = std::function<unsigned(std::uint64_t)>;
  struct Range {
    std::uint64_t base, size;
    unsigned target;
    bool translate;
    std::vector<unsigned> targets;  // interleaved: the targets select() indexes
    Selector select;
    std::uint64_t granule = 0;      // interleaved: no target changes within an aligned granule
    unsigned targetOf(std::uint64_t address) const {
      return targets.empty() ? target : targets[select(address)];
    }
  };
  struct Stats {
    std::uint64_t requests = 0, unmapped = 0, debug = 0, blocking = 0;
  };

  tlm_utils::multi_passthrough_target_socket<Interconnect> from_initiators;
  tlm_utils::multi_passthrough_initiator_socket<Interconnect> to_targets;

  Interconnect(sc_core::sc_module_name name, const InterconnectConfig& config);
  explicit Interconnect(sc_core::sc_module_name name) : Interconnect(name, InterconnectConfig{}) {}

  // Overlapping ranges and size 0 are errors; target indices are checked at end of elaboration.
  void map(unsigned target, std::uint64_t base, std::uint64_t size, bool translate = true);
  void mapInterleaved(std::uint64_t base, std::uint64_t size, std::vector<unsigned> targets,
                      std::uint64_t granule, Selector select);
  const Range* decode(std::uint64_t address) const;
  const Stats& stats() const { return stats_; }

 private:
  struct Route {
    unsigned initiator = 0, target = 0;
    std::uint64_t address = 0, target_address = 0;
    bool request_open = false;  // the initiator still waits for END_REQ
    bool target_end_resp = false;  // target answered BEGIN_REQ with TLM_UPDATED(BEGIN_RESP)
  };
  using gp_t = tlm::tlm_generic_payload;

  void end_of_elaboration() override;
  tlm::tlm_sync_enum nb_transport_fw(int id, gp_t& gp, tlm::tlm_phase& phase, sc_core::sc_time& d);
  tlm::tlm_sync_enum nb_transport_bw(int id, gp_t& gp, tlm::tlm_phase& phase, sc_core::sc_time& d);
  void b_transport(int id, gp_t& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(int id, gp_t& gp);
  unsigned interleaved_dbg(const Range& r, gp_t& gp);
  bool get_direct_mem_ptr(int id, gp_t& gp, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end);
  void from_initiator(gp_t& gp, const tlm::tlm_phase& phase);  // BEGIN_REQ, END_RESP
  void from_target(gp_t& gp, const tlm::tlm_phase& phase);     // END_REQ, BEGIN_RESP
  void send_request(unsigned target);
  void send_response(unsigned initiator);
  const Range* route_or_error(gp_t& gp);

  InterconnectConfig config_;
  std::vector<Range> ranges_;
  TimedPeq<Interconnect> fw_peq_, bw_peq_;
  PayloadMap<Route> routes_;  // by payload; a Route stays where it is while its payload is in flight
  Route& route(gp_t& gp);
  std::vector<std::deque<gp_t*>> request_queue_;  // per target
  std::vector<gp_t*> request_open_;               // per target
  std::vector<bool> initiator_request_open_;      // per initiator, protocol check
  std::vector<std::deque<gp_t*>> response_queue_; // per initiator
  std::vector<gp_t*> response_open_;              // per initiator
  Stats stats_;
};

}  // namespace simtlm::mem
