#include "model/mem/dram_target.h"

#include "model/common/log.h"
#include "model/mem/atomic_extension.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace simtlm::mem {

using namespace sc_core;

namespace {

const char* kindOf(const tlm::tlm_generic_payload& gp) {
  if (gp.get_extension<AtomicExtension>()) return "atomic";
  return gp.is_read() ? "read" : gp.is_write() ? "write" : "ignore";
}

}  // namespace

DramTarget::DramTarget(sc_module_name name, const DramConfig& config)
    : sc_module(name),
      from_bus("from_bus"),
      config_(config),
      store_(config.size),
      in_peq_("in_peq", this, &DramTarget::incoming),
      internal_peq_("internal_peq", this, &DramTarget::internal),
      log_(log::get("gpu.mem.dram")) {
  if (config_.banks == 0 || config_.bytes_per_cycle == 0 || config_.interleave_bytes == 0 ||
      config_.bank_queue_depth == 0 || config_.clock_period == SC_ZERO_TIME)
    SC_REPORT_FATAL(this->name(), "banks, bytes_per_cycle, interleave_bytes, bank_queue_depth "
                                  "and clock_period must be > 0");
  if (config_.scheduler == DramConfig::Scheduler::FrFcfs) {
    if (config_.channels == 0 || config_.queue_depth == 0 || config_.atom_bytes == 0 ||
        (config_.banks & (config_.banks - 1)) || config_.dram_clock_period == SC_ZERO_TIME)
      SC_REPORT_FATAL(this->name(), "FR-FCFS: channels, queue_depth, atom_bytes and "
                                    "dram_clock_period must be > 0, banks a power of two");
    // DRAM command-clock cycles to core cycles, rounded up (tCCD stays fractional: a burst of
    // several atoms is rounded once, see FrFcfsDram::burstCycles).
    const double ratio = config_.dram_clock_period / config_.clock_period;
    const auto core = [ratio](unsigned n) {
      return static_cast<unsigned>(std::ceil(n * ratio - 1e-9));
    };
    DramTimings t;
    t.channels = config_.channels;
    t.banks = config_.banks;
    t.interleave = config_.interleave_bytes;
    t.queue_depth = config_.queue_depth;
    t.t_rcd = core(config_.t_rcd);
    t.t_rp = core(config_.t_rp);
    t.t_ras = core(config_.t_ras);
    t.t_cl = core(config_.t_cl);
    t.t_wl = core(config_.t_wl);
    t.atom_bytes = config_.atom_bytes;
    t.burst_per_atom = config_.t_ccd * ratio;
    t.latency = config_.latency_cycles;
    frfcfs_ = std::make_unique<FrFcfsDram>(t);
    SC_METHOD(schedule_method);
    sensitive << schedule_event_;
    dont_initialize();
  }
  bank_free_.assign(config_.banks, 0);
  bank_starts_.resize(config_.banks);
  from_bus.register_nb_transport_fw(this, &DramTarget::nb_transport_fw);
  from_bus.register_b_transport(this, &DramTarget::b_transport);
  from_bus.register_transport_dbg(this, &DramTarget::transport_dbg);
  from_bus.register_get_direct_mem_ptr(this, &DramTarget::get_direct_mem_ptr);
}

std::uint64_t DramTarget::now_cycle() const {
  const sc_dt::uint64 t = sc_time_stamp().value(), p = config_.clock_period.value();
  return (t + p - 1) / p;
}

sc_time DramTarget::until(std::uint64_t cycle) const {
  return config_.clock_period * static_cast<double>(cycle) - sc_time_stamp();
}

std::uint64_t DramTarget::transfer_cycles(unsigned length) const {
  return (length + config_.bytes_per_cycle - 1) / config_.bytes_per_cycle;
}

std::uint64_t DramTarget::reserve_bus(std::uint64_t ready, std::uint64_t length) {
  const std::uint64_t now = now_cycle();
  while (!bus_.empty() && bus_.begin()->second <= now) bus_.erase(bus_.begin());
  std::uint64_t t = ready;
  for (const auto& [start, end] : bus_) {
    if (end <= t) continue;
    if (start >= t + length) break;
    t = end;
  }
  bus_.emplace(t, t + length);
  return t;
}

tlm::tlm_sync_enum DramTarget::nb_transport_fw(tlm::tlm_generic_payload& gp,
                                               tlm::tlm_phase& phase, sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    gp.acquire();
    in_peq_.notify(gp, phase, delay);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::END_RESP) {
    in_peq_.notify(gp, phase, delay);
    return tlm::TLM_COMPLETED;
  }
  SC_REPORT_FATAL(name(), "illegal phase on the forward path");
  return tlm::TLM_COMPLETED;
}

