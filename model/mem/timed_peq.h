// TimedPeq: tlm_utils::peq_with_cb_and_phase with its timed notifications in a FIFO and a heap.
//
// The Accellera queue keeps timed notifications in a sorted singly linked list, so each notify
// walks every notification due earlier: a target with many responses pending (an L2 slice
// answering hits while misses wait, a DRAM channel) pays a walk per transaction. Here they sit in
// a FIFO while each is due no earlier than the one before it there (a fixed latency), the others
// in a heap, and are taken from both in (due time, order of notification) order, which is the
// order the list gives (a notification goes after every one due at the same time or earlier), in
// storage reused from transaction to transaction. Everything else is the Accellera queue's: the callback is called
// from one spawned method process, delta notifications alternate between two lists by the
// parity of the delta cycle, and the process's event is notified as the Accellera queue does,
// so callbacks run in the same order and at the same times.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include <systemc>
#include <sysc/kernel/sc_dynamic_processes.h>  // sc_spawn, whatever included <systemc> first
#include <tlm>

namespace simtlm::mem {

template <typename OWNER>
class TimedPeq : public sc_core::sc_object {
 public:
  using gp_t = tlm::tlm_generic_payload;
  using Callback = void (OWNER::*)(gp_t&, const tlm::tlm_phase&);

  TimedPeq(const char* name, OWNER* owner, Callback cb) : sc_core::sc_object(name), owner_(owner), cb_(cb) {
    sc_core::sc_spawn_options opts;
    opts.spawn_method();
    opts.set_sensitivity(&event_);
    opts.dont_initialize();
    sc_core::sc_spawn(sc_bind(&TimedPeq::fire, this), sc_core::sc_gen_unique_name("fec"), &opts);
    even_.reserve(100);
    uneven_.reserve(100);
  }

  // The callback runs for (gp, phase) `delay` from now (SC_ZERO_TIME: in the next delta cycle).
  void notify(gp_t& gp, const tlm::tlm_phase& phase, const sc_core::sc_time& delay) {
    if (delay == sc_core::SC_ZERO_TIME) {
      (sc_core::sc_delta_count() & 1 ? even_ : uneven_).emplace_back(&gp, phase);
      event_.notify(sc_core::SC_ZERO_TIME);
      return;
    }
    const Timed t{delay + sc_core::sc_time_stamp(), next_++, &gp, phase};
    if (in_order_.empty() || !(t.at < in_order_.back().at)) {
      in_order_.push_back(t);  // due no earlier than the last in order (a fixed latency): no heap
    } else {
      timed_.push_back(t);
      std::push_heap(timed_.begin(), timed_.end(), Later{});
    }
    event_.notify(delay);  // only an earlier time replaces the pending one
  }

 private:
  struct Timed {
    sc_core::sc_time at;
    std::uint64_t order;
    gp_t* gp;
    tlm::tlm_phase phase;
  };
  struct Later {  // std heap functions keep the greatest first: the latest compares smallest
    bool operator()(const Timed& a, const Timed& b) const {
      return a.at != b.at ? a.at > b.at : a.order > b.order;
    }
  };
  using Entries = std::vector<std::pair<gp_t*, tlm::tlm_phase>>;

  void run(Entries& list) {
    // A callback may add to the other list only (the next delta's); index: no iterator survives growth.
    for (size_t i = 0; i < list.size(); ++i) (owner_->*cb_)(*list[i].first, list[i].second);
    list.clear();
  }

  void fire() {
    if (sc_core::sc_delta_count() & 1) {
      run(uneven_);
      if (!even_.empty()) event_.notify(sc_core::SC_ZERO_TIME);
    } else {
      run(even_);
      if (!uneven_.empty()) event_.notify(sc_core::SC_ZERO_TIME);
    }
    if (timed_.empty() && in_order_.empty()) return;
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    for (;;) {
      const Timed* first = earliest();
      if (!first || first->at != now) break;
      Timed t;
      if (!in_order_.empty() && first == &in_order_.front()) {
        t = in_order_.front();
        in_order_.pop_front();
      } else {
        std::pop_heap(timed_.begin(), timed_.end(), Later{});
        t = timed_.back();
        timed_.pop_back();
      }
      (owner_->*cb_)(*t.gp, t.phase);
    }
    if (const Timed* first = earliest()) event_.notify(first->at - now);
  }

  // The next notification due: the earlier of the two queues' heads by (due time, order).
  const Timed* earliest() const {
    if (in_order_.empty()) return timed_.empty() ? nullptr : &timed_.front();
    if (timed_.empty() || Later{}(timed_.front(), in_order_.front())) return &in_order_.front();
    return &timed_.front();
  }

  OWNER* owner_;
  Callback cb_;
  // Timed notifications in two queues, together in (due time, order) order: those due no
  // earlier than the one before them in a FIFO (most: a target's fixed latency), the rest in a
  // heap (the earliest first).
  std::deque<Timed> in_order_;
  std::vector<Timed> timed_;
  std::uint64_t next_ = 0;
  Entries even_, uneven_;
  sc_core::sc_event event_;
};

}  // namespace simtlm::mem
