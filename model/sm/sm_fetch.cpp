// The SM's front end (the `fetch` unit, docs/timing-model.md): deliveries of fetches that are
// due, one I-cache probe per cycle in loose round robin, and the check for a warp that ran off
// the end of the kernel.
#include "model/sm/sm_core.h"
#include "model/sm/sm_core_state.h"

#include <algorithm>

namespace simtlm::sm {

void SmCore::fetch(uint64_t cycle) {
  // Deliver the fetches that complete this cycle, then start one more.
  // Only the warps with a fetch in flight are looked at (fetchList_: slot and fetch id; an entry
  // whose warp retired or started another fetch is dropped).
  size_t keep = 0;
  for (size_t f = 0; f < fetchList_.size(); ++f) {
    const auto [i, id] = fetchList_[f];
    Warp& w = warps_[static_cast<size_t>(i)];
    if (!w.fetchInFlight || w.fetchId != id) continue;
    if (w.fetchReadyAt > cycle) {
      fetchList_[keep++] = fetchList_[f];
      continue;
    }
    w.fetchInFlight = false;
    opEvents_++;  // the warp may fetch again (also after a stale delivery that pushes nothing)
    wake(i);
    if (!w.active || w.done || w.fetchEpoch != w.epoch) continue;  // stale: the path changed
    // Up to fetch_width consecutive instructions of the I-cache line accessed, as many as the
    // I-buffer has room for, ending after a control instruction (the next PC is known once it
    // issues). The words are those decoded at launch (KernelImage): the I-cache access (and
    // its fill over the memory system on a miss) is the timing, not the source of the bits.
    const uint64_t line = icache_.lineOf(image_.codeBase + w.fetchingPc);
    for (int k = 0; k < cfg_.frontend.fetch_width && !w.ibuf.full(); ++k) {
      const size_t idx = isa::Kernel::indexOf(w.fetchingPc);
      if (idx >= image_.kernel->size()) break;  // past the end: the warp stalls there
      if (k > 0 && icache_.lineOf(image_.codeBase + w.fetchingPc) != line) break;  // next line
      if (mech_ && mech_->holdsFetch(i)) break;  // the mechanism decides this PC first
      IBufferEntry entry = decode(w.fetchingPc);
      const isa::Instr& in = entry.instr;
      if (mech_) mech_->delivered(i, entry);
      w.ibuf.push(entry);
      fetched_++;
      w.fetchingPc += 8;
      w.fetchPc = w.fetchingPc;
      // (A mechanism may stop fetch behind other instructions too.)
      if (isControl(in.op) || (mech_ && mech_->fetchStopsAfter(in))) {
        w.fetchBlocked = true;
        break;
      }
    }
  }
  fetchList_.resize(keep);
  // Loose round robin over warps that can take a whole fetch (as GPGPU-Sim: both I-buffer
  // entries free, by default).
  // A scan that found no warp to fetch for is not repeated until the SM's state changes.
  if (fetchAsleep_ && fetchVersion_ == stateVersion()) return;
  fetchAsleep_ = false;
  const int n = static_cast<int>(warps_.size());
  const int start = lastFetched_ + 1 >= n ? 0 : lastFetched_ + 1;
  const int throughput = cfg_.frontend.fetch_throughput;
  int started = 0;
  // Only the warps woken since they were last found unable to fetch, in the same order (a
  // mechanism wakes the warps whose fetch it lets go: SmContext::wake).
  for (int pass = 0; pass < 2; ++pass) {
    const int lo = pass == 0 ? start : 0, hi = pass == 0 ? n : start;
    for (int wd = lo / 64; wd * 64 < hi; ++wd) {
      uint64_t bits = fetchCandidates_[static_cast<size_t>(wd)];
      if (wd * 64 < lo) bits &= ~uint64_t{0} << (lo - wd * 64);
      if (hi - wd * 64 < 64) bits &= (uint64_t{1} << (hi - wd * 64)) - 1;
      for (; bits; bits &= bits - 1) {
        const int i = wd * 64 + __builtin_ctzll(bits);
        if (tryFetch(i, cycle)) {
          // A fault, or a fetch lost to busy MSHRs, ends the cycle's fetching; a fetch started
          // lets the scan go on to the next warp, up to fetch_throughput fetches.
          if (!fault_.empty() || !warps_[static_cast<size_t>(i)].fetchInFlight || ++started == throughput) return;
          continue;
        }
        setBit(fetchCandidates_[static_cast<size_t>(wd)], i - wd * 64, false);
      }
    }
  }
  if (started > 0) return;  // (the fetching warps are woken at delivery)
  fetchAsleep_ = true;
  fetchVersion_ = stateVersion();
}

// Whether the fetch scan ends at warp i: it faults, fetches, or loses this cycle's fetch.
bool SmCore::tryFetch(int i, uint64_t cycle) {
  Warp& w = warps_[static_cast<size_t>(i)];
  // (These warps cannot have run off the end either: the cheap test first.)
  if (!w.active || w.done || w.fetchInFlight || w.fetchBlocked) return false;
  if (ranOffTheEnd(w, i)) {
    setFault(i, "PC past the last instruction (missing exit?)", {w.fetchPc, -1, std::nullopt});
    return true;
  }
  const int need = std::min(cfg_.frontend.fetch_width, cfg_.frontend.ibuffer_entries);
  if (w.ibuf.size() + need > cfg_.frontend.ibuffer_entries || isa::Kernel::indexOf(w.fetchPc) >= image_.kernel->size() ||
      (mech_ && mech_->holdsFetch(i)))
    return false;
  // Probe the I-cache at the fetch address. With every MSHR busy this cycle's fetch is
  // lost and the round robin moves on (GPGPU-Sim's reservation failure).
  const uint64_t address = image_.codeBase + w.fetchPc;
  lastFetched_ = i;
  if (!icache_.canAccept(address)) return true;
  w.fetchInFlight = true;
  w.fetchingPc = w.fetchPc;
  w.fetchEpoch = w.epoch;
  w.fetchId = ++nextFetchId_;
  fetchList_.push_back({i, w.fetchId});
  const uint64_t tag = uint64_t{w.fetchId} << 32 | static_cast<uint32_t>(i);
  // Hit (or a fill answered at once): the instructions arrive icache_hit_latency cycles later
  // (at least one). Miss: when the line's fill is installed (the respond hook set in the
  // constructor).
  const auto outcome = icache_.access(address, tag, cycle, &w.icacheWay);
  const bool hit = outcome == frontend::ICache::Outcome::Hit || outcome == frontend::ICache::Outcome::Filled;
  w.fetchReadyAt = hit ? cycle + static_cast<uint64_t>(std::max(1, cfg_.frontend.icache_hit_latency)) : kNotYet;
  if (fetchLog_.should_log(spdlog::level::trace)) traceFetch(i, w.fetchPc, hit, cycle);
  return true;
}

// Fetch has nothing left to deliver before the warp's next instruction, and that lies past the
// kernel's last: once the warp's older instructions are done (any of them may still fault
// first, as on the interpreter), it would execute there.
bool SmCore::ranOffTheEnd(const Warp& w, int slot) const {
  return w.active && !w.done && isa::Kernel::indexOf(w.fetchPc) >= image_.kernel->size() && !w.fetchInFlight &&
         !w.fetchBlocked && !w.atBarrier && w.ibuf.empty() && !w.pendingMem && !ops_.inCollectors(slot);
}

}  // namespace simtlm::sm
