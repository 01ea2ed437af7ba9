// MemPort: the GPU's memory initiator (used by the I-cache and the L1). Callers submit reads and
// writes with a completion callback; the port speaks the TLM-2.0 base protocol through its
// initiator socket `to_memory`, approximately-timed (nb_transport_fw/bw) or loosely-timed
// (b_transport), selected by configuration.
//
// AT rules kept: at most one transaction in its request phase (no BEGIN_REQ before the previous
// END_REQ, BEGIN_RESP or TLM_COMPLETED; a target's TLM_COMPLETED ends the request phase when
// it is returned, whatever delay it annotates for the response); every legal target behaviour is accepted (TLM_COMPLETED
// or TLM_UPDATED on BEGIN_REQ, BEGIN_RESP without END_REQ, out-of-order responses, annotated
// delays honoured through a payload event queue, timed_peq.h); END_RESP is sent for every BEGIN_RESP
// received on the backward path. Requests wait in a FIFO while the request channel is busy.
//
// Callbacks run in SystemC method context at the simulated time the response arrives and must
// not call wait(); they may submit new requests. The response status is always delivered.
#pragma once

#include "model/mem/atomic_extension.h"
#include "model/mem/downstream.h"
#include "model/mem/mem_manager.h"

#include <systemc>
#include <tlm>
#include "model/mem/timed_peq.h"
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

namespace simtlm::mem {

struct MemResult {
  std::uint64_t id = 0;             // as returned by submit()
  tlm::tlm_command command = tlm::TLM_READ_COMMAND;
  std::uint64_t address = 0;
  unsigned size = 0;
  const unsigned char* data = nullptr;  // read data (valid during the callback only)
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  sc_core::sc_time submitted, completed;
  bool ok() const { return status == tlm::TLM_OK_RESPONSE; }
};

class MemPort : public sc_core::sc_module {
 public:
  enum class Mode { ApproximatelyTimed, LooselyTimed };
  struct Config {
    Mode mode = Mode::ApproximatelyTimed;
    unsigned max_outstanding = 0;  // transactions in flight at once; 0 = unlimited
    // Immediate (an SM's port, model/sm/sm_module.h): in AT mode a request is sent from within
    // submit() when the request channel is free, and a phase the target hands back with no
    // delay (TLM_UPDATED, TLM_COMPLETED, or on the backward path) is acted on at once, the
    // response callback included (the port answers BEGIN_RESP with TLM_COMPLETED). A target
    // that answers at once thus adds no delta cycle. The mode may then be changed by set_mode()
    // until the simulation starts.
    bool immediate = false;
  };
  struct Stats {
    std::uint64_t transactions = 0, reads = 0, writes = 0, errors = 0;
    std::uint64_t atomics = 0;  // also counted in reads
    std::uint64_t bytes_read = 0, bytes_written = 0;
    std::uint64_t latency_sum_ps = 0;  // submit to completion, summed over transactions
    std::uint64_t max_in_flight = 0;
  };
  using Callback = std::function<void(const MemResult&)>;

  tlm_utils::simple_initiator_socket<MemPort> to_memory;

  SC_HAS_PROCESS(MemPort);
  MemPort(sc_core::sc_module_name name, const Config& config);
  explicit MemPort(sc_core::sc_module_name name) : MemPort(name, Config{}) {}

  // Queue a transaction; returns its id. `byte_enable` may be null (all bytes enabled); if
  // given, it holds `byte_enable_length` bytes (0x00 disabled, 0xff enabled), repeated over the
  // data as in TLM-2.0. Data is copied at submission.
  std::uint64_t submit(tlm::tlm_command command, std::uint64_t address, unsigned size,
                       const unsigned char* write_data, Callback done,
                       const unsigned char* byte_enable = nullptr,
                       unsigned byte_enable_length = 0);
  std::uint64_t read(std::uint64_t address, unsigned size, Callback done) {
    return submit(tlm::TLM_READ_COMMAND, address, size, nullptr, std::move(done));
  }
  std::uint64_t write(std::uint64_t address, const unsigned char* data, unsigned size,
                      Callback done, const unsigned char* byte_enable = nullptr,
                      unsigned byte_enable_length = 0) {
    return submit(tlm::TLM_WRITE_COMMAND, address, size, data, std::move(done), byte_enable,
                  byte_enable_length);
  }

  // The same with a Downstream completion (the SM-side caches' callbacks, called as they are:
  // read data or null, and whether the response is OK), kept as it is, without a wrapper.
  std::uint64_t downstream_read(std::uint64_t address, unsigned size, Downstream::Done done);
  std::uint64_t downstream_write(std::uint64_t address, const unsigned char* data, unsigned size, Downstream::Done done);
  std::uint64_t downstream_atomic(std::uint64_t address, isa::Op op, const WordOps& ops, Downstream::Done done);
  std::uint64_t downstream_read_to(std::uint64_t address, unsigned size, Downstream::Receiver& to, std::uint64_t tag);

  // An atomic (see atomic_extension.h): a TLM_READ_COMMAND of 4 * ops.count bytes at `address`
  // carrying an AtomicExtension; the result data holds the old word of each op, in op order.
  std::uint64_t atomic(std::uint64_t address, isa::Op op, const WordOps& ops, Callback done);

