// A small rig for tests of the GPU as TLM IP: the GPU bound straight to a configurable memory
// target, and a host thread that drives the control registers through the control socket.
//
// StockTarget behaves as the memory targets a user may bring (the Accellera examples' among
// them): one-phase (TLM_COMPLETED on BEGIN_REQ with an annotated delay) or four-phase AT, with
// or without transport_dbg, refusing byte enables or not, and optionally holding back END_REQ so
// that it serves one transaction at a time, each `service` long. Addresses in [error_lo,
// error_hi) answer TLM_ADDRESS_ERROR_RESPONSE to timed accesses (debug accesses still work, so
// the host can load code there), and timed accesses in [swallow_lo, swallow_hi) are accepted
// and never answered. The test puts data in `memory` directly (a backdoor).
#pragma once

#include <gtest/gtest.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstring>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "isa/kernel.h"
#include "isa/launch.h"
#include "isa/memory.h"
#include "model/gpu/control_regs.h"
#include "model/gpu/gpu.h"
#include "model/mem/sparse_memory.h"

namespace simtlm::test {

// Every object of the SystemC hierarchy under `objects`, depth first, into `out`.
inline void collectObjects(const std::vector<sc_core::sc_object*>& objects, std::vector<sc_core::sc_object*>& out) {
  for (sc_core::sc_object* o : objects) {
    out.push_back(o);
    collectObjects(o->get_child_objects(), out);
  }
}

// The object named `name` (its full hierarchical name) in `all`, or null.
inline sc_core::sc_object* findObject(const std::vector<sc_core::sc_object*>& all, const std::string& name) {
  for (sc_core::sc_object* o : all)
    if (name == o->name()) return o;
  return nullptr;
}

class StockTarget : public sc_core::sc_module {
 public:
  enum class Protocol { OnePhase, FourPhase, HoldEndReq };
  tlm_utils::simple_target_socket<StockTarget> socket;
  mem::SparseMemory memory{uint64_t{1} << 32};
  Protocol protocol = Protocol::FourPhase;
  bool debug = true;               // implements transport_dbg
  bool refuseByteEnables = false;  // answers TLM_BYTE_ENABLE_ERROR_RESPONSE to byte enables
  sc_core::sc_time latency{20, sc_core::SC_NS}, accept{1, sc_core::SC_NS}, service{2, sc_core::SC_US};
  uint64_t error_lo = 0, error_hi = 0, swallow_lo = 0, swallow_hi = 0;
  unsigned timed = 0, withByteEnables = 0, refused = 0, debugCalls = 0;
  std::function<void()> onEnd;  // at the end of the simulation, before the target goes

  SC_HAS_PROCESS(StockTarget);
  explicit StockTarget(sc_core::sc_module_name n) : sc_module(n), socket("socket"), peq_("peq", this, &StockTarget::cb) {
    socket.register_nb_transport_fw(this, &StockTarget::nb_transport_fw);
    socket.register_b_transport(this, &StockTarget::b_transport);
    socket.register_transport_dbg(this, &StockTarget::transport_dbg);
    SC_THREAD(server);
  }

  void put(uint64_t address, const void* data, size_t n) {
    memory.write(address, static_cast<const unsigned char*>(data), n);
  }
  void get(uint64_t address, void* data, size_t n) const {
    memory.read(address, static_cast<unsigned char*>(data), n);
  }

  void end_of_simulation() override {
    if (onEnd) onEnd();
  }

 private:
  bool swallowed(uint64_t a) const { return a >= swallow_lo && a < swallow_hi; }
  void execute(tlm::tlm_generic_payload& gp) {
    ++timed;
    if (gp.get_byte_enable_ptr()) ++withByteEnables;
    const uint64_t a = gp.get_address();
    if (a >= error_lo && a < error_hi) return gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    if (refuseByteEnables && gp.get_byte_enable_ptr()) {
      ++refused;
      return gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    }
    memory.access(gp);
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    if (swallowed(gp.get_address())) return sc_core::wait(sc_core::sc_time(1, sc_core::SC_SEC));
    execute(gp);
    delay += latency;
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) {
    ++debugCalls;
    if (!debug) return 0;
    return memory.access(gp) == tlm::TLM_OK_RESPONSE ? gp.get_data_length() : 0;
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    if (phase == tlm::END_RESP) {
      gp.release();
      return tlm::TLM_COMPLETED;
    }
    if (swallowed(gp.get_address())) {  // accepted, never answered
      phase = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    switch (protocol) {
      case Protocol::OnePhase:
        execute(gp);
        delay += latency;
        return tlm::TLM_COMPLETED;
      case Protocol::FourPhase:
        gp.acquire();
        execute(gp);
        peq_.notify(gp, tlm::END_REQ, delay + accept);
        peq_.notify(gp, tlm::BEGIN_RESP, delay + latency);
        return tlm::TLM_ACCEPTED;
      case Protocol::HoldEndReq:
        gp.acquire();
        held_.push_back(&gp);
        wake_.notify(delay);
        return tlm::TLM_ACCEPTED;
    }
    return tlm::TLM_ACCEPTED;
  }
  // Four-phase: END_REQ, then BEGIN_RESP (the initiator answers TLM_ACCEPTED and sends END_RESP).
  void cb(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase) {
    tlm::tlm_phase p = phase;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    socket->nb_transport_bw(gp, p, d);
  }
  // HoldEndReq: the request phase of each transaction lasts until it has been served.
  void server() {
    for (;;) {
      while (held_.empty()) wait(wake_);
      tlm::tlm_generic_payload* gp = held_.front();
      held_.pop_front();
      wait(service);
      execute(*gp);
      tlm::tlm_phase p = tlm::BEGIN_RESP;  // implies END_REQ
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      socket->nb_transport_bw(*gp, p, d);
    }
  }
  tlm_utils::peq_with_cb_and_phase<StockTarget> peq_;
  std::deque<tlm::tlm_generic_payload*> held_;
  sc_core::sc_event wake_;
};

// A host that runs a script in a thread: register accesses through the control socket, data
// through the target's backdoor.
struct ScriptHost : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<ScriptHost> control{"control"};
  sc_core::sc_in<bool> irq{"irq"};
  std::function<void(ScriptHost&)> script;
  std::function<void()> onDone = [] { sc_core::sc_stop(); };  // after the script
  StockTarget* memory = nullptr;