tlm::tlm_response_status DramTarget::perform(tlm::tlm_generic_payload& gp) {
  const AtomicExtension* ext = gp.get_extension<AtomicExtension>();
  if (!ext) return store_.access(gp);
  tlm::tlm_response_status s = tlm::TLM_OK_RESPONSE;
  if (!gp.is_read() || !isAtomic(ext->op) || gp.get_data_length() != 4 * ext->ops.count ||
      gp.get_byte_enable_ptr())
    s = tlm::TLM_COMMAND_ERROR_RESPONSE;
  const std::uint64_t base = gp.get_address();
  for (unsigned i = 0; s == tlm::TLM_OK_RESPONSE && i < ext->ops.count; ++i) {
    const std::uint64_t a = base + ext->ops[i].offset;
    if ((a & 3) || a < base || a >= store_.size() || store_.size() - a < 4)
      s = tlm::TLM_ADDRESS_ERROR_RESPONSE;
  }
  if (s == tlm::TLM_OK_RESPONSE) {
    std::uint32_t old[kMaxLanes];
    applyAtomic(
        ext->op, ext->ops, base, old, &store_,
        [](void* m, std::uint64_t a) {
          std::uint32_t w;
          static_cast<SparseMemory*>(m)->read(a, reinterpret_cast<unsigned char*>(&w), 4);
          return w;
        },
        [](void* m, std::uint64_t a, std::uint32_t w) {
          static_cast<SparseMemory*>(m)->write(a, reinterpret_cast<const unsigned char*>(&w), 4);
        });
    std::memcpy(gp.get_data_ptr(), old, 4 * ext->ops.count);
    ++stats_.atomics;
  }
  gp.set_response_status(s);
  return s;
}

void DramTarget::incoming(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase) {
  if (phase == tlm::BEGIN_REQ) {
    begin_request(gp);
    return;
  }
  // END_RESP (explicit, or the TLM_UPDATED / TLM_COMPLETED answer to our BEGIN_RESP)
  if (&gp != response_open_) SC_REPORT_FATAL(name(), "END_RESP for a transaction not in response");
  response_open_ = nullptr;
  gp.release();
  send_response();
}

void DramTarget::begin_request(tlm::tlm_generic_payload& gp) {
  if (request_open_) SC_REPORT_FATAL(name(), "BEGIN_REQ before END_REQ of the previous request");
  request_open_ = &gp;
  const std::uint64_t arrival = now_cycle();
  std::uint64_t end_req = arrival + config_.accept_cycles;
  std::uint64_t respond = end_req + 1;

  if (perform(gp) != tlm::TLM_OK_RESPONSE) {
    ++stats_.errors;
    logError(gp);
  } else if (frfcfs_) {
    (gp.is_read() ? stats_.reads : stats_.writes)++;
    stats_.bytes += gp.get_data_length();
    if (!frfcfs_->hasRoom(gp.get_address())) {  // END_REQ when the channel queue has room
      ++stats_.queue_full_stalls;
      held_ = &gp;
      return;
    }
    queue(gp);
    internal_peq_.notify(gp, tlm::END_REQ, until(end_req));
    return;
  } else {
    const unsigned len = gp.get_data_length();
    (gp.is_read() ? stats_.reads : stats_.writes)++;
    stats_.bytes += len;
    const unsigned b = bank_of(gp.get_address());
    auto& queued = bank_starts_[b];
    while (!queued.empty() && queued.front() <= arrival) queued.pop_front();
    if (queued.size() >= config_.bank_queue_depth) {
      ++stats_.queue_full_stalls;
      end_req = std::max(end_req, queued[queued.size() - config_.bank_queue_depth]);
    }
    const std::uint64_t start = std::max(arrival, bank_free_[b]);
    bank_free_[b] = start + config_.bank_busy_cycles;
    stats_.bank_wait_cycles += start - arrival;
    if (start > arrival) queued.push_back(start);
    const std::uint64_t ready = start + config_.latency_cycles;
    const std::uint64_t transfer = transfer_cycles(len);
    const std::uint64_t slot = reserve_bus(ready, transfer);
    stats_.bus_wait_cycles += slot - ready;
    respond = slot + transfer;
    if (log_.should_log(spdlog::level::trace))
      log_.trace("cycle {}: {} 0x{:x} ({} B), bank {}: starts at cycle {}, answered at cycle {}", arrival,
                 kindOf(gp), gp.get_address(), len, b, start, respond);
  }
  internal_peq_.notify(gp, tlm::END_REQ, until(end_req));
  internal_peq_.notify(gp, tlm::BEGIN_RESP, until(respond));
}

void DramTarget::queue(tlm::tlm_generic_payload& gp) {
  frfcfs_->push(FrFcfsDram::Request{&gp, gp.get_address(), gp.get_data_length(), gp.is_write()},
                now_cycle());
  schedule_event_.notify(SC_ZERO_TIME);
}