  // Untimed debug access through transport_dbg (for loaders and checks); returns bytes moved.
  unsigned debug_read(std::uint64_t address, unsigned char* data, unsigned size);
  unsigned debug_write(std::uint64_t address, const unsigned char* data, unsigned size);

  // Forgets the requests not sent yet (their callbacks are never called): a GPU that releases a
  // faulted kernel drops what the kernel still had queued. Transactions already sent complete.
  void drop_queued();

  std::size_t queued() const { return queue_.size(); }
  bool idle() const { return queue_.empty() && inflight_ == 0; }
  const Stats& stats() const { return stats_; }
  const Config& config() const { return config_; }
  // An immediate port only, before the simulation starts (the owner learns at the end of
  // elaboration what its socket is bound to).
  void set_mode(Mode mode);

 private:
  // A transaction's record, from submission to completion: an extension of the payload (set once
  // on each pooled payload, kept across its reuses), so that a payload leads to its record in one
  // index whichever port or target hands it back.
  struct Txn : tlm::tlm_extension<Txn> {
    const MemPort* port = nullptr;  // the owner: a payload of another port has none of ours
    std::uint64_t id = 0;
    std::uint64_t address = 0;  // as submitted (an interconnect may rewrite the payload's)
    Callback done;              // one of done, plain and receiver
    Downstream::Done plain;
    Downstream::Receiver* receiver = nullptr;  // answered with tag
    std::uint64_t tag = 0;
    sc_core::sc_time submitted;
    bool completed_by_target = false;  // TLM_COMPLETED seen: no END_RESP to send
    bool live = false;                 // in flight
    tlm::tlm_extension_base* clone() const override { return nullptr; }  // never copied
    void copy_from(const tlm::tlm_extension_base&) override {}
    void free() override {}  // owned by the port (records_)
  };

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) {}
  void peq_callback(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase);
  std::uint64_t enqueue(tlm::tlm_generic_payload* gp, std::uint64_t address, Callback done,
                        Downstream::Done plain = nullptr);
  Txn& enqueued(tlm::tlm_generic_payload* gp, std::uint64_t address);  // its record, to fill
  tlm::tlm_generic_payload* payload(tlm::tlm_command command, std::uint64_t address, unsigned size,
                                    const unsigned char* write_data, const unsigned char* byte_enable,
                                    unsigned byte_enable_length);
  tlm::tlm_generic_payload* atomic_payload(std::uint64_t address, isa::Op op, const WordOps& ops);
  tlm::tlm_generic_payload* pooled(unsigned length, unsigned byte_enable_length = 0);  // mm_'s, with a record
  // The record of a payload of ours (queued or in flight); null for a payload that is not ours.
  Txn* record(const tlm::tlm_generic_payload& gp) const {
    Txn* t = gp.get_extension<Txn>();
    return t && t->port == this ? t : nullptr;
  }
  void start(tlm::tlm_generic_payload* gp);  // the queue's head goes in flight
  void send_method();  // AT: sends the head of the queue when the request channel is free
  void wake_sender();  // a request may go: send_now() on an immediate AT port, else kick_
  void send_now();     // immediate AT: sends from the queue while the request channel is free
  void send_one();
  void on_phase(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase, const sc_core::sc_time& delay);
  bool immediate_at() const { return config_.immediate && config_.mode == Mode::ApproximatelyTimed; }
  void lt_thread();    // LT: b_transport, one at a time
  void end_request(tlm::tlm_generic_payload& gp);
  void finish(tlm::tlm_generic_payload& gp, Txn& record);  // record: record(gp)
  unsigned debug(tlm::tlm_command cmd, std::uint64_t address, unsigned char* data, unsigned size);

  Config config_;
  // One record per pooled payload (a deque: none moves); before mm_, whose payloads point here
  // until they are destroyed.
  std::deque<Txn> records_;
  MemoryManager mm_;
  TimedPeq<MemPort> peq_;
  sc_core::sc_event kick_;
  std::deque<tlm::tlm_generic_payload*> queue_;  // submitted, not yet sent (their records filled)
  std::size_t inflight_ = 0;
  tlm::tlm_generic_payload* request_open_ = nullptr;  // in its request phase
  bool sending_ = false;  // send_now() is on the stack: a nested call leaves the queue to it
  std::uint64_t next_id_ = 1;
  Stats stats_;
};

// The TLM Downstream for the SM-side caches: forwards to a MemPort (misses, stores, atomics).
// A write carries byte enables only when some byte is disabled (targets such as the Accellera
// examples' refuse them); one whose enables the target refuses (TLM_BYTE_ENABLE_ERROR_RESPONSE)
// is sent again as one write per run of enabled bytes, without.
class MemPortDownstream : public Downstream {
 public:
  explicit MemPortDownstream(MemPort& port) : port_(port) {}
  void read(std::uint64_t address, unsigned size, Done done) override;
  void readTo(std::uint64_t address, unsigned size, Receiver& to, std::uint64_t tag) override;
  void write(std::uint64_t address, const unsigned char* data, const unsigned char* byte_enable,
             unsigned size, Done done) override;
  void atomic(std::uint64_t address, isa::Op op, const WordOps& ops, Done done) override;

 private:
  // A write whose byte enables the target refused: its enabled runs, each without.
  void writeRuns(std::uint64_t address, std::vector<unsigned char> data, std::vector<unsigned char> enable,
                 Done done);
  MemPort& port_;
};

}  // namespace simtlm::mem
