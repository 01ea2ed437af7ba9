// PipelineRegister (model/sm/pipeline_register.h) against sc_fifo<T>: the same observations
// between delta cycles, with UpdateList::commit() standing in for sc_fifo's update phase.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <systemc>

#include "model/sm/pipeline_register.h"

using simtlm::sm::PipelineRegister;
using simtlm::sm::UpdateList;

namespace {

// ---- Plain C++: no sc_start -------------------------------------------------------------

TEST(PipelineRegister, WriteIsReadableOnlyAfterCommit) {
  UpdateList list;
  PipelineRegister<int> r("sm0.fetch_to_issue", 2, list);
  EXPECT_EQ(r.num_available(), 0);
  EXPECT_EQ(r.num_free(), 2);
  EXPECT_TRUE(list.empty());
  EXPECT_TRUE(r.nb_write(7));
  EXPECT_EQ(r.num_available(), 0);  // written since the last commit: not readable yet
  EXPECT_EQ(r.num_free(), 1);
  int v = -1;
  EXPECT_FALSE(r.nb_read(v));
  EXPECT_EQ(v, -1);
  EXPECT_EQ(list.size(), 1u);
  list.commit();
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(r.num_available(), 1);
  EXPECT_EQ(r.num_free(), 1);
  EXPECT_TRUE(r.nb_read(v));
  EXPECT_EQ(v, 7);
  EXPECT_EQ(r.num_available(), 0);
}

TEST(PipelineRegister, ReadFreesRoomOnlyAtCommit) {
  UpdateList list;
  PipelineRegister<int> r("sm0.issue_to_oc", 1, list);
  EXPECT_TRUE(r.nb_write(5));
  EXPECT_EQ(r.num_free(), 0);
  EXPECT_FALSE(r.nb_write(6));
  list.commit();
  EXPECT_EQ(r.num_free(), 0);
  int v = 0;
  EXPECT_TRUE(r.nb_read(v));
  EXPECT_EQ(v, 5);
  EXPECT_EQ(r.num_available(), 0);
  EXPECT_EQ(r.num_free(), 0);  // the slot is empty, but sc_fifo frees it only at update
  EXPECT_FALSE(r.nb_write(6));
  list.commit();
  EXPECT_EQ(r.num_free(), 1);
  EXPECT_TRUE(r.nb_write(6));
  list.commit();
  EXPECT_TRUE(r.nb_read(v));
  EXPECT_EQ(v, 6);
}

TEST(PipelineRegister, CapacityThreeFillsDrainsAndWritesWhileHalfRead) {
  UpdateList list;
  PipelineRegister<int> r("sm0.ex_to_wb", 3, list);
  EXPECT_EQ(r.size(), 3);
  for (int i = 1; i <= 3; ++i) EXPECT_TRUE(r.nb_write(10 * i));
  EXPECT_FALSE(r.nb_write(40));
  EXPECT_EQ(r.num_free(), 0);
  list.commit();
  EXPECT_EQ(r.num_available(), 3);
  int v = 0;
  EXPECT_TRUE(r.nb_read(v));
  EXPECT_EQ(v, 10);
  EXPECT_EQ(r.num_available(), 2);
  EXPECT_EQ(r.num_free(), 0);
  list.commit();
  EXPECT_EQ(r.num_available(), 2);
  EXPECT_EQ(r.num_free(), 1);
  EXPECT_TRUE(r.nb_write(40));  // into the slot freed at the commit (wraps to index 0)
  EXPECT_TRUE(r.nb_read(v));
  EXPECT_EQ(v, 20);
  EXPECT_EQ(r.num_available(), 1);  // 40 is not readable yet
  EXPECT_EQ(r.num_free(), 0);       // 2 readable at the last commit + 1 written since
  list.commit();
  EXPECT_EQ(r.num_available(), 2);
  EXPECT_EQ(r.num_free(), 1);
  std::ostringstream held;
  r.print(held);
  EXPECT_EQ(held.str(), "30\n40\n");
}

TEST(PipelineRegister, FifoOrderAcrossWrapAround) {
  UpdateList list;
  PipelineRegister<int> r("sm0.wrap", 3, list);
  std::vector<int> got;
  int next = 100;
  // Two writes and one read per commit period, then drain: the ring wraps several times.
  for (int period = 0; period < 12; ++period) {
    for (int k = 0; k < 2; ++k)
      if (r.nb_write(next)) ++next;
    int v;
    if (r.nb_read(v)) got.push_back(v);
    list.commit();
  }
  int v;
  while (true) {
    if (!r.nb_read(v)) break;
    got.push_back(v);
    list.commit();
  }
  // Two writes in the first period; after it one write and one read per period, since a read
  // frees room only at the commit: 1 + 12 writes, all read back.
  ASSERT_EQ(next, 113);
  ASSERT_EQ(got.size(), 13u);
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], 100 + static_cast<int>(i));
}