void DramTarget::schedule_method() {
  const std::uint64_t now = now_cycle();
  started_.clear();
  frfcfs_->schedule(now, started_);
  for (const FrFcfsDram::Started& s : started_) {
    auto& gp = *static_cast<tlm::tlm_generic_payload*>(s.tag);
    ++(s.row_hit ? stats_.row_hits : stats_.row_misses);
    if (s.conflict) ++stats_.row_conflicts;
    stats_.bank_wait_cycles += s.waited;
    if (log_.should_log(spdlog::level::trace))
      log_.trace("cycle {}: {} 0x{:x} ({} B) starts ({}), answered at cycle {}", now, kindOf(gp),
                 gp.get_address(), gp.get_data_length(),
                 s.row_hit ? "row hit" : s.conflict ? "row conflict" : "row closed", s.respond);
    internal_peq_.notify(gp, tlm::BEGIN_RESP, until(s.respond));
  }
  if (held_ && frfcfs_->hasRoom(held_->get_address())) {
    tlm::tlm_generic_payload* gp = held_;
    held_ = nullptr;
    queue(*gp);
    internal_peq_.notify(*gp, tlm::END_REQ, SC_ZERO_TIME);
  }
  const std::uint64_t wake = frfcfs_->nextWake();
  if (wake != UINT64_MAX) schedule_event_.notify(until(std::max(wake, now + 1)));
}

void DramTarget::internal(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase) {
  if (phase == tlm::END_REQ) {
    if (request_open_ != &gp) return;  // already ended by its BEGIN_RESP
    request_open_ = nullptr;
    tlm::tlm_phase p = tlm::END_REQ;
    sc_time delay = SC_ZERO_TIME;
    from_bus->nb_transport_bw(gp, p, delay);  // the initiator answers TLM_ACCEPTED
    return;
  }
  ready_.push_back(&gp);
  send_response();
}

void DramTarget::send_response() {
  if (response_open_ || ready_.empty()) return;
  tlm::tlm_generic_payload* gp = ready_.front();
  ready_.pop_front();
  if (request_open_ == gp) request_open_ = nullptr;  // BEGIN_RESP implies END_REQ
  response_open_ = gp;
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_time delay = SC_ZERO_TIME;
  const tlm::tlm_sync_enum s = from_bus->nb_transport_bw(*gp, phase, delay);
  if (s != tlm::TLM_ACCEPTED) in_peq_.notify(*gp, tlm::END_RESP, delay);  // UPDATED or COMPLETED
}

void DramTarget::b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
  if (perform(gp) != tlm::TLM_OK_RESPONSE) {
    ++stats_.errors;
    logError(gp);
    delay += config_.clock_period;
    return;
  }
  (gp.is_read() ? stats_.reads : stats_.writes)++;
  stats_.bytes += gp.get_data_length();
  if (frfcfs_) {  // a closed row, no queueing
    const unsigned open = static_cast<unsigned>(std::ceil(
        (config_.t_rcd + config_.t_cl) * (config_.dram_clock_period / config_.clock_period) - 1e-9));
    delay += config_.clock_period *
             static_cast<double>(config_.latency_cycles + open +
                                 frfcfs_->burstCycles(gp.get_data_length()));
    return;
  }
  delay += config_.clock_period *
           static_cast<double>(config_.latency_cycles + transfer_cycles(gp.get_data_length()));
}

void DramTarget::logError(const tlm::tlm_generic_payload& gp) const {
  log_.info("{:g} ns: {} of {} B at 0x{:x} answered {}", sc_time_stamp().to_seconds() * 1e9, kindOf(gp),
            gp.get_data_length(), gp.get_address(), gp.get_response_string());
}

unsigned DramTarget::transport_dbg(tlm::tlm_generic_payload& gp) {
  return store_.access(gp) == tlm::TLM_OK_RESPONSE ? gp.get_data_length() : 0;
}

bool DramTarget::get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  const std::uint64_t a = gp.get_address();
  if (!config_.allow_dmi || a >= store_.size()) return false;
  const std::uint64_t base = a & ~(store_.page_bytes() - 1);
  dmi.set_dmi_ptr(store_.page(a));
  dmi.set_start_address(base);
  dmi.set_end_address(std::min(base + store_.page_bytes(), store_.size()) - 1);
  dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_READ_WRITE);
  dmi.set_read_latency(config_.clock_period * static_cast<double>(config_.latency_cycles));
  dmi.set_write_latency(config_.clock_period * static_cast<double>(config_.latency_cycles));
  gp.set_dmi_allowed(true);
  return true;
}

}  // namespace simtlm::mem
