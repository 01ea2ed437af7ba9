#include "model/mem/mem_port.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

namespace simtlm::mem {

using namespace sc_core;

MemPort::MemPort(sc_module_name name, const Config& config)
    : sc_module(name),
      to_memory("to_memory"),
      config_(config),
      peq_("peq", this, &MemPort::peq_callback) {
  to_memory.register_nb_transport_bw(this, &MemPort::nb_transport_bw);
  to_memory.register_invalidate_direct_mem_ptr(this, &MemPort::invalidate_direct_mem_ptr);
  if (config_.immediate) {  // the mode is final when the simulation starts: both processes
    SC_METHOD(send_method);
    sensitive << kick_;
    dont_initialize();
    SC_THREAD(lt_thread);
  } else if (config_.mode == Mode::ApproximatelyTimed) {
    SC_METHOD(send_method);
    sensitive << kick_;
    dont_initialize();
  } else {
    SC_THREAD(lt_thread);
  }
}

std::uint64_t MemPort::submit(tlm::tlm_command command, std::uint64_t address, unsigned size,
                              const unsigned char* write_data, Callback done,
                              const unsigned char* byte_enable, unsigned byte_enable_length) {
  return enqueue(payload(command, address, size, write_data, byte_enable, byte_enable_length), address, std::move(done));
}

std::uint64_t MemPort::downstream_read(std::uint64_t address, unsigned size, Downstream::Done done) {
  return enqueue(payload(tlm::TLM_READ_COMMAND, address, size, nullptr, nullptr, 0), address, nullptr, std::move(done));
}

std::uint64_t MemPort::downstream_read_to(std::uint64_t address, unsigned size, Downstream::Receiver& to,
                                          std::uint64_t tag) {
  tlm::tlm_generic_payload* gp = payload(tlm::TLM_READ_COMMAND, address, size, nullptr, nullptr, 0);
  Txn& t = enqueued(gp, address);
  t.receiver = &to;
  t.tag = tag;
  const std::uint64_t id = t.id;  // (before the send, which may complete it)
  wake_sender();
  return id;
}

std::uint64_t MemPort::downstream_write(std::uint64_t address, const unsigned char* data, unsigned size, Downstream::Done done) {
  return enqueue(payload(tlm::TLM_WRITE_COMMAND, address, size, data, nullptr, 0), address, nullptr, std::move(done));
}

std::uint64_t MemPort::downstream_atomic(std::uint64_t address, isa::Op op, const WordOps& ops, Downstream::Done done) {
  return enqueue(atomic_payload(address, op, ops), address, nullptr, std::move(done));
}

tlm::tlm_generic_payload* MemPort::payload(tlm::tlm_command command, std::uint64_t address, unsigned size,
                                           const unsigned char* write_data, const unsigned char* byte_enable,
                                           unsigned byte_enable_length) {
  if (size == 0 || (command != tlm::TLM_READ_COMMAND && command != tlm::TLM_WRITE_COMMAND) ||
      (command == tlm::TLM_WRITE_COMMAND && !write_data) ||
      (byte_enable && byte_enable_length == 0)) {
    SC_REPORT_ERROR(name(), "submit: size must be > 0, command read or write, write data "
                            "given, byte-enable length > 0 when byte enables are given");
  }
  tlm::tlm_generic_payload* gp = pooled(size, byte_enable ? byte_enable_length : 0);
  gp->set_command(command);
  gp->set_address(address);
  if (command == tlm::TLM_WRITE_COMMAND) std::memcpy(gp->get_data_ptr(), write_data, size);
  if (byte_enable) std::memcpy(gp->get_byte_enable_ptr(), byte_enable, byte_enable_length);
  return gp;
}

std::uint64_t MemPort::atomic(std::uint64_t address, isa::Op op, const WordOps& ops,
                              Callback done) {
  return enqueue(atomic_payload(address, op, ops), address, std::move(done));
}

tlm::tlm_generic_payload* MemPort::atomic_payload(std::uint64_t address, isa::Op op, const WordOps& ops) {
  if (ops.count == 0 || !isAtomic(op))
    SC_REPORT_ERROR(name(), "atomic: needs an atomic opcode and at least one op");
  tlm::tlm_generic_payload* gp = pooled(4 * ops.count);
  gp->set_command(tlm::TLM_READ_COMMAND);
  gp->set_address(address);
  auto* ext = new AtomicExtension;
  ext->op = op;
  ext->ops = ops;
  gp->set_auto_extension(ext);  // freed by reset() when the payload returns to the pool
  ++stats_.atomics;
  return gp;
}

tlm::tlm_generic_payload* MemPort::pooled(unsigned length, unsigned byte_enable_length) {
  tlm::tlm_generic_payload* gp = mm_.allocate(length, byte_enable_length);
  gp->acquire();
  if (!gp->get_extension<Txn>()) {  // a payload new to the pool: its record, for its life
    Txn& t = records_.emplace_back();
    t.port = this;
    gp->set_extension(&t);  // (not an auto extension: the pool's reset() keeps it)
  }
  return gp;
}

// The record is filled at submission: a queued payload is not in flight, so its record is free.
std::uint64_t MemPort::enqueue(tlm::tlm_generic_payload* gp, std::uint64_t address,
                               Callback done, Downstream::Done plain) {
  Txn& t = enqueued(gp, address);
  t.done = std::move(done);
  t.plain = std::move(plain);
  const std::uint64_t id = t.id;
  wake_sender();
  return id;
}

MemPort::Txn& MemPort::enqueued(tlm::tlm_generic_payload* gp, std::uint64_t address) {
  Txn& t = *record(*gp);
  t.id = next_id_++;
  t.address = address;
  t.receiver = nullptr;
  t.submitted = sc_time_stamp();
  t.completed_by_target = false;
  queue_.push_back(gp);
  return t;
}

void MemPort::start(tlm::tlm_generic_payload* gp) {
  record(*gp)->live = true;
  queue_.pop_front();
  if (++inflight_ > stats_.max_in_flight) stats_.max_in_flight = inflight_;
}

void MemPort::set_mode(Mode mode) {
  if (!config_.immediate || sc_is_running())
    SC_REPORT_ERROR(name(), "set_mode: only an immediate port's mode, and only before the simulation starts");
  config_.mode = mode;
}

void MemPort::drop_queued() {
  for (tlm::tlm_generic_payload* gp : queue_) {
    Txn& t = *record(*gp);
    t.done = nullptr;
    t.plain = nullptr;
    gp->release();
  }
  queue_.clear();
}

void MemPort::send_method() {
  if (config_.mode != Mode::ApproximatelyTimed) return;  // an immediate port set to LT
  if (request_open_ || queue_.empty()) return;
  if (config_.max_outstanding && inflight_ >= config_.max_outstanding) return;
  send_one();
}

// A request may go: at once on an immediate AT port, otherwise from the sending process.
void MemPort::wake_sender() {
  if (immediate_at())
    send_now();
  else
    kick_.notify(SC_ZERO_TIME);
}

void MemPort::send_now() {
  if (sending_) return;
  sending_ = true;
  while (!request_open_ && !queue_.empty() &&
         !(config_.max_outstanding && inflight_ >= config_.max_outstanding))
    send_one();
  sending_ = false;
}

// A phase the target handed back: at once when it carries no delay on an immediate port.
void MemPort::on_phase(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase, const sc_time& delay) {
  if (immediate_at() && delay == SC_ZERO_TIME)
    peq_callback(gp, phase);
  else
    peq_.notify(gp, phase, delay);
}

void MemPort::send_one() {
  tlm::tlm_generic_payload* gp = queue_.front();
  start(gp);
  request_open_ = gp;

  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_time delay = SC_ZERO_TIME;
  switch (to_memory->nb_transport_fw(*gp, phase, delay)) {
    case tlm::TLM_ACCEPTED:
      break;  // wait for END_REQ or BEGIN_RESP on the backward path
    case tlm::TLM_UPDATED:
      if (phase != tlm::END_REQ && phase != tlm::BEGIN_RESP)
        SC_REPORT_FATAL(name(), "target returned TLM_UPDATED with an illegal phase on BEGIN_REQ");
      on_phase(*gp, phase, delay);
      break;
    case tlm::TLM_COMPLETED:
      // The transaction is complete (its response at now + delay), so its request phase ended
      // now: the base protocol allows the next BEGIN_REQ at once.
      record(*gp)->completed_by_target = true;
      end_request(*gp);
      on_phase(*gp, tlm::BEGIN_RESP, delay);
      break;
  }
}

tlm::tlm_sync_enum MemPort::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                            sc_time& delay) {
  Txn* txn = record(gp);
  if (!txn || !txn->live)
    SC_REPORT_FATAL(name(), "nb_transport_bw for a transaction that is not in flight");
  if (phase != tlm::END_REQ && phase != tlm::BEGIN_RESP)
    SC_REPORT_FATAL(name(), ("illegal phase on the backward path: " +
                             std::string(phase.get_name())).c_str());
  if (immediate_at() && delay == SC_ZERO_TIME) {
    if (phase == tlm::END_REQ) {
      end_request(gp);
      return tlm::TLM_ACCEPTED;
    }
    txn->completed_by_target = true;  // TLM_COMPLETED below ends it: no END_RESP
    peq_callback(gp, phase);
    return tlm::TLM_COMPLETED;
  }
  peq_.notify(gp, phase, delay);
  return tlm::TLM_ACCEPTED;
}