TEST(PipelineRegister, WriteToFullRegisterFailsAndChangesNothing) {
  UpdateList list;
  PipelineRegister<int> r("sm0.full", 2, list);
  EXPECT_TRUE(r.nb_write(1));
  EXPECT_TRUE(r.nb_write(2));
  list.commit();
  EXPECT_FALSE(r.nb_write(99));
  EXPECT_TRUE(list.empty());  // a failed write touches nothing, as in sc_fifo (no update request)
  EXPECT_EQ(r.num_available(), 2);
  EXPECT_EQ(r.num_free(), 0);
  int a = 0, b = 0, c = -1;
  EXPECT_TRUE(r.nb_read(a));
  EXPECT_TRUE(r.nb_read(b));
  EXPECT_FALSE(r.nb_read(c));
  EXPECT_EQ(a, 1);
  EXPECT_EQ(b, 2);
  EXPECT_EQ(c, -1);
}

TEST(PipelineRegister, EachTouchedChannelIsListedOncePerCommit) {
  UpdateList list;
  PipelineRegister<int> a("a", 4, list), b("b", 4, list);
  a.nb_write(1);
  a.nb_write(2);
  b.nb_write(3);
  a.nb_write(4);
  EXPECT_EQ(list.size(), 2u);
  list.commit();
  int v;
  a.nb_read(v);
  EXPECT_EQ(list.size(), 1u);
  EXPECT_EQ(a.num_free(), 1);
  list.commit();
  EXPECT_EQ(a.num_free(), 2);
  EXPECT_EQ(b.num_available(), 1);
  EXPECT_STREQ(a.kind(), "simtlm_pipeline_register");
}

TEST(PipelineRegister, CapacityBelowOneIsRejectedNamingTheChannel) {
  UpdateList list;
  for (int bad : {0, -3}) {
    try {
      PipelineRegister<int> r("sm2.oc_to_ex", bad, list);
      FAIL() << "capacity " << bad << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), "pipeline register 'sm2.oc_to_ex': capacity " +
                                           std::to_string(bad) +
                                           " is out of range (allowed: 1 or more)");
    }
  }
}

// ---- SystemC: the same delta chain over sc_fifo and over PipelineRegister -------------

// One clock cycle = two SC_METHODs in a delta chain (the first triggered by the clock, the
// second by an event the first notifies with SC_ZERO_TIME). The producer tries 0-3 nb_writes
// per cycle, the consumer 0-3 nb_reads, from a fixed-seed sequence that never depends on the
// outcomes, so both channels see the same attempts. Everything observed goes to `trace`.
class Chain : public sc_core::sc_module {
 public:
  sc_core::sc_fifo_out<int> out;
  sc_core::sc_fifo_in<int> in;
  std::vector<std::string> trace;
  int writes = 0, writesRefused = 0, reads = 0, readsRefused = 0;

  SC_HAS_PROCESS(Chain);
  Chain(sc_core::sc_module_name n, const sc_core::sc_event& clockEdge, bool producerFirst,
        UpdateList* list)
      : sc_module(n), producerFirst_(producerFirst), list_(list) {
    SC_METHOD(first);
    sensitive << clockEdge;
    dont_initialize();
    SC_METHOD(second);
    sensitive << next_;
    dont_initialize();
  }

 private:
  void first() {
    producerFirst_ ? produce() : consume();
    if (list_) list_->commit();  // what sc_fifo's update phase does before the next delta
    next_.notify(sc_core::SC_ZERO_TIME);
  }
  void second() {
    producerFirst_ ? consume() : produce();
    if (list_) list_->commit();
    ++cycle_;
  }
  void record(const char* op, bool ok, int value) {
    std::ostringstream s;
    s << "cycle " << cycle_ << ' ' << op << (ok ? " ok " : " refused ") << value
      << " avail " << in->num_available() << " free " << out->num_free();
    trace.push_back(s.str());
  }
  void produce() {
    record("P-before", true, 0);
    for (uint32_t k = rng_() % 4; k > 0; --k) {
      bool ok = out->nb_write(nextValue_);
      record("write", ok, nextValue_);
      ok ? (++writes, ++nextValue_) : ++writesRefused;
    }
  }
  void consume() {
    record("C-before", true, 0);
    for (uint32_t k = rng_() % 4; k > 0; --k) {
      int v = -1;
      bool ok = in->nb_read(v);
      record("read", ok, v);
      if (ok) {
        EXPECT_EQ(v, expectValue_++) << "out of FIFO order";
        ++reads;
      } else {
        ++readsRefused;
      }
    }
  }

  bool producerFirst_;
  UpdateList* list_;
  sc_core::sc_event next_;
  std::mt19937 rng_{20260526u};  // mt19937's output is fixed by the standard: same on every platform
  int cycle_ = 0, nextValue_ = 0, expectValue_ = 0;
};

