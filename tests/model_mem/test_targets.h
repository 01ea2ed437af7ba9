// Small TLM-2.0 targets for the memory-side tests. ScriptedTarget takes one legal base-protocol
// behaviour and checks the initiator side of the protocol with ADD_FAILURE: no BEGIN_REQ while a
// request is open, END_RESP only for the response in progress.
#pragma once

#include <gtest/gtest.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

namespace simtlm::test {

enum class Behavior {
  FourPhase,               // ACCEPTED; END_REQ on bw after accept; BEGIN_RESP on bw after latency
  CompleteOnBeginReq,      // TLM_COMPLETED on BEGIN_REQ, delay = latency
  UpdatedEndReq,           // TLM_UPDATED with END_REQ; BEGIN_RESP on bw later
  UpdatedBeginResp,        // TLM_UPDATED with BEGIN_RESP, delay = latency
  BeginRespWithoutEndReq,  // ACCEPTED; BEGIN_RESP on bw later, no END_REQ ever
  OutOfOrder,              // four-phase, latency (group - seq % group) * latency: reversed groups
};

inline const char* behavior_name(Behavior b) {
  switch (b) {
    case Behavior::FourPhase: return "FourPhase";
    case Behavior::CompleteOnBeginReq: return "CompleteOnBeginReq";
    case Behavior::UpdatedEndReq: return "UpdatedEndReq";
    case Behavior::UpdatedBeginResp: return "UpdatedBeginResp";
    case Behavior::BeginRespWithoutEndReq: return "BeginRespWithoutEndReq";
    case Behavior::OutOfOrder: return "OutOfOrder";
  }
  return "?";
}

// Byte-wise functional memory with byte enables; addresses >= error_base answer error_status.
struct TestMemory {
  std::vector<unsigned char> bytes = std::vector<unsigned char>(1 << 20, 0);
  std::uint64_t error_base = ~std::uint64_t{0};
  tlm::tlm_response_status error_status = tlm::TLM_GENERIC_ERROR_RESPONSE;

