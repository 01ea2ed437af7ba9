// L2Cache, write-back with allocation (L2Config::WritePolicy::WriteBackAllocate), as GPGPU-Sim's
// Pascal dl2 "L:B:m:L" (write-back, allocate on miss, lazy fetch on read). Each way keeps which
// of its bytes are valid and which are dirty. Every request acts at its lookup cycle `a`, in
// lookup order, so the values read are those of that order:
//   read, one line, no byte enables:
//       the line's way is being filled: merged into its MSHR (answered at the fill, in order);
//       every requested byte valid: a hit, answered at a + hit_latency;
//       otherwise a miss: the way is reserved at once (the victim, never a way being filled:
//       invalid first, else LRU; a dirty victim is written back first), an MSHR reads the
//       line; the fill is merged under the bytes written meanwhile and the MSHR's requests are
//       then served in order (reads copy, writes write).
//   write, one line: being filled: merged; held: the enabled bytes are written and marked
//       dirty; absent: a way is allocated without reading memory (only the written bytes are
//       valid). Answered at a + hit_latency (merged writes: at the fill).
//   atomic whose words lie in one line (as the SM's coalescer sends them): performed in the
//       cache, as GPGPU-Sim performs global atomics at the L2 (its memory sub-partition does the
//       atomic as the answer leaves the L2): being filled: merged, performed at the fill in
//       order; every word valid: performed at `a` (old words answered at a + hit_latency, the
//       words written dirty); otherwise a miss as for a read (way reserved, line read, the
//       atomic performed when it arrives).
//   other atomics, reads with byte enables or crossing a line, writes crossing a line: every
//       touched line is written back if dirty and dropped (waiting while one is being filled),
//       then the access goes to memory as in write-through mode.
// A write-back sends the dirty bytes (byte enables unless all are dirty) and leaves in order
// with the fills, so memory sees it before any later read of that line. No MSHR, no merge slot
// or no way free to reserve: the request waits (END_REQ withheld) until an MSHR frees.
// Debug reads see memory's bytes, over them those of the write-backs memory has not
// acknowledged yet (in order; one followed by a write or atomic to its line is skipped: memory
// has that later access's result), and over those the cache's valid bytes; debug writes update
// memory, the held bytes (marked valid, so that a fill in flight does not overwrite them) and
// the bytes of unacknowledged write-backs not yet handed to the memory port (one already handed
// over carries its bytes as they were).
#include "model/mem/l2_cache.h"

#include "model/mem/atomic_extension.h"

#include <algorithm>
#include <cstring>

#include <spdlog/spdlog.h>

