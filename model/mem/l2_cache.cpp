#include "model/mem/l2_cache.h"

#include "model/common/log.h"
#include "model/mem/atomic_extension.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace simtlm::mem {

using namespace sc_core;

namespace {

void require(bool ok, const char* field, const std::string& range, const std::string& got) {
  if (!ok)
    throw std::invalid_argument(std::string("L2Config.") + field + ": must be " + range +
                                " (got " + got + ")");
}

}  // namespace

void L2Config::validate() const {
  require(line >= 8 && line <= 4096 && !(line & (line - 1)), "line",
          "a power of two in [8, 4096] bytes", std::to_string(line));
  require(assoc >= 1 && assoc <= 1024, "assoc", "in [1, 1024] ways", std::to_string(assoc));
  const std::uint64_t set_bytes = std::uint64_t{line} * assoc;
  require(size >= set_bytes && size % set_bytes == 0 && size <= (std::uint64_t{1} << 30), "size",
          "a multiple of line * assoc (" + std::to_string(set_bytes) + ") in [" +
              std::to_string(set_bytes) + ", 1 GiB] bytes",
          std::to_string(size));
  require(hit_latency <= 100000, "hit_latency", "in [0, 100000] cycles",
          std::to_string(hit_latency));
  require(clock_period > SC_ZERO_TIME, "clock_period", "> 0", clock_period.to_string());
  require(mshrs >= 1 && mshrs <= 65536, "mshrs", "in [1, 65536]", std::to_string(mshrs));
  require(mshr_merge <= 65536, "mshr_merge", "in [0, 65536]", std::to_string(mshr_merge));
  require(request_queue <= 4096, "request_queue", "in [0, 4096]", std::to_string(request_queue));
  require(dram_queue <= 4096, "dram_queue", "in [0, 4096]", std::to_string(dram_queue));
  require(slice_channels >= 1 && slice_sub_partitions >= 1, "slice_channels",
          "and slice_sub_partitions >= 1",
          std::to_string(slice_channels) + ", " + std::to_string(slice_sub_partitions));
  const unsigned granule = slice_interleave ? slice_interleave : line;
  require(granule % (std::uint64_t{line} * slice_sub_partitions) == 0, "slice_interleave",
          "a multiple of line * slice_sub_partitions", std::to_string(slice_interleave));
  require(write_policy == WritePolicy::WriteThroughNoAllocate ||
              write_policy == WritePolicy::WriteBackAllocate,
          "write_policy", "WriteThroughNoAllocate or WriteBackAllocate",
          std::to_string(static_cast<int>(write_policy)));
}

L2Cache::L2Cache(sc_module_name name, const L2Config& config)
    : sc_module(name),
      from_bus("from_bus"),
      to_memory("to_memory"),
      config_((config.validate(), config)),
      port_("port", MemPort::Config{config.downstream_mode, 0}),
      sets_(static_cast<unsigned>(config.size / (std::uint64_t{config.line} * config.assoc))),
      in_peq_("in_peq", this, &L2Cache::incoming),
      resp_peq_("resp_peq", this, &L2Cache::hit_ready),
      log_(log::get("gpu.mem.l2")) {
  port_.to_memory.bind(to_memory);  // hierarchical: the port is this module's initiator
  from_bus.register_nb_transport_fw(this, &L2Cache::nb_transport_fw);
  from_bus.register_b_transport(this, &L2Cache::b_transport);
  from_bus.register_transport_dbg(this, &L2Cache::transport_dbg);
  from_bus.register_get_direct_mem_ptr(this, &L2Cache::get_direct_mem_ptr);
  ways_.resize(std::size_t{sets_} * config_.assoc);
  data_.assign(ways_.size() * config_.line, 0);
  words_ = (config_.line + 63) / 64;
  if (wb()) masks_.assign(ways_.size() * 2 * words_, 0);
  mshrs_.resize(config_.mshrs);
  for (unsigned i = config_.mshrs; i-- > 0;) free_.push_back(i);
  SC_METHOD(end_req_method);
  sensitive << end_req_event_;
  dont_initialize();
  SC_METHOD(retry_method);
  sensitive << mshr_freed_;
  dont_initialize();
  SC_METHOD(drain_method);
  sensitive << drain_event_;
  dont_initialize();
  SC_METHOD(issue_method);
  sensitive << issue_event_;
  dont_initialize();
}

