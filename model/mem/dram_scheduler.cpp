#include "model/mem/dram_scheduler.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace simtlm::mem {

FrFcfsDram::FrFcfsDram(const DramTimings& t) : t_(t), bank_shift_(12) {
  for (unsigned half = std::max(1u, t_.banks / 2); half > 1; half >>= 1) ++bank_shift_;
  channels_.resize(t_.channels);
  for (Channel& c : channels_) c.banks.resize(t_.banks);
  hit_.resize(t_.banks);
  oldest_.resize(t_.banks);
}

FrFcfsDram::Location FrFcfsDram::locate(std::uint64_t a) const {
  const std::uint64_t chunk = a / t_.interleave;
  const std::uint64_t local = chunk / t_.channels * t_.interleave + a % t_.interleave;
  const unsigned half = std::max(1u, t_.banks / 2);
  const unsigned bank =
      t_.banks == 1 ? 0
                    : static_cast<unsigned>(((local >> 7) & 1) | ((local >> 12) % half) << 1);
  return Location{static_cast<unsigned>(chunk % t_.channels), bank, local >> bank_shift_};
}

bool FrFcfsDram::hasRoom(std::uint64_t address) const {
  return channels_[locate(address).channel].queue.size() < t_.queue_depth;
}

void FrFcfsDram::push(const Request& r, std::uint64_t now) {
  const Location at = locate(r.address);
  channels_[at.channel].queue.push_back(Queued{r, at, now});
}

std::uint64_t FrFcfsDram::burstCycles(unsigned length) const {
  const unsigned atoms = std::max(1u, (length + t_.atom_bytes - 1) / t_.atom_bytes);
  // Rounded up once per access, not per atom: a line of 4 atoms costs ceil(4 x tCCD).
  return static_cast<std::uint64_t>(std::ceil(atoms * t_.burst_per_atom - 1e-9));
}

FrFcfsDram::Started FrFcfsDram::start(Channel& c, const Queued& q, std::uint64_t now) {
  Bank& b = c.banks[q.at.bank];
  const bool hit = b.open && b.row == q.at.row, conflict = b.open && !hit;
  std::uint64_t column = std::max(now, b.free);
  if (!hit) {
    std::uint64_t act = column;
    if (conflict) act = std::max(column, b.activated + t_.t_ras) + t_.t_rp;
    b.activated = act;
    b.row = q.at.row;
    b.open = true;
    column = act + t_.t_rcd;
  }
  const std::uint64_t burst = burstCycles(q.r.length);
  const std::uint64_t data = column + (q.r.write ? t_.t_wl : t_.t_cl);
  const std::uint64_t slot = std::max(data, c.bus_free);
  c.bus_free = slot + burst;
  b.free = column + burst;
  return Started{q.r.tag, slot + burst + t_.latency, hit, conflict, now - q.arrival};
}

void FrFcfsDram::schedule(std::uint64_t now, std::vector<Started>& out) {
  std::vector<int>& chosen = chosen_;
  for (Channel& c : channels_) {
    if (c.queue.empty()) continue;
    std::fill(hit_.begin(), hit_.end(), -1);
    std::fill(oldest_.begin(), oldest_.end(), -1);
    for (int i = 0; i < static_cast<int>(c.queue.size()); ++i) {
      const Queued& q = c.queue[i];
      const Bank& b = c.banks[q.at.bank];
      if (b.free > now) continue;
      if (oldest_[q.at.bank] < 0) oldest_[q.at.bank] = i;
      if (hit_[q.at.bank] < 0 && b.open && b.row == q.at.row) hit_[q.at.bank] = i;
    }
    chosen.clear();
    for (unsigned k = 0; k < t_.banks; ++k)
      if (oldest_[k] >= 0) chosen.push_back(hit_[k] >= 0 ? hit_[k] : oldest_[k]);
    if (chosen.empty()) continue;
    std::sort(chosen.begin(), chosen.end());  // oldest first on the data bus
    // The data bus may be booked at most horizon() cycles ahead (a row conflict's own lead):
    // past that, requests wait in the queue, which fills and withholds END_REQ, instead of
    // booking the bus ever further ahead (a posted write stream was accepted faster than the
    // bus carries it).
    std::size_t kept = 0;
    for (int i : chosen) {
      if (c.bus_free > now + horizon()) break;
      out.push_back(start(c, c.queue[i], now));
      chosen[kept++] = i;
    }
    chosen.resize(kept);
    for (auto it = chosen.rbegin(); it != chosen.rend(); ++it) c.queue.erase(c.queue.begin() + *it);
  }
}

std::uint64_t FrFcfsDram::nextWake() const {
  std::uint64_t w = std::numeric_limits<std::uint64_t>::max();
  for (const Channel& c : channels_)
    for (const Queued& q : c.queue) {
      // Booked too far ahead: not before the bus's backlog falls to the horizon.
      const std::uint64_t free = c.banks[q.at.bank].free;
      w = std::min(w, std::max(free, c.bus_free > horizon() ? c.bus_free - horizon() : 0));
    }
  return w;
}

}  // namespace simtlm::mem
