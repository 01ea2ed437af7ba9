// The memory gate (model/gpu/memory_gate.h): what a cycle of the SMs sees of memory must not
// depend on the order in which the SystemC kernel runs the memory side's processes. Answers to
// one SM that arrive at the same simulated time come in an order the kernel picks (its event
// queue's, which the SM scheduling changes: sm.scheduling=systemc adds processes and events), so
// the gate hands them over in the order their requests were made. Found on floydwarshall
// (contract_default.floydwarshall): two loads of sm1 answered at the same time, in opposite
// orders under the two schedulings, issued their dependants in opposite orders.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "model/gpu/memory_gate.h"

using namespace sc_core;
using namespace simtlm;

namespace {

// A memory that keeps each request's completion for the test to call when it likes.
struct HeldMemory : mem::Downstream {
  std::vector<Done> dones;
  std::vector<std::vector<unsigned char>> written;  // each write's data, then its enables if any
  void read(std::uint64_t, unsigned, Done done) override { dones.push_back(std::move(done)); }
  void write(std::uint64_t, const unsigned char* data, const unsigned char* enable, unsigned size,
             Done done) override {
    written.emplace_back(data, data + size);
    if (enable) written.back().insert(written.back().end(), enable, enable + size);
    dones.push_back(std::move(done));
  }
  void atomic(std::uint64_t, isa::Op, const mem::WordOps&, Done done) override { dones.push_back(std::move(done)); }
};

struct Rig {
  HeldMemory sm0, sm1;
  gpu::MemoryGate gate{{&sm0, &sm1}};
  std::vector<std::string> seen;  // answers as the SMs' units receive them
  mem::Downstream::Done note(const std::string& name) {
    return [this, name](const unsigned char*, bool) { seen.push_back(name); };
  }
  // Two reads of SM 0 in one cycle, A then B, sent at the cycle's end.
  void twoReads() {
    gate.beginCycle();
    gate.route(0).read(0x100, 4, note("A"));
    gate.route(0).read(0x200, 4, note("B"));
    gate.endCycle();
    ASSERT_EQ(sm0.dones.size(), 2u);
  }
  void answer(int i) {
    const unsigned char word[4] = {1, 2, 3, 4};
    sm0.dones.at(static_cast<size_t>(i))(word, true);
  }
};

// The sequential scheduling's case: both answers arrive between two cycles, B's first.
TEST(MemoryGate, SameTimeAnswersBetweenCyclesInRequestOrder) {
  Rig r;
  r.twoReads();
  r.answer(1);
  r.answer(0);
  r.gate.beginCycle();  // the next cycle sees both
  EXPECT_EQ(r.seen, (std::vector<std::string>{"A", "B"}));
  r.gate.endCycle();
  EXPECT_EQ(r.gate.answers(), 2u);
  EXPECT_EQ(r.gate.outstanding(), 0u);
}

// A read answered through a receiver (readTo: the LD/ST unit's loads past the L1) takes its
// place among the callbacks' answers by request order, and gets its own tag back.
TEST(MemoryGate, ReadToAnswersTakeTheirPlaceInRequestOrder) {
  Rig r;
  struct Receiver : mem::Downstream::Receiver {
    std::vector<std::string>* seen;
    void answered(std::uint64_t tag, const unsigned char* data, bool ok) override {
      EXPECT_TRUE(ok);
      EXPECT_EQ(data[3], 4);
      seen->push_back("tag" + std::to_string(tag));
    }
  } receiver;
  receiver.seen = &r.seen;
  r.gate.beginCycle();
  r.gate.route(0).read(0x100, 4, r.note("A"));
  r.gate.route(0).readTo(0x200, 4, receiver, 7);
  r.gate.route(0).read(0x300, 4, r.note("C"));
  r.gate.endCycle();
  ASSERT_EQ(r.sm0.dones.size(), 3u);
  r.answer(2);
  r.answer(1);
  r.answer(0);
  EXPECT_TRUE(r.seen.empty());  // held to the next cycle
  r.gate.beginCycle();
  EXPECT_EQ(r.seen, (std::vector<std::string>{"A", "tag7", "C"}));
  r.gate.endCycle();
  EXPECT_EQ(r.gate.outstanding(), 0u);
}

// The systemc scheduling's case: the cycle spans delta cycles, so B's answer comes while it
// runs (held to its end) and A's, at the same time, after it.
TEST(MemoryGate, SameTimeAnswersAcrossTheCycleEndInRequestOrder) {
  Rig r;
  r.twoReads();
  r.gate.beginCycle();
  r.answer(1);
  EXPECT_TRUE(r.seen.empty()) << "an answer was handed over during the cycle";
  r.gate.endCycle();
  r.answer(0);
  r.gate.beginCycle();
  EXPECT_EQ(r.seen, (std::vector<std::string>{"A", "B"}));
  r.gate.endCycle();
}

// Answers at different times keep their time order (an earlier answer to a younger request
// first); another SM's answers do not change one SM's order.
struct Clocked : sc_module {
  Rig r;
  SC_HAS_PROCESS(Clocked);
  explicit Clocked(sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  void run() {
    r.twoReads();
    r.gate.beginCycle();
    r.gate.route(1).read(0x300, 4, r.note("C"));
    r.gate.endCycle();
    wait(1, SC_NS);
    r.answer(1);  // B at 1 ns
    r.sm1.dones.at(0)(nullptr, true);  // C at 1 ns
    wait(1, SC_NS);
    r.answer(0);  // A at 2 ns, in the same window
    r.gate.beginCycle();
    r.gate.endCycle();
  }
};

TEST(MemoryGate, AnswersAtDifferentTimesKeepTimeOrder) {
  Clocked top("top");
  sc_start();
  EXPECT_EQ(top.r.seen, (std::vector<std::string>{"B", "C", "A"}));
}

// A stopped gate (no kernel running: Gpu::finish) hands over what it holds, and then every
// answer as it comes.
TEST(MemoryGate, StoppedGateHandsOverAtOnce) {
  Rig r;
  r.twoReads();
  r.answer(1);
  EXPECT_TRUE(r.seen.empty());
  r.gate.stopHolding();
  EXPECT_EQ(r.seen, (std::vector<std::string>{"B"}));
  r.answer(0);
  EXPECT_EQ(r.seen, (std::vector<std::string>{"B", "A"}));
}

// A release (dropAnswers) forgets every request owed: their late answers reach nobody, and the
// requests made after it are answered as usual (the gate reuses its records).
TEST(MemoryGate, DroppedAnswersStayDroppedAndLaterOnesArrive) {
  Rig r;
  r.twoReads();
  r.answer(1);  // held
  r.gate.dropAnswers();
  EXPECT_EQ(r.gate.outstanding(), 0u);
  r.answer(0);  // late
  r.gate.beginCycle();
  r.gate.route(0).read(0x300, 4, r.note("C"));
  r.gate.endCycle();
  ASSERT_EQ(r.sm0.dones.size(), 3u);
  r.answer(2);
  r.gate.beginCycle();
  EXPECT_EQ(r.seen, (std::vector<std::string>{"C"}));
  EXPECT_EQ(r.gate.answers(), 2u);  // B (before the release) and C
  EXPECT_EQ(r.gate.outstanding(), 0u);
}

// A write held to the cycle's end is sent with the bytes (and enables) it was made with, though
// the caller's buffers change after the call; an atomic's answer data reaches its caller.
TEST(MemoryGate, HeldWritesKeepTheirBytesAndAtomicsTheirAnswers) {
  Rig r;
  std::vector<unsigned char> old;
  r.gate.beginCycle();
  unsigned char data[4] = {1, 2, 3, 4}, enable[4] = {0xff, 0, 0xff, 0};
  r.gate.route(1).write(0x10, data, enable, 4, r.note("W"));
  r.gate.route(1).write(0x20, data, nullptr, 2, r.note("V"));
  data[0] = 9;
  enable[1] = 0xff;
  mem::WordOps ops;
  ops.push(0, 5);
  ops.push(4, 6);
  r.gate.route(1).atomic(0x40, isa::Op::ATOM_G_ADD_U32, ops,
                         [&](const unsigned char* d, bool) { old.assign(d, d + 8); });
  r.gate.endCycle();
  ASSERT_EQ(r.sm1.written.size(), 2u);
  EXPECT_EQ(r.sm1.written[0], (std::vector<unsigned char>{1, 2, 3, 4, 0xff, 0, 0xff, 0}));
  EXPECT_EQ(r.sm1.written[1], (std::vector<unsigned char>{1, 2}));
  ASSERT_EQ(r.sm1.dones.size(), 3u);
  const unsigned char words[8] = {7, 0, 0, 0, 8, 0, 0, 0};
  r.sm1.dones[2](words, true);
  r.gate.stopHolding();
  EXPECT_EQ(old, (std::vector<unsigned char>{7, 0, 0, 0, 8, 0, 0, 0}));
}

// An SM whose socket only hands requests on (the GPU's own sm_bus) is rerouted to where they end
// up: its requests, held ones included, and their answers take the new way; the other SM's not.
TEST(MemoryGate, ReroutedSmSendsToItsNewDownstream) {
  Rig r;
  HeldMemory direct;
  r.gate.reroute(0, direct);
  r.gate.beginCycle();
  r.gate.route(0).read(0x100, 4, r.note("A"));
  r.gate.route(1).read(0x200, 4, r.note("B"));
  r.gate.endCycle();
  EXPECT_EQ(direct.dones.size(), 1u);
  EXPECT_EQ(r.sm0.dones.size(), 0u);
  EXPECT_EQ(r.sm1.dones.size(), 1u);
  const unsigned char word[4] = {1, 2, 3, 4};
  direct.dones[0](word, true);
  r.gate.beginCycle();
  EXPECT_EQ(r.seen, (std::vector<std::string>{"A"}));
  EXPECT_EQ(r.gate.outstanding(), 1u);
  r.gate.endCycle();
}

}  // namespace