void L2Cache::registerStats(stats::Group g) {
  g.add("reads", stats_.reads, "requests", "read requests (hits, misses and bypasses)");
  g.add("writes", stats_.writes, "requests", "write requests (written through)");
  g.add("atomics", stats_.atomics, "requests",
        wb() ? "atomics (performed in the L2 when their words lie in one line)"
             : "atomics (performed at memory)");
  g.add("hits", stats_.hits, "requests", "reads served from the cache");
  g.add("misses", stats_.misses, "requests", "reads that missed (including merged)");
  g.add("merged", stats_.merged, "requests", "missing reads merged into an MSHR in flight");
  g.add("bypasses", stats_.bypasses, "requests",
        "reads with byte enables or crossing a line, passed to memory uncached");
  g.add("evictions", stats_.evictions, "lines", "valid lines replaced by a fill");
  g.add("mshr_stalls", stats_.mshr_stalls, "requests",
        "requests that waited for a free MSHR or a merge slot");
  g.add("queue_full", stats_.queue_full, "requests",
        "requests whose END_REQ waited for room in the request queue");
  g.add("dram_queue_stalls", stats_.dram_queue_stalls, "requests",
        "lookups delayed because the queue towards DRAM was full");
  if (wb()) {
    g.add("write_hits", stats_.write_hits, "requests", "writes to a line held or being filled");
    g.add("write_misses", stats_.write_misses, "requests",
          "writes that allocated a line without fetching it");
    g.add("writebacks", stats_.writebacks, "lines", "dirty lines written back to memory");
    g.add("partial_fills", stats_.partial_fills, "lines",
          "fills merged under bytes written before the fill");
  }
  g.add("errors", stats_.errors, "requests", "responses with an error status");
  g.add("bytes_from_memory", stats_.bytes_from_memory, "bytes",
        "data received from memory (line fills, bypassed reads, atomics)");
  g.add("bytes_to_memory", stats_.bytes_to_memory, "bytes", "write data sent to memory");
  g.addRatio("hit_rate", "hits", "reads", "ratio", "hits per read request");
}

std::uint64_t L2Cache::now_cycle() const {
  const sc_dt::uint64 t = sc_time_stamp().value(), p = config_.clock_period.value();
  return (t + p - 1) / p;
}

sc_time L2Cache::until(std::uint64_t cycle) const {
  return config_.clock_period * static_cast<double>(cycle) - sc_time_stamp();
}

unsigned L2Cache::setOf(std::uint64_t line) const {
  if (config_.slice_channels == 1 && config_.slice_sub_partitions == 1)
    return static_cast<unsigned>((line / config_.line) % sets_);
  const std::uint64_t g = config_.slice_interleave ? config_.slice_interleave : config_.line;
  const std::uint64_t per = g / config_.line / config_.slice_sub_partitions;
  const std::uint64_t local =
      line / g / config_.slice_channels * per + line % g / config_.line / config_.slice_sub_partitions;
  return static_cast<unsigned>(local % sets_);
}

int L2Cache::find(std::uint64_t line) const {
  const unsigned set = setOf(line);
  for (unsigned w = 0; w < config_.assoc; ++w) {
    const unsigned i = set * config_.assoc + w;
    if (ways_[i].valid && ways_[i].line == line) return static_cast<int>(i);
  }
  return -1;
}

void L2Cache::invalidateLine(std::uint64_t line) {
  // A fill in flight for this line may predate the change: never install it.
  if (auto it = open_.find(line); it != open_.end()) {
    mshrs_[it->second].stale = true;
    open_.erase(it);
  }
  if (const int i = find(line); i >= 0) ways_[i].valid = false;
}

void L2Cache::invalidateRange(std::uint64_t address, std::uint64_t length) {
  if (length == 0) return;
  const std::uint64_t first = lineOf(address), last = lineOf(address + length - 1);
  if ((last - first) / config_.line < ways_.size()) {
    for (std::uint64_t l = first;; l += config_.line) {
      invalidateLine(l);
      if (l == last) break;
    }
    return;
  }
  // A range larger than the cache (a big debug write): visit the lines held instead.
  for (Way& w : ways_)
    if (w.valid && w.line >= first && w.line <= last) w.valid = false;
  for (auto it = open_.begin(); it != open_.end();) {
    if (it->first < first || it->first > last) {
      ++it;
      continue;
    }
    mshrs_[it->second].stale = true;
    it = open_.erase(it);
  }
}