namespace simtlm::mem {

namespace {

bool bit(const std::uint64_t* m, unsigned i) { return (m[i / 64] >> (i % 64)) & 1; }
void setBit(std::uint64_t* m, unsigned i) { m[i / 64] |= std::uint64_t{1} << (i % 64); }
bool allSet(const std::uint64_t* m, unsigned from, unsigned to) {
  for (unsigned i = from; i < to; ++i)
    if (!bit(m, i)) return false;
  return true;
}

}  // namespace

int L2Cache::victimWay(unsigned set) const {
  int best = -1;
  for (unsigned w = 0; w < config_.assoc; ++w) {
    const int j = static_cast<int>(set * config_.assoc + w);
    if (!ways_[j].valid) return j;
    if (ways_[j].pending) continue;
    if (best < 0 || ways_[j].lru < ways_[best].lru) best = j;
  }
  return best;
}

void L2Cache::writeBack(int w, std::uint64_t release) {
  Way& way = ways_[w];
  if (!way.dirty) return;
  auto v = std::make_shared<Victim>();
  v->line = way.line;
  const unsigned char* d = &data_[std::size_t(w) * config_.line];
  v->data.assign(d, d + config_.line);
  std::uint64_t* dirty = dirtyBits(w);
  if (!allSet(dirty, 0, config_.line)) {
    v->enable.resize(config_.line);
    for (unsigned i = 0; i < config_.line; ++i)
      v->enable[i] = bit(dirty, i) ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
  }
  std::fill(dirty, dirty + words_, 0);
  way.dirty = false;
  bump(&Stats::writebacks);
  unacked_.push_back(v);
  enqueue(Outgoing{Outgoing::WriteBack, release, Job{}, 0, std::move(v)});
}

bool L2Cache::flushRange(std::uint64_t address, std::uint64_t length) {
  const std::uint64_t first = lineOf(address), last = lineOf(address + length - 1);
  for (std::uint64_t l = first;; l += config_.line) {
    if (const int w = find(l); w >= 0 && ways_[w].pending) return false;
    if (l == last) break;
  }
  for (std::uint64_t l = first;; l += config_.line) {
    if (const int w = find(l); w >= 0) {
      writeBack(w, now_cycle());
      ways_[w].valid = false;
      std::fill(validBits(w), validBits(w) + words_, 0);
    }
    if (l == last) break;
  }
  return true;
}

void L2Cache::applyWrite(int w, const gp_t& gp) {
  const std::uint64_t a = gp.get_address(), line = ways_[w].line;
  const unsigned len = gp.get_data_length();
  const unsigned char* d = gp.get_data_ptr();
  const unsigned char* be = gp.get_byte_enable_ptr();
  const unsigned be_len = gp.get_byte_enable_length();
  unsigned char* cached = &data_[std::size_t(w) * config_.line];
  std::uint64_t* valid = validBits(w);
  std::uint64_t* dirty = dirtyBits(w);
  for (unsigned i = 0; i < len; ++i) {
    if (be && be[i % be_len] == TLM_BYTE_DISABLED) continue;
    const unsigned o = static_cast<unsigned>(a + i - line);
    cached[o] = d[i];
    setBit(valid, o);
    setBit(dirty, o);
  }
  ways_[w].dirty = true;
  ways_[w].lru = ++clock_;
}

bool L2Cache::atomicWordsValid(int w, const gp_t& gp) {
  const AtomicExtension* ext = gp.get_extension<AtomicExtension>();
  const unsigned base = static_cast<unsigned>(gp.get_address() - ways_[w].line);
  for (unsigned i = 0; i < ext->ops.count; ++i)
    if (!allSet(validBits(w), base + ext->ops[i].offset, base + ext->ops[i].offset + 4)) return false;
  return true;
}

void L2Cache::performAtomic(int w, gp_t& gp) {
  const AtomicExtension* ext = gp.get_extension<AtomicExtension>();
  struct Ctx {
    L2Cache* self;
    int w;
    unsigned char* at(std::uint64_t a) const {
      return &self->data_[std::size_t(w) * self->config_.line + (a - self->ways_[w].line)];
    }
  } ctx{this, w};
  std::uint32_t old[kMaxLanes];
  applyAtomic(
      ext->op, ext->ops, gp.get_address(), old, &ctx,
      [](void* c, std::uint64_t a) {
        std::uint32_t v;
        std::memcpy(&v, static_cast<Ctx*>(c)->at(a), 4);
        return v;
      },
      [](void* c, std::uint64_t a, std::uint32_t v) {
        const Ctx& x = *static_cast<Ctx*>(c);
        std::memcpy(x.at(a), &v, 4);
        const unsigned o = static_cast<unsigned>(a - x.self->ways_[x.w].line);
        for (unsigned i = o; i < o + 4; ++i) setBit(x.self->dirtyBits(x.w), i);
      });
  std::memcpy(gp.get_data_ptr(), old, 4 * ext->ops.count);
  ways_[w].dirty = true;
  ways_[w].lru = ++clock_;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

L2Cache::Outcome L2Cache::handleWb(Job& job, std::uint64_t a, std::uint64_t release) {
  gp_t& gp = *job.gp;
  const std::uint64_t addr = gp.get_address();
  const unsigned len = gp.get_data_length();
  const std::uint64_t line = lineOf(addr);
  const bool oneLine = lineOf(addr + len - 1) == line;
  const AtomicExtension* ext = gp.get_extension<AtomicExtension>();
  // An atomic whose words all lie in one line is performed in the cache (as GPGPU-Sim performs
  // global atomics at the L2), else it goes to memory as below.
  bool atomicHere = ext != nullptr;
  if (ext)
    for (unsigned i = 0; i < ext->ops.count; ++i)
      if (lineOf(addr + ext->ops[i].offset) != line || lineOf(addr + ext->ops[i].offset + 3) != line)
        atomicHere = false;
  const auto blocked = [&] {
    if (!job.stalled) bump(&Stats::mshr_stalls);
    job.stalled = true;
    return Outcome{Outcome::Blocked, 0};
  };

  if ((ext && !atomicHere) || (!ext && !oneLine) ||
      (gp.is_read() && gp.get_byte_enable_ptr())) {  // to memory, uncached
    if (ext) {  // the lines of its words (one line when it comes from an SM's coalescer)
      for (unsigned i = 0; i < ext->ops.count; ++i)
        if (const int w = find(lineOf(addr + ext->ops[i].offset)); w >= 0 && ways_[w].pending)
          return blocked();
      for (unsigned i = 0; i < ext->ops.count; ++i) flushRange(addr + ext->ops[i].offset, 4);
    } else if (!flushRange(addr, len)) {
      return blocked();
    }
    // Memory will hold this write's or atomic's result over the write-backs of its lines.
    const auto supersede = [&](std::uint64_t first, std::uint64_t last) {
      for (const auto& v : unacked_)
        if (v->line >= first && v->line <= last) v->superseded = true;
    };
    if (ext) {
      for (unsigned i = 0; i < ext->ops.count; ++i)
        supersede(lineOf(addr + ext->ops[i].offset), lineOf(addr + ext->ops[i].offset));
    } else if (gp.is_write()) {
      supersede(line, lineOf(addr + len - 1));
    }
    if (ext) {
      bump(&Stats::atomics);
      enqueue(Outgoing{Outgoing::Atomic, release, job, 0});
    } else if (gp.is_write()) {
      bump(&Stats::writes);
      enqueue(Outgoing{Outgoing::Write, release, job, 0});
    } else {
      bump(&Stats::reads);
      bump(&Stats::bypasses);
      enqueue(Outgoing{Outgoing::Bypass, release, job, 0});
    }
    return Outcome{Outcome::Pending, 0};
  }

  int w = find(line);
  if (w >= 0 && ways_[w].pending) {  // merge behind the fill
    Mshr& m = mshrs_[open_.at(line)];
    if (config_.mshr_merge && m.waiters.size() >= config_.mshr_merge) return blocked();
    m.waiters.push_back(job);
    if (ext) {
      bump(&Stats::atomics);
    } else if (gp.is_write()) {
      bump(&Stats::writes);
      bump(&Stats::write_hits);
    } else {
      bump(&Stats::reads);
      bump(&Stats::misses);
      bump(&Stats::merged);
    }
    return Outcome{Outcome::Pending, 0};
  }
  const unsigned off = static_cast<unsigned>(addr - line);
  if (gp.is_write()) {
    if (w < 0) {
      w = victimWay(setOf(line));
      if (w < 0) return blocked();
      if (ways_[w].valid) bump(&Stats::evictions);
      writeBack(w, a);
      ways_[w] = Way{line, 0, true, false, false};
      std::fill(validBits(w), validBits(w) + 2 * words_, 0);
      bump(&Stats::write_misses);
    } else {
      bump(&Stats::write_hits);
    }
    bump(&Stats::writes);
    applyWrite(w, gp);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return Outcome{Outcome::Respond, release};
  }
  if (ext && w >= 0 && atomicWordsValid(w, gp)) {
    bump(&Stats::atomics);
    performAtomic(w, gp);
    return Outcome{Outcome::Respond, release};
  }
  if (!ext && w >= 0 && allSet(validBits(w), off, off + len)) {
    bump(&Stats::reads);
    bump(&Stats::hits);
    ways_[w].lru = ++clock_;
    std::memcpy(gp.get_data_ptr(), &data_[std::size_t(w) * config_.line + off], len);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return Outcome{Outcome::Respond, release};
  }
  if (free_.empty()) return blocked();
  if (w < 0) {
    w = victimWay(setOf(line));
    if (w < 0) return blocked();
    if (ways_[w].valid) bump(&Stats::evictions);
    writeBack(w, a);
    ways_[w] = Way{line, 0, true, false, false};
    std::fill(validBits(w), validBits(w) + 2 * words_, 0);
  }
  ways_[w].pending = true;
  ways_[w].lru = ++clock_;
  if (ext) {
    bump(&Stats::atomics);  // performed when the line is in
  } else {
    bump(&Stats::reads);
    bump(&Stats::misses);
  }
  const unsigned m = free_.back();
  free_.pop_back();
  mshrs_[m].line = line;
  mshrs_[m].stale = false;
  mshrs_[m].way = w;
  mshrs_[m].waiters.assign(1, job);
  open_[line] = m;
  enqueue(Outgoing{Outgoing::Fill, release, Job{}, m});
  if (log_.should_log(spdlog::level::trace))
    log_.trace("cycle {}: read miss 0x{:x} ({} B), MSHR {} reads line 0x{:x} into way {}", a,
               addr, len, m, line, w);
  return Outcome{Outcome::Pending, 0};
}

void L2Cache::fillWb(unsigned m, const MemResult& r) {
  Mshr& mshr = mshrs_[m];
  const int w = mshr.way;
  std::vector<Job> waiters;
  waiters.swap(mshr.waiters);
  unsigned char* cached = &data_[std::size_t(w) * config_.line];
  std::uint64_t* valid = validBits(w);
  if (r.ok()) {
    bump(&Stats::bytes_from_memory, r.size);
    bool partial = false;
    for (unsigned i = 0; i < config_.line; ++i) {
      if (bit(valid, i)) {
        partial = true;
        continue;
      }
      cached[i] = r.data[i];
      setBit(valid, i);
    }
    if (partial) bump(&Stats::partial_fills);
  }
  ways_[w].pending = false;
  open_.erase(mshr.line);
  mshr.way = -1;
  free_.push_back(m);
  for (const Job& job : waiters) {  // in lookup order
    gp_t& g = *job.gp;
    if (g.get_extension<AtomicExtension>()) {
      if (atomicWordsValid(w, g)) performAtomic(w, g);
      else g.set_response_status(r.ok() ? tlm::TLM_GENERIC_ERROR_RESPONSE : r.status);
    } else if (g.is_write()) {
      applyWrite(w, g);
      g.set_response_status(tlm::TLM_OK_RESPONSE);
    } else {
      const unsigned off = static_cast<unsigned>(g.get_address() - mshr.line);
      if (allSet(valid, off, off + g.get_data_length())) {
        std::memcpy(g.get_data_ptr(), cached + off, g.get_data_length());
        g.set_response_status(tlm::TLM_OK_RESPONSE);
      } else {
        g.set_response_status(r.ok() ? tlm::TLM_GENERIC_ERROR_RESPONSE : r.status);
      }
    }
    complete(job);
  }
  if (!r.ok() && !ways_[w].dirty) ways_[w].valid = false;  // nothing worth keeping
  mshr_freed_.notify(sc_core::SC_ZERO_TIME);
}

void L2Cache::debugWb(gp_t& gp) {
  const std::uint64_t a = gp.get_address(), len = gp.get_data_length();
  if (len == 0) return;
  unsigned char* d = gp.get_data_ptr();
  for (const auto& v : unacked_) {  // oldest first, so a later write-back of a line wins
    if (v->line + config_.line <= a || v->line >= a + len || (!gp.is_write() && v->superseded)) continue;
    const std::uint64_t lo = std::max(a, v->line), hi = std::min(a + len, v->line + config_.line);
    for (std::uint64_t b = lo; b < hi; ++b) {
      const unsigned o = static_cast<unsigned>(b - v->line);
      if (!v->enable.empty() && v->enable[o] == TLM_BYTE_DISABLED) continue;
      if (gp.is_write()) v->data[o] = d[b - a];
      else d[b - a] = v->data[o];
    }
  }
  const auto visit = [&](int w) {
    const std::uint64_t line = ways_[w].line;
    const std::uint64_t lo = std::max(a, line), hi = std::min(a + len, line + config_.line);
    unsigned char* cached = &data_[std::size_t(w) * config_.line];
    std::uint64_t* valid = validBits(w);
    const bool write = gp.is_write();
    for (std::uint64_t b = lo; b < hi;) {
      const unsigned o = static_cast<unsigned>(b - line);
      if (o % 64 == 0 && hi - b >= 64 && (write || valid[o / 64] == ~std::uint64_t{0})) {
        // A whole word of the masks at once (the host's buffer copies: whole lines).
        if (write) {  // memory has it now too: valid, dirtiness unchanged
          std::memcpy(cached + o, d + (b - a), 64);
          valid[o / 64] = ~std::uint64_t{0};
        } else {
          std::memcpy(d + (b - a), cached + o, 64);
        }
        b += 64;
        continue;
      }
      if (write) {
        cached[o] = d[b - a];
        setBit(valid, o);
      } else if (bit(valid, o)) {
        d[b - a] = cached[o];
      }
      ++b;
    }
  };
  const std::uint64_t first = lineOf(a), last = lineOf(a + len - 1);
  if ((last - first) / config_.line < ways_.size()) {
    for (std::uint64_t l = first;; l += config_.line) {
      if (const int w = find(l); w >= 0) visit(w);
      if (l == last) break;
    }
    return;
  }
  for (std::size_t w = 0; w < ways_.size(); ++w)  // a range larger than the cache
    if (ways_[w].valid && ways_[w].line >= first && ways_[w].line <= last) visit(static_cast<int>(w));
}

}  // namespace simtlm::mem