  void execute(tlm::tlm_generic_payload& gp) {
    const std::uint64_t a = gp.get_address();
    const unsigned len = gp.get_data_length();
    if (a >= error_base) return gp.set_response_status(error_status);
    if (a + len > bytes.size()) return gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    const unsigned char* be = gp.get_byte_enable_ptr();
    for (unsigned i = 0; i < len; ++i) {
      if (be && !be[i % gp.get_byte_enable_length()]) continue;
      if (gp.is_read()) gp.get_data_ptr()[i] = bytes[a + i];
      else bytes[a + i] = gp.get_data_ptr()[i];
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

class ScriptedTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ScriptedTarget> socket;
  TestMemory memory;
  Behavior behavior;
  sc_core::sc_time accept_delay{2, sc_core::SC_NS}, latency{10, sc_core::SC_NS};
  unsigned group = 4;
  unsigned begin_reqs = 0, end_resps = 0, responses = 0, fallbacks = 0, outstanding = 0,
           max_outstanding = 0;

  ScriptedTarget(sc_core::sc_module_name name, Behavior b)
      : sc_module(name), socket("socket"), behavior(b), peq_("peq", this, &ScriptedTarget::cb) {
    socket.register_nb_transport_fw(this, &ScriptedTarget::nb_transport_fw);
  }

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) {
    if (phase == tlm::END_RESP) {
      if (delay == sc_core::SC_ZERO_TIME) end_resp(gp);
      else peq_.notify(gp, phase, delay);
      return tlm::TLM_COMPLETED;
    }
    if (phase != tlm::BEGIN_REQ) {
      ADD_FAILURE() << "illegal phase " << phase.get_name();
      return tlm::TLM_COMPLETED;
    }
    if (request_open_) ADD_FAILURE() << "BEGIN_REQ before END_REQ at " << sc_core::sc_time_stamp();
    ++begin_reqs;
    if (++outstanding > max_outstanding) max_outstanding = outstanding;
    gp.acquire();
    memory.execute(gp);
    const unsigned seq = begin_reqs - 1;
    switch (behavior) {
      case Behavior::FourPhase:
      case Behavior::OutOfOrder: {
        request_open_ = &gp;
        peq_.notify(gp, tlm::END_REQ, delay + accept_delay);
        const double k = behavior == Behavior::OutOfOrder ? group - seq % group : 1;
        peq_.notify(gp, tlm::BEGIN_RESP, delay + latency * k);
        return tlm::TLM_ACCEPTED;
      }
      case Behavior::CompleteOnBeginReq:
        delay += latency;
        ++responses;
        --outstanding;
        gp.release();
        return tlm::TLM_COMPLETED;
      case Behavior::UpdatedEndReq:
        phase = tlm::END_REQ;
        delay += accept_delay;
        peq_.notify(gp, tlm::BEGIN_RESP, delay + latency);
        return tlm::TLM_UPDATED;
      case Behavior::UpdatedBeginResp:
        if (response_open_ || !ready_.empty()) break;  // response channel busy: fall back
        phase = tlm::BEGIN_RESP;
        delay += latency;
        response_open_ = &gp;
        ++responses;
        return tlm::TLM_UPDATED;
      case Behavior::BeginRespWithoutEndReq:
        break;
    }
    if (behavior == Behavior::UpdatedBeginResp) ++fallbacks;
    request_open_ = &gp;
    peq_.notify(gp, tlm::BEGIN_RESP, delay + latency);
    return tlm::TLM_ACCEPTED;
  }

  void cb(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase) {
    if (phase == tlm::END_REQ) {
      if (request_open_ != &gp) return;  // already implied by BEGIN_RESP
      request_open_ = nullptr;
      tlm::tlm_phase p = tlm::END_REQ;
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      EXPECT_EQ(socket->nb_transport_bw(gp, p, d), tlm::TLM_ACCEPTED);
    } else if (phase == tlm::BEGIN_RESP) {
      ready_.push_back(&gp);
      send();
    } else {
      end_resp(gp);
    }
  }

  void send() {
    if (response_open_ || ready_.empty()) return;
    tlm::tlm_generic_payload* gp = ready_.front();
    ready_.pop_front();
    if (request_open_ == gp) request_open_ = nullptr;
    response_open_ = gp;
    ++responses;
    tlm::tlm_phase p = tlm::BEGIN_RESP;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    if (socket->nb_transport_bw(*gp, p, d) != tlm::TLM_ACCEPTED) peq_.notify(*gp, tlm::END_RESP, d);
  }

  void end_resp(tlm::tlm_generic_payload& gp) {
    if (response_open_ != &gp) ADD_FAILURE() << "END_RESP for a transaction not in response";
    response_open_ = nullptr;
    ++end_resps;
    --outstanding;
    gp.release();
    send();
  }

  tlm_utils::peq_with_cb_and_phase<ScriptedTarget> peq_;
  tlm::tlm_generic_payload* request_open_ = nullptr;
  tlm::tlm_generic_payload* response_open_ = nullptr;
  std::deque<tlm::tlm_generic_payload*> ready_;
};

// A loosely-timed target: b_transport only. Records whether each call came from a process whose
// name contains `expected_caller` (so an nb-to-b adapter would be noticed).
class LtOnlyTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<LtOnlyTarget> socket;
  TestMemory memory;
  sc_core::sc_time latency{5, sc_core::SC_NS};
  std::string expected_caller = "lt_thread";
  unsigned calls = 0, foreign_calls = 0;

  explicit LtOnlyTarget(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
    socket.register_b_transport(this, &LtOnlyTarget::b_transport);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    ++calls;
    if (std::string(sc_core::sc_get_current_process_handle().name()).find(expected_caller) ==
        std::string::npos)
      ++foreign_calls;
    memory.execute(gp);
    delay += latency;
  }
};

// A bare initiator for debug transport, DMI and b_transport checks.
struct ProbeInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<ProbeInitiator> socket;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> invalidations;
  explicit ProbeInitiator(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
    socket.register_invalidate_direct_mem_ptr(this, &ProbeInitiator::invalidate);
  }
  void invalidate(sc_dt::uint64 s, sc_dt::uint64 e) { invalidations.emplace_back(s, e); }
  static void fill(tlm::tlm_generic_payload& gp, tlm::tlm_command cmd, std::uint64_t a,
                   unsigned char* d, unsigned n) {
    gp.set_command(cmd);
    gp.set_address(a);
    gp.set_data_ptr(d);
    gp.set_data_length(n);
    gp.set_streaming_width(n);
    gp.set_byte_enable_ptr(nullptr);
    gp.set_byte_enable_length(0);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  }
};

}  // namespace simtlm::test