void L2Cache::writeLines(const gp_t& gp) {
  const std::uint64_t a = gp.get_address(), end = a + gp.get_data_length();
  const unsigned char* d = gp.get_data_ptr();
  const unsigned char* be = gp.get_byte_enable_ptr();
  const unsigned be_len = gp.get_byte_enable_length();
  for (std::uint64_t line = lineOf(a); line < end; line += config_.line) {
    if (auto it = open_.find(line); it != open_.end()) {  // that fill predates this write
      mshrs_[it->second].stale = true;
      open_.erase(it);
    }
    const int w = find(line);
    if (w < 0) continue;  // no write-allocate
    ways_[w].lru = ++clock_;
    unsigned char* cached = &data_[std::size_t(w) * config_.line];
    for (std::uint64_t b = std::max(a, line); b < std::min(end, line + config_.line); ++b)
      if (!be || be[(b - a) % be_len] != TLM_BYTE_DISABLED) cached[b - line] = d[b - a];
  }
}

tlm::tlm_response_status L2Cache::check(const gp_t& gp) const {
  const unsigned len = gp.get_data_length();
  if (gp.get_command() == tlm::TLM_IGNORE_COMMAND) return tlm::TLM_COMMAND_ERROR_RESPONSE;
  if (len == 0 || !gp.get_data_ptr()) return tlm::TLM_GENERIC_ERROR_RESPONSE;
  if (gp.get_streaming_width() != 0 && gp.get_streaming_width() < len)
    return tlm::TLM_BURST_ERROR_RESPONSE;  // streaming is not supported
  if (gp.get_byte_enable_ptr() && gp.get_byte_enable_length() == 0)
    return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  // Atomics: the same checks as DramTarget, so that MemPort::atomic can rebuild the payload.
  if (const AtomicExtension* ext = gp.get_extension<AtomicExtension>();
      ext && (!gp.is_read() || !isAtomic(ext->op) || ext->ops.count == 0 ||
              ext->ops.count > kMaxLanes || len != 4 * ext->ops.count || gp.get_byte_enable_ptr()))
    return tlm::TLM_COMMAND_ERROR_RESPONSE;
  return tlm::TLM_OK_RESPONSE;
}

void L2Cache::enqueue(const Outgoing& o) {
  outgoing_.push_back(o);
  issue_event_.notify(until(outgoing_.front().release));
}

L2Cache::Outcome L2Cache::handle(Job& job) {
  gp_t& gp = *job.gp;
  const std::uint64_t a = now_cycle(), release = a + config_.hit_latency;
  const std::uint64_t addr = gp.get_address();
  const unsigned len = gp.get_data_length();
  if (const tlm::tlm_response_status s = check(gp); s != tlm::TLM_OK_RESPONSE) {
    gp.set_response_status(s);
    bump(&Stats::errors);
    return Outcome{Outcome::Respond, a + 1};
  }
  if (config_.dram_queue && port_.queued() >= config_.dram_queue) {
    // Memory has not taken the requests already queued for it: look nothing up (GPGPU-Sim's
    // sub-partition stalls the same way). The port has no "sent" event: try again next cycle.
    if (!job.queue_stalled) bump(&Stats::dram_queue_stalls);
    job.queue_stalled = true;
    mshr_freed_.notify(until(a + 1));
    return Outcome{Outcome::Blocked, 0};
  }
  if (wb()) return handleWb(job, a, release);
  if (const AtomicExtension* ext = gp.get_extension<AtomicExtension>()) {
    bump(&Stats::atomics);
    for (unsigned i = 0; i < ext->ops.count; ++i) invalidateLine(lineOf(addr + ext->ops[i].offset));
    enqueue(Outgoing{Outgoing::Atomic, release, job, 0});
    return Outcome{Outcome::Pending, 0};
  }
  if (gp.is_write()) {
    bump(&Stats::writes);
    writeLines(gp);
    enqueue(Outgoing{Outgoing::Write, release, job, 0});
    return Outcome{Outcome::Pending, 0};
  }
  const std::uint64_t line = lineOf(addr);
  if (gp.get_byte_enable_ptr() || lineOf(addr + len - 1) != line) {
    bump(&Stats::reads);
    bump(&Stats::bypasses);
    enqueue(Outgoing{Outgoing::Bypass, release, job, 0});
    return Outcome{Outcome::Pending, 0};
  }
  if (const int w = find(line); w >= 0) {
    bump(&Stats::reads);
    bump(&Stats::hits);
    ways_[w].lru = ++clock_;
    std::memcpy(gp.get_data_ptr(), &data_[std::size_t(w) * config_.line + (addr - line)], len);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return Outcome{Outcome::Respond, release};
  }
  if (auto it = open_.find(line); it != open_.end()) {
    if (config_.mshr_merge && mshrs_[it->second].waiters.size() >= config_.mshr_merge) {
      if (!job.stalled) bump(&Stats::mshr_stalls);
      job.stalled = true;
      return Outcome{Outcome::Blocked, 0};
    }
    bump(&Stats::reads);
    bump(&Stats::misses);
    bump(&Stats::merged);
    mshrs_[it->second].waiters.push_back(job);
    if (log_.should_log(spdlog::level::trace))
      log_.trace("cycle {}: read miss 0x{:x} ({} B), merged into MSHR {} (line 0x{:x})", a, addr, len,
                 it->second, line);
    return Outcome{Outcome::Pending, 0};
  }
  if (free_.empty()) {
    if (!job.stalled) bump(&Stats::mshr_stalls);
    job.stalled = true;
    return Outcome{Outcome::Blocked, 0};
  }
  bump(&Stats::reads);
  bump(&Stats::misses);
  const unsigned m = free_.back();
  free_.pop_back();
  mshrs_[m].line = line;
  mshrs_[m].stale = false;
  mshrs_[m].waiters.assign(1, job);
  open_.emplace(line, m);
  enqueue(Outgoing{Outgoing::Fill, release, Job{}, m});
  if (log_.should_log(spdlog::level::trace))
    log_.trace("cycle {}: read miss 0x{:x} ({} B), MSHR {} reads line 0x{:x} from memory at cycle {}", a, addr,
               len, m, line, release);
  return Outcome{Outcome::Pending, 0};
}