struct TraceCounts {
  int writes, writesRefused, reads, readsRefused;
};

// Runs both chains side by side for 300 cycles; returns the sc_fifo chain's counts.
TraceCounts runBoth(bool producerFirst) {
  sc_core::sc_clock clk("clk", 1, sc_core::SC_NS);
  sc_core::sc_fifo<int> fifo("fifo", 2);
  UpdateList list;
  PipelineRegister<int> reg("reg", 2, list);
  Chain a("on_sc_fifo", clk.posedge_event(), producerFirst, nullptr);
  Chain b("on_pipeline_register", clk.posedge_event(), producerFirst, &list);
  a.out(fifo);
  a.in(fifo);
  b.out(reg);  // ports bind to the PipelineRegister like to any sc_fifo_*_if<int> channel
  b.in(reg);
  sc_core::sc_start(300, sc_core::SC_NS);

  EXPECT_EQ(a.trace.size(), b.trace.size());
  for (size_t i = 0; i < a.trace.size() && i < b.trace.size(); ++i)
    EXPECT_EQ(a.trace[i], b.trace[i]) << "at trace entry " << i;
  EXPECT_EQ(a.writes, b.writes);
  EXPECT_EQ(a.reads, b.reads);
  EXPECT_EQ(fifo.num_available(), reg.num_available());
  EXPECT_EQ(a.writes - a.reads, reg.num_available());  // nothing lost or duplicated
  EXPECT_TRUE(list.empty());
  return {a.writes, a.writesRefused, a.reads, a.readsRefused};
}

TEST(PipelineRegister, MatchesScFifoProducerThenConsumer) {
  TraceCounts c = runBoth(true);
  // The fixed sequence reaches both edges often (full on write, empty on read).
  EXPECT_EQ(c.writes, 291);
  EXPECT_EQ(c.writesRefused, 149);
  EXPECT_EQ(c.reads, 290);
  EXPECT_EQ(c.readsRefused, 179);
}

TEST(PipelineRegister, MatchesScFifoConsumerThenProducer) {
  TraceCounts c = runBoth(false);
  EXPECT_EQ(c.writes, 290);
  EXPECT_EQ(c.writesRefused, 179);
  EXPECT_EQ(c.reads, 289);
  EXPECT_EQ(c.readsRefused, 151);
}

// ---- SystemC: blocking read()/write() from SC_THREADs ----------------------------------

// A writer thread pushes 1..5 with blocking write(); a reader thread pulls them with blocking
// read(); a clocked SC_METHOD commits the UpdateList at every rising edge (period 10 ns). With
// capacity 2: 1 and 2 become readable at the 0 ns commit; the reads free room at the 10 ns
// commit, when 3 and 4 go in; they are readable at 20 ns; 5 goes in at 30 ns, readable at 40 ns.
class Blocking : public sc_core::sc_module {
 public:
  sc_core::sc_fifo_out<int> out;
  sc_core::sc_fifo_in<int> in;
  std::vector<std::pair<int, int>> got, written;  // value, ns

  SC_HAS_PROCESS(Blocking);
  Blocking(sc_core::sc_module_name n, const sc_core::sc_event& clockEdge, UpdateList& list)
      : sc_module(n), list_(list) {
    SC_THREAD(writer);
    SC_THREAD(reader);
    SC_METHOD(commit);
    sensitive << clockEdge;
    dont_initialize();
  }

 private:
  static int now() {
    return static_cast<int>(sc_core::sc_time_stamp() / sc_core::sc_time(1, sc_core::SC_NS));
  }
  void writer() {
    for (int v = 1; v <= 5; ++v) {
      out->write(v);
      written.emplace_back(v, now());
    }
  }
  void reader() {
    for (int i = 0; i < 5; ++i) {
      int v = in->read();
      got.emplace_back(v, now());
    }
  }
  void commit() { list_.commit(); }
  UpdateList& list_;
};

TEST(PipelineRegister, BlockingReadAndWriteWaitForTheCommit) {
  sc_core::sc_clock clk("clk", 10, sc_core::SC_NS);
  UpdateList list;
  PipelineRegister<int> reg("reg", 2, list);
  Blocking top("top", clk.posedge_event(), list);
  top.out(reg);
  top.in(reg);
  sc_core::sc_start(100, sc_core::SC_NS);
  using P = std::vector<std::pair<int, int>>;
  EXPECT_EQ(top.got, (P{{1, 0}, {2, 0}, {3, 20}, {4, 20}, {5, 40}}));
  EXPECT_EQ(top.written, (P{{1, 0}, {2, 0}, {3, 10}, {4, 10}, {5, 30}}));
  EXPECT_EQ(reg.num_available(), 0);
  EXPECT_EQ(reg.num_free(), 2);
}

}  // namespace
