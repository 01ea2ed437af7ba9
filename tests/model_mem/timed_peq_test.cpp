// TimedPeq against the Accellera tlm_utils::peq_with_cb_and_phase it replaces: the same
// notifications (delta and timed, from a process and from inside callbacks) give the same
// callbacks at the same time and delta cycle, in the same order.
#include "model/mem/timed_peq.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include <tlm_utils/peq_with_cb_and_phase.h>

using namespace sc_core;

namespace {

using Fired = std::tuple<int, double, std::uint64_t>;  // payload, time (ns), delta count

// One queue under test and its log. A callback may notify again (the follow-up chosen from the
// payload's number, identically for both queues).
template <template <class> class Queue>
struct Side {
  std::vector<tlm::tlm_generic_payload>& gps;
  std::vector<Fired> log;
  Queue<Side> peq;
  Side(const char* name, std::vector<tlm::tlm_generic_payload>& g) : gps(g), peq(name, this, &Side::fired) {}
  int indexOf(const tlm::tlm_generic_payload& gp) const { return static_cast<int>(&gp - gps.data()); }
  void fired(tlm::tlm_generic_payload& gp, const tlm::tlm_phase&) {
    const int i = indexOf(gp);
    log.emplace_back(i, sc_time_stamp().to_double(), sc_delta_count());
    // Every third payload sends a follow-up: in the next delta, or 1-3 ns later.
    if (i % 3 == 0 && i + 1 < static_cast<int>(gps.size())) {
      tlm::tlm_phase ph = tlm::BEGIN_RESP;
      peq.notify(gps[static_cast<size_t>(i + 1)], ph, sc_time((i / 3) % 4, SC_NS));
    }
  }
};

template <class Owner>
using Accellera = tlm_utils::peq_with_cb_and_phase<Owner>;
template <class Owner>
using Ours = simtlm::mem::TimedPeq<Owner>;

struct Driver : sc_module {
  std::vector<tlm::tlm_generic_payload> gps;
  Side<Accellera> reference;
  Side<Ours> tested;
  unsigned seed;
  SC_HAS_PROCESS(Driver);
  Driver(sc_module_name n, unsigned s)
      : sc_module(n), gps(3000), reference("reference", gps), tested("tested", gps), seed(s) {
    SC_THREAD(run);
  }
  void send(int i, const sc_time& delay) {
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    reference.peq.notify(gps[static_cast<size_t>(i)], ph, delay);
    tested.peq.notify(gps[static_cast<size_t>(i)], ph, delay);
  }
  void run() {
    std::mt19937 rng(seed);
    int next = 2;  // (payloads 3k + 1 are the follow-ups of 3k: never sent from here)
    while (next + 3 < static_cast<int>(gps.size())) {
      // A burst: same-time, earlier-than-pending, later and delta notifications mixed.
      const int n = static_cast<int>(rng() % 5);
      for (int k = 0; k < n && next + 3 < static_cast<int>(gps.size()); ++k) {
        const unsigned kind = rng() % 4;
        const sc_time delay = kind == 0 ? SC_ZERO_TIME : sc_time(static_cast<double>(rng() % (kind == 1 ? 3 : 40)), SC_NS);
        send(next, delay);
        next += next % 3 == 0 ? 2 : 1;  // skip the follow-ups' numbers
      }
      const unsigned wait_kind = rng() % 3;
      if (wait_kind == 0) wait(SC_ZERO_TIME);  // another delta cycle at this time
      else wait(sc_time(static_cast<double>(rng() % 6 + 1), SC_NS));
    }
  }
};

}  // namespace

TEST(TimedPeq, FiresAsTheAccelleraQueueDoes) {
  Driver d("driver", 2026);
  sc_start();
  ASSERT_GT(d.reference.log.size(), 2900u);  // every payload sent and every follow-up fired
  ASSERT_EQ(d.tested.log.size(), d.reference.log.size());
  for (size_t k = 0; k < d.reference.log.size(); ++k)
    ASSERT_EQ(d.tested.log[k], d.reference.log[k]) << "callback " << k << " (payload, ns, delta)";
}