// ---- memory side ----

void L2Cache::issue_method() {
  const std::uint64_t now = now_cycle();
  while (!outgoing_.empty() && outgoing_.front().release <= now) {
    const Outgoing o = outgoing_.front();
    outgoing_.pop_front();
    issue(o);
  }
  if (!outgoing_.empty()) issue_event_.notify(until(outgoing_.front().release));
}

void L2Cache::issue(const Outgoing& o) {
  if (o.kind == Outgoing::Fill) {
    const unsigned m = o.mshr;
    port_.read(mshrs_[m].line, config_.line, [this, m](const MemResult& r) {
      if (wb()) fillWb(m, r);
      else fill(m, r);
    });
    return;
  }
  if (o.kind == Outgoing::WriteBack) {  // the buffer lives until memory acknowledges
    const std::shared_ptr<Victim> v = o.victim;
    port_.write(
        v->line, v->data.data(), config_.line,
        [this, v](const MemResult& r) {
          // Acknowledged: memory has the bytes (or refused them); no longer overlaid on debug reads.
          if (const auto it = std::find(unacked_.begin(), unacked_.end(), v); it != unacked_.end())
            unacked_.erase(it);  // usually the front: memory answers mostly in order
          if (r.ok()) bump(&Stats::bytes_to_memory, r.size);
          else bump(&Stats::errors);  // nobody waits for a write-back: counted, and logged
          if (!r.ok())
            log_.info("write-back of line 0x{:x} answered {}", v->line, static_cast<int>(r.status));
        },
        v->enable.empty() ? nullptr : v->enable.data(),
        static_cast<unsigned>(v->enable.size()));
    return;
  }
  const Job job = o.job;
  gp_t& gp = *job.gp;
  const std::uint64_t addr = gp.get_address();
  const unsigned len = gp.get_data_length();
  switch (o.kind) {
    case Outgoing::Bypass:
      port_.submit(
          tlm::TLM_READ_COMMAND, addr, len, nullptr,
          [this, job](const MemResult& r) {
            gp_t& g = *job.gp;
            const unsigned char* be = g.get_byte_enable_ptr();
            if (r.ok()) {
              bump(&Stats::bytes_from_memory, r.size);
              for (unsigned i = 0; i < r.size; ++i)
                if (!be || be[i % g.get_byte_enable_length()] != TLM_BYTE_DISABLED)
                  g.get_data_ptr()[i] = r.data[i];
            }
            g.set_response_status(r.status);
            complete(job);
          },
          gp.get_byte_enable_ptr(), gp.get_byte_enable_length());
      break;
    case Outgoing::Write:
      port_.write(
          addr, gp.get_data_ptr(), len,
          [this, job](const MemResult& r) {
            gp_t& g = *job.gp;
            if (r.ok()) bump(&Stats::bytes_to_memory, r.size);
            else invalidateRange(g.get_address(), g.get_data_length());  // memory refused it
            g.set_response_status(r.status);
            complete(job);
          },
          gp.get_byte_enable_ptr(), gp.get_byte_enable_length());
      break;
    case Outgoing::Atomic: {
      const AtomicExtension* ext = gp.get_extension<AtomicExtension>();
      port_.atomic(addr, ext->op, ext->ops, [this, job](const MemResult& r) {
        gp_t& g = *job.gp;
        if (r.ok()) {
          bump(&Stats::bytes_from_memory, r.size);
          std::memcpy(g.get_data_ptr(), r.data, std::min<unsigned>(r.size, g.get_data_length()));
        }
        g.set_response_status(r.status);
        complete(job);
      });
      break;
    }
    case Outgoing::Fill:
    case Outgoing::WriteBack:
      break;
  }
}