void MemPort::peq_callback(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase) {
  end_request(gp);  // END_REQ explicitly, or implied by BEGIN_RESP / TLM_COMPLETED
  if (phase != tlm::BEGIN_RESP) return;
  Txn& txn = *record(gp);  // (records never move)
  if (!txn.completed_by_target) {
    tlm::tlm_phase end = tlm::END_RESP;
    sc_time delay = SC_ZERO_TIME;
    to_memory->nb_transport_fw(gp, end, delay);  // target returns TLM_COMPLETED; nothing follows
  }
  finish(gp, txn);
}

void MemPort::end_request(tlm::tlm_generic_payload& gp) {
  if (request_open_ != &gp) return;
  request_open_ = nullptr;
  if (!queue_.empty()) wake_sender();
}

void MemPort::finish(tlm::tlm_generic_payload& gp, Txn& txn) {
  txn.live = false;
  --inflight_;
  const tlm::tlm_command command = gp.get_command();
  const unsigned size = gp.get_data_length();
  const tlm::tlm_response_status status = gp.get_response_status();
  const sc_time completed = sc_time_stamp();

  ++stats_.transactions;
  if (command == tlm::TLM_READ_COMMAND) {
    ++stats_.reads;
    stats_.bytes_read += size;
  } else {
    ++stats_.writes;
    stats_.bytes_written += size;
  }
  if (status != tlm::TLM_OK_RESPONSE) ++stats_.errors;
  static const sc_time::value_type ps = sc_time(1, SC_PS).value();  // (the resolution is fixed once time is used)
  stats_.latency_sum_ps += static_cast<std::uint64_t>((completed - txn.submitted).value() / ps);
  // The callback runs from the record itself: the payload, and so the record, stays ours until
  // it is released below, whatever the callback submits.
  if (txn.done) {
    MemResult r;
    r.id = txn.id;
    r.command = command;
    r.address = txn.address;
    r.size = size;
    r.data = gp.get_data_ptr();
    r.status = status;
    r.submitted = txn.submitted;
    r.completed = completed;
    txn.done(r);
    txn.done = nullptr;
  } else if (txn.receiver) {
    txn.receiver->answered(txn.tag, command == tlm::TLM_READ_COMMAND ? gp.get_data_ptr() : nullptr,
                           status == tlm::TLM_OK_RESPONSE);
  } else if (txn.plain) {
    txn.plain(command == tlm::TLM_READ_COMMAND ? gp.get_data_ptr() : nullptr, status == tlm::TLM_OK_RESPONSE);
    txn.plain = nullptr;
  }
  gp.release();
  if (config_.max_outstanding && !queue_.empty()) wake_sender();
}