  SC_HAS_PROCESS(ScriptHost);
  explicit ScriptHost(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  void run() {
    script(*this);
    if (onDone) onDone();
  }

  tlm::tlm_response_status access(tlm::tlm_command cmd, model::Reg r, uint32_t& value) {
    tlm::tlm_generic_payload p;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    p.set_command(cmd);
    p.set_address(static_cast<uint32_t>(r));
    p.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    p.set_data_length(4);
    p.set_streaming_width(4);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    control->b_transport(p, delay);
    wait(delay);
    return p.get_response_status();
  }
  void write(model::Reg r, uint32_t v) { EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, r, v), tlm::TLM_OK_RESPONSE); }
  uint32_t read(model::Reg r) {
    uint32_t v = 0xDEADBEEF;
    EXPECT_EQ(access(tlm::TLM_READ_COMMAND, r, v), tlm::TLM_OK_RESPONSE);
    return v;
  }

  // Places the code at `entry`, the parameters after it and the buffers of `mem`, programs the
  // launch registers and writes LAUNCH.
  void launch(const isa::Kernel& k, const isa::LaunchConfig& l, const isa::GlobalMemory& mem,
              uint32_t entry = 0x01000000) {
    memory->put(entry, k.code.data(), k.code.size() * 8);
    const uint32_t params = entry + static_cast<uint32_t>((k.code.size() * 8 + 255) / 256 * 256);
    if (!l.params.empty()) memory->put(params, l.params.data(), l.params.size() * 4);
    for (const auto& r : mem.regions())
      if (!r.bytes.empty()) memory->put(r.base, r.bytes.data(), r.bytes.size());
    using model::Reg;
    write(Reg::Entry, entry);
    write(Reg::GridX, l.grid.x);
    write(Reg::GridY, l.grid.y);
    write(Reg::GridZ, l.grid.z);
    write(Reg::BlockX, l.block.x);
    write(Reg::BlockY, l.block.y);
    write(Reg::BlockZ, l.block.z);
    write(Reg::ParamAddr, params);
    write(Reg::ParamWords, static_cast<uint32_t>(l.params.size()));
    write(Reg::SharedBytes, k.sharedBytes);
    write(Reg::RegsPerThread, static_cast<uint32_t>(k.numRegs));
    write(Reg::NumInstrs, static_cast<uint32_t>(k.size()));
    write(Reg::IrqEnable, 1);
    write(Reg::Launch, 1);
  }
  // Waits for completion (at most `timeout`); returns ERROR_CODE and acknowledges, or returns
  // ~0u when the kernel did not complete in time.
  uint32_t wait_done(sc_core::sc_time timeout = sc_core::sc_time(10, sc_core::SC_MS)) {
    if (!(read(model::Reg::Status) & model::kDone) && !irq.read()) wait(timeout, irq.posedge_event());
    if (!(read(model::Reg::Status) & model::kDone)) return ~0u;
    const uint32_t err = read(model::Reg::ErrorCode);
    write(model::Reg::Status, model::kDone | model::kError);
    return err;
  }
  // Reads a buffer of `mem` back from the target.
  std::vector<uint32_t> words(const isa::GlobalMemory& mem, const std::string& name) const {
    for (const auto& r : mem.regions())
      if (r.name == name) {
        std::vector<uint32_t> w(r.bytes.size() / 4);
        memory->get(r.base, w.data(), r.bytes.size());
        return w;
      }
    ADD_FAILURE() << "no buffer " << name;
    return {};
  }
};

// The GPU bound straight to a StockTarget, and a ScriptHost on its control socket.
struct Rig : sc_core::sc_module {
  const config::GpuConfig cfg;  // the GPU keeps a reference
  gpu::Gpu gpu;
  StockTarget target{"target"};
  ScriptHost host{"host"};
  sc_core::sc_signal<bool> irq{"irq_sig"};
  Rig(sc_core::sc_module_name n, const config::GpuConfig& cfg, stats::Registry& stats)
      : sc_module(n), cfg(cfg), gpu("gpu", this->cfg, stats) {
    gpu.port.to_memory.bind(target.socket);
    host.control.bind(gpu.regs.control);
    gpu.irq(irq);
    host.irq(irq);
    host.memory = &target;
  }
};

}  // namespace simtlm::test