void L2Cache::fill(unsigned m, const MemResult& r) {
  Mshr& mshr = mshrs_[m];
  const std::uint64_t line = mshr.line;
  std::vector<Job> waiters;
  waiters.swap(mshr.waiters);
  if (r.ok()) bump(&Stats::bytes_from_memory, r.size);
  if (!mshr.stale) {
    open_.erase(line);
    if (r.ok()) {  // install: the first invalid way of the set, else the least recently used
      const unsigned set = setOf(line);
      int i = -1;
      for (unsigned w = 0; w < config_.assoc; ++w) {
        const int j = static_cast<int>(set * config_.assoc + w);
        if (!ways_[j].valid) {
          i = j;
          break;
        }
        if (i < 0 || ways_[j].lru < ways_[i].lru) i = j;
      }
      if (ways_[i].valid) bump(&Stats::evictions);
      ways_[i] = Way{line, ++clock_, true};
      std::memcpy(&data_[std::size_t(i) * config_.line], r.data, config_.line);
    }
  }
  free_.push_back(m);
  for (const Job& job : waiters) {  // merge order
    gp_t& g = *job.gp;
    if (r.ok()) std::memcpy(g.get_data_ptr(), r.data + (g.get_address() - line), g.get_data_length());
    g.set_response_status(r.status);
    complete(job);
  }
  mshr_freed_.notify(SC_ZERO_TIME);
}

void L2Cache::complete(const Job& job) {
  if (job.gp->get_response_status() != tlm::TLM_OK_RESPONSE) bump(&Stats::errors);
  if (job.done) {
    job.done->notify();  // the b_transport caller resumes
    return;
  }
  ready_.push_back(job.gp);
  send_response();
}

// ---- upstream: AT ----

