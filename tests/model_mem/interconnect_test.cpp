// Interconnect: routing with address translation, unmapped addresses, contention from several
// initiators on one target (the target asserts the base protocol), LT, debug and DMI.
#include "model/mem/dram_target.h"
#include "model/mem/interconnect.h"
#include "model/mem/mem_port.h"
#include "tests/model_mem/test_targets.h"

#include <gtest/gtest.h>

#include <vector>

using namespace sc_core;
using simtlm::mem::DramConfig;
using simtlm::mem::DramTarget;
using simtlm::mem::Interconnect;
using simtlm::mem::MemPort;
using simtlm::mem::MemResult;
using simtlm::test::Behavior;

namespace {

constexpr std::uint64_t kDevBase = 0x10000000;

DramConfig dram_config() {
  DramConfig c;
  c.size = 1 << 20;
  c.latency_cycles = 10;
  return c;
}

// Two initiators, a DRAM at [0, 1 MB) and a scripted target at [kDevBase, +64 KB), translated.
struct System {
  MemPort p0, p1;
  Interconnect bus;
  DramTarget dram;
  simtlm::test::ScriptedTarget dev;
  System(Behavior b, MemPort::Mode mode = MemPort::Mode::ApproximatelyTimed)
      : p0("p0", MemPort::Config{mode, 0}),
        p1("p1", MemPort::Config{mode, 0}),
        bus("bus"),
        dram("dram", dram_config()),
        dev("dev", b) {
    p0.to_memory.bind(bus.from_initiators);
    p1.to_memory.bind(bus.from_initiators);
    bus.to_targets.bind(dram.from_bus);
    bus.to_targets.bind(dev.socket);
    bus.map(0, 0, 1 << 20);
    bus.map(1, kDevBase, 0x10000);
  }
};

TEST(Interconnect, RoutesByAddressAndTranslates) {
  System s(Behavior::FourPhase);
  const unsigned char a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
  std::vector<unsigned char> ra, rb;
  s.p0.write(0x100, a, 4, nullptr);
  s.p1.write(kDevBase + 0x10, b, 4, nullptr);
  s.p1.read(0x100, 4, [&](const MemResult& r) { ra.assign(r.data, r.data + 4); });
  s.p0.read(kDevBase + 0x10, 4, [&](const MemResult& r) {
    EXPECT_EQ(r.address, kDevBase + 0x10);
    rb.assign(r.data, r.data + 4);
  });
  sc_start();
  EXPECT_EQ(ra, std::vector<unsigned char>(a, a + 4));
  EXPECT_EQ(rb, std::vector<unsigned char>(b, b + 4));
  unsigned char v[4];
  s.dram.store().read(0x100, v, 4);
  EXPECT_EQ(v[3], 4);
  EXPECT_EQ(s.dev.memory.bytes[0x10], 5);  // the target saw the offset in its range
  EXPECT_EQ(s.bus.stats().requests, 4u);
}

TEST(Interconnect, UnmappedAddressGivesAddressError) {
  System s(Behavior::FourPhase);
  tlm::tlm_response_status st = tlm::TLM_OK_RESPONSE;
  bool ok_after = false;
  s.p0.read(0x20000000, 4, [&](const MemResult& r) { st = r.status; });
  s.p0.read(0x40, 4, [&](const MemResult& r) { ok_after = r.ok(); });
  sc_start();
  EXPECT_EQ(st, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_TRUE(ok_after);
  EXPECT_EQ(s.bus.stats().unmapped, 1u);
  unsigned char buf[4];
  EXPECT_EQ(s.p0.debug_read(0x20000000, buf, 4), 0u);
}

class InterconnectBehavior : public ::testing::TestWithParam<Behavior> {};

TEST_P(InterconnectBehavior, TwoInitiatorsShareOneTargetWithinTheProtocol) {
  System s(GetParam());
  const unsigned n = 32;
  unsigned ok = 0;
  std::vector<std::vector<unsigned char>> got(2 * n);
  for (unsigned i = 0; i < n; ++i) {
    const unsigned char v0[4] = {static_cast<unsigned char>(i), 1, 2, 3};
    const unsigned char v1[4] = {static_cast<unsigned char>(i), 9, 8, 7};
    s.p0.write(kDevBase + 8 * i, v0, 4, [&](const MemResult& r) { ok += r.ok(); });
    s.p1.write(kDevBase + 0x1000 + 8 * i, v1, 4, [&](const MemResult& r) { ok += r.ok(); });
  }
  for (unsigned i = 0; i < n; ++i) {
    s.p0.read(kDevBase + 0x1000 + 8 * i, 4, [&, i](const MemResult& r) {
      ok += r.ok();
      got[i].assign(r.data, r.data + 4);
    });
    s.p1.read(kDevBase + 8 * i, 4, [&, i](const MemResult& r) {
      ok += r.ok();
      got[n + i].assign(r.data, r.data + 4);
    });
  }
  sc_start();
  EXPECT_EQ(ok, 4 * n);
  for (unsigned i = 0; i < n; ++i) {
    // Each port sends its writes first and the bus serves the target in arrival order, so
    // every write reaches the target before any read: each port sees the other's data.
    EXPECT_EQ(got[i][0], i);
    EXPECT_EQ(got[n + i][0], i);
  }
  EXPECT_EQ(s.dev.begin_reqs, 4 * n);
  EXPECT_EQ(s.dev.outstanding, 0u);
  EXPECT_EQ(s.dev.fallbacks, 0u);
  EXPECT_TRUE(s.p0.idle() && s.p1.idle());
}

INSTANTIATE_TEST_SUITE_P(AllTargetBehaviours, InterconnectBehavior,
                         ::testing::Values(Behavior::FourPhase, Behavior::CompleteOnBeginReq,
                                           Behavior::UpdatedEndReq, Behavior::UpdatedBeginResp,
                                           Behavior::BeginRespWithoutEndReq, Behavior::OutOfOrder),
                         [](const auto& info) { return behavior_name(info.param); });

TEST(Interconnect, LooselyTimedThroughTheBus) {
  MemPort port("port", MemPort::Config{MemPort::Mode::LooselyTimed, 0});
  simtlm::test::ProbeInitiator unused("unused");
  Interconnect bus("bus", simtlm::mem::InterconnectConfig{sc_time(1, SC_NS), sc_time(2, SC_NS)});
  simtlm::test::LtOnlyTarget target("target");
  port.to_memory.bind(bus.from_initiators);
  unused.socket.bind(bus.from_initiators);
  bus.to_targets.bind(target.socket);
  bus.map(0, 0x80000000, 0x10000);
  const unsigned char w[4] = {4, 3, 2, 1};
  std::vector<unsigned char> got;
  tlm::tlm_response_status unmapped = tlm::TLM_OK_RESPONSE;
  port.write(0x80000100, w, 4, nullptr);
  port.read(0x80000100, 4, [&](const MemResult& r) { got.assign(r.data, r.data + 4); });
  port.read(0x100, 4, [&](const MemResult& r) { unmapped = r.status; });
  sc_start();
  EXPECT_EQ(got, std::vector<unsigned char>(w, w + 4));
  EXPECT_EQ(target.memory.bytes[0x100], 4);
  EXPECT_EQ(unmapped, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(sc_time_stamp(), sc_time(16, SC_NS));  // 2 x (1 + 5 + 2) ns; the error costs nothing
}

TEST(Interconnect, DebugAndDmiAreTranslatedBothWays) {
  simtlm::test::ProbeInitiator probe("probe");
  Interconnect bus("bus");
  DramTarget dram("dram", dram_config());
  probe.socket.bind(bus.from_initiators);
  bus.to_targets.bind(dram.from_bus);
  bus.map(0, 0x40000000, 1 << 20);
  sc_start(SC_ZERO_TIME);
  unsigned char w[2] = {0x11, 0x22};
  tlm::tlm_generic_payload gp;
  simtlm::test::ProbeInitiator::fill(gp, tlm::TLM_WRITE_COMMAND, 0x40003004, w, 2);
  EXPECT_EQ(probe.socket->transport_dbg(gp), 2u);
  EXPECT_EQ(gp.get_address(), 0x40003004u);  // restored
  unsigned char v[2];
  dram.store().read(0x3004, v, 2);
  EXPECT_EQ(v[1], 0x22);

  tlm::tlm_dmi dmi;
  ASSERT_TRUE(probe.socket->get_direct_mem_ptr(gp, dmi));
  EXPECT_EQ(dmi.get_start_address(), 0x40003000u);
  EXPECT_EQ(dmi.get_end_address(), 0x40003fffu);
  EXPECT_EQ(dmi.get_dmi_ptr()[4], 0x11);
  simtlm::test::ProbeInitiator::fill(gp, tlm::TLM_READ_COMMAND, 0x50000000, v, 2);
  EXPECT_FALSE(probe.socket->get_direct_mem_ptr(gp, dmi));
}

}  // namespace
