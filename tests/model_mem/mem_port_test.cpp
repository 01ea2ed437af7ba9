// MemPort against every legal target behaviour (AT), in LT mode, and with errors.
#include "model/mem/mem_manager.h"
#include "model/mem/mem_port.h"
#include "tests/model_mem/test_targets.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include <tlm_utils/simple_target_socket.h>

using namespace sc_core;
using simtlm::mem::MemPort;
using simtlm::mem::MemResult;
using simtlm::test::Behavior;

namespace {

std::vector<unsigned char> pattern(unsigned n, unsigned seed) {
  std::vector<unsigned char> v(n);
  for (unsigned i = 0; i < n; ++i) v[i] = static_cast<unsigned char>(seed * 31 + i * 7 + 1);
  return v;
}

struct Completion {
  std::uint64_t id;
  tlm::tlm_response_status status;
  sc_time at;
  std::vector<unsigned char> data;
};

// Submits `n` writes of varying sizes, then reads of the same blocks; records completions.
struct Exercise {
  std::vector<Completion> done;
  std::vector<std::uint64_t> write_ids, read_ids;
  unsigned n;
  explicit Exercise(unsigned blocks) : n(blocks) {}
  static unsigned size(unsigned i) { return 4u << (i % 5); }  // 4..64 bytes
  static std::uint64_t addr(unsigned i) { return 0x100 + 128u * i; }
  void submit(MemPort& port) {
    auto record = [this](const MemResult& r) {
      done.push_back({r.id, r.status, r.completed,
                      r.data && r.command == tlm::TLM_READ_COMMAND
                          ? std::vector<unsigned char>(r.data, r.data + r.size)
                          : std::vector<unsigned char>{}});
    };
    for (unsigned i = 0; i < n; ++i) {
      auto d = pattern(size(i), i);
      write_ids.push_back(port.write(addr(i), d.data(), size(i), record));
    }
    for (unsigned i = 0; i < n; ++i) read_ids.push_back(port.read(addr(i), size(i), record));
  }
  const Completion* find(std::uint64_t id) const {
    for (const auto& c : done)
      if (c.id == id) return &c;
    return nullptr;
  }
  void check_all_ok() const {
    ASSERT_EQ(done.size(), 2u * n);
    for (unsigned i = 0; i < n; ++i) {
      const Completion* w = find(write_ids[i]);
      const Completion* r = find(read_ids[i]);
      ASSERT_TRUE(w && r);
      EXPECT_EQ(w->status, tlm::TLM_OK_RESPONSE);
      EXPECT_EQ(r->status, tlm::TLM_OK_RESPONSE);
      EXPECT_EQ(r->data, pattern(size(i), i)) << "block " << i;
    }
  }
};

class MemPortBehavior : public ::testing::TestWithParam<Behavior> {};

TEST_P(MemPortBehavior, CompletesEveryRequestWithRightDataAndNoProtocolViolation) {
  MemPort port("port");
  simtlm::test::ScriptedTarget target("target", GetParam());
  port.to_memory.bind(target.socket);
  Exercise ex(24);
  ex.submit(port);
  sc_start();
  ex.check_all_ok();
  EXPECT_TRUE(port.idle());
  EXPECT_EQ(target.begin_reqs, 48u);
  EXPECT_EQ(target.responses, 48u);
  EXPECT_EQ(target.outstanding, 0u);
  EXPECT_EQ(target.fallbacks, 0u);  // UpdatedBeginResp really answered every request that way
  EXPECT_EQ(port.stats().transactions, 48u);
  EXPECT_EQ(port.stats().errors, 0u);
  EXPECT_EQ(port.stats().reads, 24u);
  EXPECT_GT(port.stats().latency_sum_ps, 0u);
  const bool end_resp_expected =
      GetParam() != Behavior::CompleteOnBeginReq;  // TLM_COMPLETED: no END_RESP
  EXPECT_EQ(target.end_resps, end_resp_expected ? 48u : 0u);
}

// Four reads against the target of GetParam(): their completion times must be exactly these.
void expectAnnotatedDelaysHonoured(Behavior behavior, const MemPort::Config& config) {
  MemPort port("port", config);
  simtlm::test::ScriptedTarget target("target", behavior);
  port.to_memory.bind(target.socket);
  std::vector<sc_time> at;
  for (unsigned i = 0; i < 4; ++i)
    port.read(64 * i, 8, [&](const MemResult& r) { at.push_back(r.completed); });
  sc_start();
  ASSERT_EQ(at.size(), 4u);
  const sc_time ns(1, SC_NS);
  std::vector<sc_time> expect;
  switch (behavior) {
    case Behavior::FourPhase:  // requests every accept (2 ns), each 10 ns
      expect = {10 * ns, 12 * ns, 14 * ns, 16 * ns};
      break;
    case Behavior::UpdatedEndReq:  // END_REQ at +2, response 10 after that
      expect = {12 * ns, 14 * ns, 16 * ns, 18 * ns};
      break;
    case Behavior::OutOfOrder:  // sent at 0,2,4,6 with latencies 40,30,20,10
      expect = {16 * ns, 24 * ns, 32 * ns, 40 * ns};
      break;
    case Behavior::CompleteOnBeginReq:  // TLM_COMPLETED ends the request phase: all sent at 0
      expect = {10 * ns, 10 * ns, 10 * ns, 10 * ns};
      break;
    default:  // the request channel stays busy until the response: serialised
      expect = {10 * ns, 20 * ns, 30 * ns, 40 * ns};
  }
  EXPECT_EQ(at, expect);
}

TEST_P(MemPortBehavior, HonoursAnnotatedDelaysExactly) {
  expectAnnotatedDelaysHonoured(GetParam(), MemPort::Config{});
}

// An immediate port (an SM's, model/sm/sm_module.h) against the same behaviours: every request
// completes with its data and no protocol violation, at the same times as through an ordinary
// port (the targets annotate delays, which the port waits for as an ordinary one does).
TEST_P(MemPortBehavior, AnImmediatePortCompletesEveryRequest) {
  MemPort port("port", MemPort::Config{MemPort::Mode::ApproximatelyTimed, 0, true});
  simtlm::test::ScriptedTarget target("target", GetParam());
  port.to_memory.bind(target.socket);
  Exercise ex(24);
  ex.submit(port);
  sc_start();
  ex.check_all_ok();
  EXPECT_TRUE(port.idle());
  EXPECT_EQ(target.begin_reqs, 48u);
  EXPECT_EQ(target.responses, 48u);
  EXPECT_EQ(target.outstanding, 0u);
  EXPECT_EQ(port.stats().transactions, 48u);
}

TEST_P(MemPortBehavior, AnImmediatePortHonoursAnnotatedDelaysExactly) {
  expectAnnotatedDelaysHonoured(GetParam(), MemPort::Config{MemPort::Mode::ApproximatelyTimed, 0, true});
}

INSTANTIATE_TEST_SUITE_P(AllTargetBehaviours, MemPortBehavior,
                         ::testing::Values(Behavior::FourPhase, Behavior::CompleteOnBeginReq,
                                           Behavior::UpdatedEndReq, Behavior::UpdatedBeginResp,
                                           Behavior::BeginRespWithoutEndReq, Behavior::OutOfOrder),
                         [](const auto& info) { return behavior_name(info.param); });

class MemPortErrors : public ::testing::TestWithParam<Behavior> {};

TEST_P(MemPortErrors, ResponseStatusReachesTheCaller) {
  MemPort port("port");
  simtlm::test::ScriptedTarget target("target", GetParam());
  target.memory.error_base = 0x8000;
  target.memory.error_status = tlm::TLM_GENERIC_ERROR_RESPONSE;
  port.to_memory.bind(target.socket);
  std::vector<tlm::tlm_response_status> st(4, tlm::TLM_INCOMPLETE_RESPONSE);
  port.read(0x100, 4, [&](const MemResult& r) { st[0] = r.status; });
  port.read(0x8000, 4, [&](const MemResult& r) { st[1] = r.status; });
  unsigned char w[4] = {1, 2, 3, 4};
  port.write(0x9000, w, 4, [&](const MemResult& r) { st[2] = r.status; });
  port.read(0x7fffffff, 4, [&](const MemResult& r) { st[3] = r.status; });
  sc_start();
  EXPECT_EQ(st[0], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(st[1], tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(st[2], tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(st[3], tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(port.stats().errors, 3u);
}

INSTANTIATE_TEST_SUITE_P(AllTargetBehaviours, MemPortErrors,
                         ::testing::Values(Behavior::FourPhase, Behavior::CompleteOnBeginReq,
                                           Behavior::UpdatedEndReq, Behavior::UpdatedBeginResp,
                                           Behavior::BeginRespWithoutEndReq, Behavior::OutOfOrder),
                         [](const auto& info) { return behavior_name(info.param); });

TEST(MemPort, OutOfOrderResponsesWithManyOutstanding) {
  MemPort port("port");
  simtlm::test::ScriptedTarget target("target", Behavior::OutOfOrder);
  target.group = 8;
  port.to_memory.bind(target.socket);
  Exercise ex(64);
  ex.submit(port);
  sc_start();
  ex.check_all_ok();
  EXPECT_GE(port.stats().max_in_flight, 8u);
  EXPECT_GE(target.max_outstanding, 8u);
  // The first eight reads complete in reverse order.
  std::vector<std::uint64_t> order;
  for (const auto& c : ex.done)
    for (unsigned i = 0; i < 8; ++i)
      if (c.id == ex.read_ids[i]) order.push_back(i);
  EXPECT_EQ(order, (std::vector<std::uint64_t>{7, 6, 5, 4, 3, 2, 1, 0}));
}

TEST(MemPort, MaxOutstandingLimitsTransactionsInFlight) {
  MemPort port("port", MemPort::Config{MemPort::Mode::ApproximatelyTimed, 2});
  simtlm::test::ScriptedTarget target("target", Behavior::OutOfOrder);
  port.to_memory.bind(target.socket);
  Exercise ex(16);
  ex.submit(port);
  EXPECT_EQ(port.queued(), 32u);
  sc_start();
  ex.check_all_ok();
  EXPECT_EQ(port.stats().max_in_flight, 2u);
  EXPECT_EQ(target.max_outstanding, 2u);
}

TEST(MemPort, ByteEnablesAreSent) {
  MemPort port("port");
  simtlm::test::ScriptedTarget target("target", Behavior::FourPhase);
  port.to_memory.bind(target.socket);
  const unsigned char ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  const unsigned char nines[8] = {9, 9, 9, 9, 9, 9, 9, 9};
  const unsigned char be[2] = {0xff, 0x00};  // every other byte, repeated over the data
  std::vector<unsigned char> got;
  port.write(0x40, ones, 8, nullptr);
  port.write(0x40, nines, 8, nullptr, be, 2);
  port.read(0x40, 8, [&](const MemResult& r) { got.assign(r.data, r.data + r.size); });
  sc_start();
  EXPECT_EQ(got, (std::vector<unsigned char>{9, 1, 9, 1, 9, 1, 9, 1}));
}

TEST(MemPort, CallbacksMaySubmitMoreRequests) {
  MemPort port("port");
  simtlm::test::ScriptedTarget target("target", Behavior::UpdatedEndReq);
  port.to_memory.bind(target.socket);
  unsigned chain = 0;
  std::function<void(const MemResult&)> next = [&](const MemResult& r) {
    EXPECT_TRUE(r.ok());
    if (++chain < 10) port.read(8 * chain, 8, next);
  };
  port.read(0, 8, next);
  sc_start();
  EXPECT_EQ(chain, 10u);
  EXPECT_EQ(sc_time_stamp(), sc_time(120, SC_NS));  // 10 x (2 ns accept + 10 ns latency)
}

// A read answered through a receiver and a tag (MemPortDownstream::readTo, the memory gate's
// path) completes as the same read with a callback does: same time, same data, its tag.
TEST(MemPort, AReadToAnswersItsReceiverAsACallbackWould) {
  MemPort port("port");
  simtlm::test::ScriptedTarget target("target", Behavior::FourPhase);
  port.to_memory.bind(target.socket);
  simtlm::mem::MemPortDownstream down(port);
  struct Receiver : simtlm::mem::Downstream::Receiver {
    std::vector<std::uint64_t> tags;
    std::vector<std::vector<unsigned char>> data;
    std::vector<sc_time> at;
    void answered(std::uint64_t tag, const unsigned char* d, bool ok) override {
      EXPECT_TRUE(ok);
      tags.push_back(tag);
      data.emplace_back(d, d + 8);
      at.push_back(sc_time_stamp());
    }
  } receiver;
  const auto bytes = pattern(8, 3);
  port.write(0x80, bytes.data(), 8, nullptr);
  std::vector<unsigned char> byCallback;
  sc_time callbackAt;
  down.read(0x80, 8, [&](const unsigned char* d, bool ok) {
    EXPECT_TRUE(ok);
    byCallback.assign(d, d + 8);
    callbackAt = sc_time_stamp();
  });
  down.readTo(0x80, 8, receiver, 0x1234567890ull);
  sc_start();
  ASSERT_EQ(receiver.tags, (std::vector<std::uint64_t>{0x1234567890ull}));
  EXPECT_EQ(receiver.data[0], bytes);
  EXPECT_EQ(byCallback, bytes);
  // One request channel: each read waits for the one before it to be accepted (2 ns).
  EXPECT_EQ(receiver.at[0] - callbackAt, sc_time(2, SC_NS));
  EXPECT_EQ(port.stats().reads, 2u);
  EXPECT_TRUE(port.idle());
}

TEST(MemPort, LooselyTimedAgainstBTransportOnlyTarget) {
  MemPort port("port", MemPort::Config{MemPort::Mode::LooselyTimed, 0});
  simtlm::test::LtOnlyTarget target("target");
  target.memory.error_base = 0x10000;
  port.to_memory.bind(target.socket);
  Exercise ex(10);
  ex.submit(port);
  tlm::tlm_response_status err = tlm::TLM_OK_RESPONSE;
  port.read(0x10000, 4, [&](const MemResult& r) { err = r.status; });
  sc_start();
  ex.check_all_ok();
  EXPECT_EQ(err, tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(target.calls, 21u);
  EXPECT_EQ(target.foreign_calls, 0u);          // all through b_transport from the port
  EXPECT_EQ(ex.done.front().at, sc_time(5, SC_NS));
  EXPECT_EQ(sc_time_stamp(), sc_time(105, SC_NS));  // 21 blocking calls of 5 ns each
  EXPECT_EQ(port.stats().errors, 1u);
}

// A target that answers at once with no delay: an immediate port sends the request and hands
// the answer back within submit() (no delta cycle), where an ordinary one sends it a delta later.
struct ZeroDelayTarget : sc_module {
  tlm_utils::simple_target_socket<ZeroDelayTarget> socket{"socket"};
  unsigned calls = 0;
  explicit ZeroDelayTarget(sc_module_name n) : sc_module(n) {
    socket.register_nb_transport_fw(this, &ZeroDelayTarget::nb_transport_fw);
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase&, sc_time&) {
    ++calls;
    std::memset(gp.get_data_ptr(), 0x5A, gp.get_data_length());
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return tlm::TLM_COMPLETED;
  }
};

TEST(MemPort, AnImmediatePortAnswersWithinTheCallWhenTheTargetDoes) {
  MemPort immediate("immediate", MemPort::Config{MemPort::Mode::ApproximatelyTimed, 0, true});
  MemPort ordinary("ordinary");
  ZeroDelayTarget a("a"), b("b");
  immediate.to_memory.bind(a.socket);
  ordinary.to_memory.bind(b.socket);
  sc_start(SC_ZERO_TIME);
  std::vector<unsigned char> got;
  immediate.read(0x40, 4, [&](const MemResult& r) { got.assign(r.data, r.data + r.size); });
  EXPECT_EQ(a.calls, 1u);
  EXPECT_EQ(got, (std::vector<unsigned char>{0x5A, 0x5A, 0x5A, 0x5A}));
  bool answered = false;
  ordinary.read(0x40, 4, [&](const MemResult&) { answered = true; });
  EXPECT_EQ(b.calls, 0u);
  EXPECT_FALSE(answered);
  sc_start();
  EXPECT_TRUE(answered);
  EXPECT_TRUE(immediate.idle());
}

TEST(MemoryManager, ReusesPayloadsAndOwnsBuffers) {
  simtlm::mem::MemoryManager mm;
  tlm::tlm_generic_payload* a = mm.allocate(64, 4);
  a->acquire();
  EXPECT_EQ(a->get_data_length(), 64u);
  EXPECT_EQ(a->get_byte_enable_length(), 4u);
  EXPECT_EQ(a->get_byte_enable_ptr()[3], TLM_BYTE_ENABLED);
  EXPECT_EQ(mm.in_use(), 1u);
  a->release();
  EXPECT_EQ(mm.in_use(), 0u);
  tlm::tlm_generic_payload* b = mm.allocate(8);
  EXPECT_EQ(a, b);  // reused from the free list
  EXPECT_EQ(b->get_data_length(), 8u);
  EXPECT_EQ(b->get_byte_enable_ptr(), nullptr);
  EXPECT_EQ(b->get_response_status(), tlm::TLM_INCOMPLETE_RESPONSE);
  EXPECT_EQ(mm.created(), 1u);
}

}  // namespace