tlm::tlm_sync_enum L2Cache::nb_transport_fw(gp_t& gp, tlm::tlm_phase& phase, sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    if (gp.has_mm()) gp.acquire();
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

void L2Cache::incoming(gp_t& gp, const tlm::tlm_phase& phase) {
  if (phase == tlm::BEGIN_REQ) {
    if (request_open_) SC_REPORT_FATAL(name(), "BEGIN_REQ before END_REQ of the previous request");
    if (config_.request_queue) {
      queue_.push_back(Job{&gp, nullptr, false});
      if (queue_.size() <= config_.request_queue) {
        end_req_now(gp);
      } else {
        bump(&Stats::queue_full);
        request_open_ = &gp;  // END_REQ when a lookup makes room
      }
      drain_event_.notify(until(std::max(now_cycle(), next_drain_)));
      return;
    }
    request_open_ = &gp;
    Job job{&gp, nullptr, false};
    const Outcome o = handle(job);
    if (o.kind == Outcome::Blocked) {
      blocked_ = job;  // END_REQ withheld until an MSHR frees
      return;
    }
    accepted(gp, o);
    return;
  }
  // END_RESP (explicit, or the TLM_UPDATED / TLM_COMPLETED answer to our BEGIN_RESP)
  if (&gp != response_open_) SC_REPORT_FATAL(name(), "END_RESP for a transaction not in response");
  response_open_ = nullptr;
  if (gp.has_mm()) gp.release();
  send_response();
}

void L2Cache::accepted(gp_t& gp, const Outcome& o) {
  if (o.kind == Outcome::Respond) resp_peq_.notify(gp, tlm::BEGIN_RESP, until(o.at));
  end_req_at_ = now_cycle() + 1;  // one request accepted per cycle
  end_req_event_.notify(until(end_req_at_));
}

void L2Cache::end_req_method() {
  if (!request_open_ || blocked_) return;  // ended by its BEGIN_RESP, or waiting for an MSHR
  if (now_cycle() < end_req_at_) {          // an earlier notification of a previous request
    end_req_event_.notify(until(end_req_at_));
    return;
  }
  gp_t* gp = request_open_;
  request_open_ = nullptr;
  tlm::tlm_phase phase = tlm::END_REQ;
  sc_time delay = SC_ZERO_TIME;
  from_bus->nb_transport_bw(*gp, phase, delay);  // the initiator answers TLM_ACCEPTED
}

void L2Cache::end_req_now(gp_t& gp) {
  tlm::tlm_phase phase = tlm::END_REQ;
  sc_time delay = SC_ZERO_TIME;
  from_bus->nb_transport_bw(gp, phase, delay);  // the initiator answers TLM_ACCEPTED
}

void L2Cache::drain_method() {
  const std::uint64_t now = now_cycle();
  if (queue_.empty()) return;
  if (now < next_drain_) {  // one lookup per cycle
    drain_event_.notify(until(next_drain_));
    return;
  }
  Job& job = queue_.front();
  const Outcome o = handle(job);
  if (o.kind == Outcome::Blocked) return;  // mshr_freed_ wakes us (retry_method)
  if (o.kind == Outcome::Respond) resp_peq_.notify(*job.gp, tlm::BEGIN_RESP, until(o.at));
  queue_.pop_front();
  next_drain_ = now + 1;
  if (request_open_ && queue_.size() <= config_.request_queue) {  // room for the held request
    gp_t* gp = request_open_;
    request_open_ = nullptr;
    end_req_now(*gp);
  }
  if (!queue_.empty()) drain_event_.notify(until(next_drain_));
}

void L2Cache::retry_method() {
  if (config_.request_queue) {
    drain_event_.notify(until(std::max(now_cycle(), next_drain_)));
    return;
  }
  if (!blocked_) return;
  Job job = *blocked_;
  const Outcome o = handle(job);
  if (o.kind == Outcome::Blocked) return;  // a b_transport caller took the MSHR first
  blocked_.reset();
  accepted(*job.gp, o);
}

void L2Cache::hit_ready(gp_t& gp, const tlm::tlm_phase&) {
  ready_.push_back(&gp);
  send_response();
}

void L2Cache::send_response() {
  if (response_open_ || ready_.empty()) return;
  gp_t* gp = ready_.front();
  ready_.pop_front();
  if (request_open_ == gp) request_open_ = nullptr;  // BEGIN_RESP implies END_REQ
  response_open_ = gp;
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_time delay = SC_ZERO_TIME;
  const tlm::tlm_sync_enum s = from_bus->nb_transport_bw(*gp, phase, delay);
  if (s != tlm::TLM_ACCEPTED) in_peq_.notify(*gp, tlm::END_RESP, delay);  // UPDATED or COMPLETED
}

// ---- upstream: LT, debug, DMI ----

void L2Cache::b_transport(gp_t& gp, sc_time& delay) {
  if (delay != SC_ZERO_TIME) {  // synchronise, so the cache acts in time order with AT traffic
    wait(delay);
    delay = SC_ZERO_TIME;
  }
  sc_event done;
  Job job{&gp, &done, false};
  Outcome o = handle(job);
  while (o.kind == Outcome::Blocked) {
    wait(mshr_freed_);
    o = handle(job);
  }
  if (o.kind == Outcome::Respond) {
    delay = until(o.at);  // hit or local error: annotated, no wait
    return;
  }
  wait(done);  // answered by memory: the completion is now
}

unsigned L2Cache::transport_dbg(gp_t& gp) {
  const unsigned n = to_memory->transport_dbg(gp);
  if (wb()) {
    if (n == gp.get_data_length()) debugWb(gp);
    return n;
  }
  // Keep coherent with debug writes (program loading, test set-up): drop the touched lines and
  // mark fills in flight stale, so the next timed read fetches the new bytes.
  if (gp.is_write()) invalidateRange(gp.get_address(), gp.get_data_length());
  return n;
}

bool L2Cache::get_direct_mem_ptr(gp_t& gp, tlm::tlm_dmi&) {
  // Refused: a DMI pointer to memory would let writes bypass the cache (leaving stale lines
  // here) and reads skip it. Initiators fall back to transport_dbg / timed transactions.
  gp.set_dmi_allowed(false);
  return false;
}

}  // namespace simtlm::mem