void MemPort::lt_thread() {
  if (config_.mode != Mode::LooselyTimed) return;  // an immediate port set to AT
  for (;;) {
    while (queue_.empty()) wait(kick_);
    tlm::tlm_generic_payload* gp = queue_.front();
    start(gp);
    sc_time delay = SC_ZERO_TIME;
    to_memory->b_transport(*gp, delay);
    wait(delay);  // synchronise: the caller sees the completion at the annotated time
    finish(*gp, *record(*gp));
  }
}

unsigned MemPort::debug(tlm::tlm_command cmd, std::uint64_t address, unsigned char* data,
                        unsigned size) {
  tlm::tlm_generic_payload gp;
  gp.set_command(cmd);
  gp.set_address(address);
  gp.set_data_ptr(data);
  gp.set_data_length(size);
  gp.set_streaming_width(size);
  return to_memory->transport_dbg(gp);
}

unsigned MemPort::debug_read(std::uint64_t address, unsigned char* data, unsigned size) {
  return debug(tlm::TLM_READ_COMMAND, address, data, size);
}

unsigned MemPort::debug_write(std::uint64_t address, const unsigned char* data, unsigned size) {
  return debug(tlm::TLM_WRITE_COMMAND, address, const_cast<unsigned char*>(data), size);
}

void MemPortDownstream::read(std::uint64_t address, unsigned size, Done done) {
  port_.downstream_read(address, size, std::move(done));
}

void MemPortDownstream::readTo(std::uint64_t address, unsigned size, Receiver& to, std::uint64_t tag) {
  port_.downstream_read_to(address, size, to, tag);
}

void MemPortDownstream::write(std::uint64_t address, const unsigned char* data,
                              const unsigned char* byte_enable, unsigned size, Done done) {
  if (byte_enable && std::all_of(byte_enable, byte_enable + size, [](unsigned char b) { return b == 0xff; }))
    byte_enable = nullptr;  // every byte written: no byte enables needed
  if (!byte_enable) {
    port_.downstream_write(address, data, size, std::move(done));
    return;
  }
  port_.write(
      address, data, size,
      [this, address, d = std::move(done), bytes = std::vector<unsigned char>(data, data + size),
       enable = std::vector<unsigned char>(byte_enable, byte_enable + size)](const MemResult& r) mutable {
        if (r.status != tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE) return d(nullptr, r.ok());
        writeRuns(address, std::move(bytes), std::move(enable), std::move(d));
      },
      byte_enable, size);
}

void MemPortDownstream::writeRuns(std::uint64_t address, std::vector<unsigned char> data,
                                  std::vector<unsigned char> enable, Done done) {
  struct Left {
    int writes = 0;
    bool ok = true;
    Done done;
  };
  auto left = std::make_shared<Left>();
  left->done = std::move(done);
  std::vector<std::pair<unsigned, unsigned>> runs;  // [begin, end) of each run of enabled bytes
  for (unsigned i = 0; i < enable.size(); ++i) {
    if (!enable[i]) continue;
    if (runs.empty() || runs.back().second != i) runs.push_back({i, i});
    runs.back().second = i + 1;
  }
  left->writes = static_cast<int>(runs.size());
  if (runs.empty()) return left->done(nullptr, true);
  for (const auto& [b, e] : runs)
    port_.write(address + b, data.data() + b, e - b, [left](const MemResult& r) {
      left->ok = left->ok && r.ok();
      if (--left->writes == 0) left->done(nullptr, left->ok);
    });
}

void MemPortDownstream::atomic(std::uint64_t address, isa::Op op, const WordOps& ops,
                               Done done) {
  port_.downstream_atomic(address, op, ops, std::move(done));
}

}  // namespace simtlm::mem
