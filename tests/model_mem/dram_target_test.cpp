// DramTarget: exact timing, bank behaviour, bandwidth, backing store, debug, DMI and errors.
#include "model/mem/dram_target.h"
#include "model/mem/mem_port.h"
#include "tests/model_mem/test_targets.h"

#include <gtest/gtest.h>

#include <vector>

using namespace sc_core;
using simtlm::mem::DramConfig;
using simtlm::mem::DramTarget;
using simtlm::mem::MemPort;
using simtlm::mem::MemResult;

namespace {

const sc_time ns(1, SC_NS);

DramConfig small_config() {
  DramConfig c;
  c.clock_period = ns;
  c.latency_cycles = 20;
  c.bytes_per_cycle = 16;
  c.banks = 4;
  c.bank_busy_cycles = 10;
  c.interleave_bytes = 256;
  c.bank_queue_depth = 8;
  c.accept_cycles = 1;
  return c;
}

struct Bench {
  MemPort port;
  DramTarget dram;
  std::vector<std::pair<std::uint64_t, sc_time>> done;  // (address, completion time)
  std::vector<tlm::tlm_response_status> status;
  explicit Bench(const DramConfig& c, MemPort::Mode mode = MemPort::Mode::ApproximatelyTimed)
      : port("port", MemPort::Config{mode, 0}), dram("dram", c) {
    port.to_memory.bind(dram.from_bus);
  }
  void read(std::uint64_t a, unsigned n) {
    port.read(a, n, [this](const MemResult& r) {
      done.emplace_back(r.address, r.completed);
      status.push_back(r.status);
    });
  }
};

TEST(DramTarget, SingleReadTakesLatencyPlusTransfer) {
  Bench b(small_config());
  b.read(0, 64);  // 20 cycles latency + 64/16 = 4 transfer cycles
  sc_start();
  ASSERT_EQ(b.done.size(), 1u);
  EXPECT_EQ(b.done[0].second, 24 * ns);
  EXPECT_EQ(b.status[0], tlm::TLM_OK_RESPONSE);
}

TEST(DramTarget, SameBankSerialisesByBankBusyTime) {
  Bench b(small_config());
  b.read(0, 16);     // bank 0: start 0, done 0 + 20 + 1
  b.read(1024, 16);  // bank 0 again, arrives at 1 (after END_REQ), starts at 10 -> 31
  sc_start();
  ASSERT_EQ(b.done.size(), 2u);
  EXPECT_EQ(b.done[0].second, 21 * ns);
  EXPECT_EQ(b.done[1].second, 31 * ns);
  EXPECT_EQ(b.dram.stats().bank_wait_cycles, 9u);
}

TEST(DramTarget, DifferentBanksOverlap) {
  Bench b(small_config());
  b.read(0, 16);    // bank 0: 21
  b.read(256, 16);  // bank 1: arrives at 1, starts at once -> 22
  sc_start();
  ASSERT_EQ(b.done.size(), 2u);
  EXPECT_EQ(b.done[0].second, 21 * ns);
  EXPECT_EQ(b.done[1].second, 22 * ns);
  EXPECT_EQ(b.dram.stats().bank_wait_cycles, 0u);
}

TEST(DramTarget, DataBusSerialisesTransfers) {
  Bench b(small_config());
  b.read(0, 64);    // bus [20, 24)
  b.read(256, 64);  // ready at 21, bus free at 24 -> [24, 28)
  sc_start();
  ASSERT_EQ(b.done.size(), 2u);
  EXPECT_EQ(b.done[0].second, 24 * ns);
  EXPECT_EQ(b.done[1].second, 28 * ns);
  EXPECT_EQ(b.dram.stats().bus_wait_cycles, 3u);
}

TEST(DramTarget, StreamIsLimitedByBandwidth) {
  Bench b(small_config());
  const unsigned n = 32;
  for (unsigned i = 0; i < n; ++i) b.read(256 * i, 64);  // banks rotate; 4 bus cycles each
  sc_start();
  ASSERT_EQ(b.done.size(), n);
  for (unsigned k = 0; k < n; ++k) EXPECT_EQ(b.done[k].second, (24 + 4 * k) * ns) << k;
  // 32 x 64 bytes from the first data (cycle 20) to the last (148): exactly 16 bytes per cycle.
  EXPECT_EQ(b.done.back().second, 148 * ns);
}

TEST(DramTarget, FullBankQueueDelaysEndReq) {
  DramConfig c = small_config();
  c.bank_queue_depth = 2;
  Bench b(c);
  for (unsigned i = 0; i < 5; ++i) b.read(1024 * i, 16);  // all bank 0: starts 0,10,20,30,40
  sc_start();
  ASSERT_EQ(b.done.size(), 5u);
  for (unsigned k = 0; k < 5; ++k) EXPECT_EQ(b.done[k].second, (21 + 10 * k) * ns) << k;
  EXPECT_EQ(b.dram.stats().queue_full_stalls, 2u);
}

TEST(DramTarget, RespondsOutOfOrderAcrossBanks) {
  Bench b(small_config());
  b.read(0, 16);     // bank 0: 21
  b.read(1024, 16);  // bank 0, waits for the bank: 31
  b.read(256, 16);   // bank 1, arrives at 2: 23
  sc_start();
  ASSERT_EQ(b.done.size(), 3u);
  EXPECT_EQ(b.done[0], std::make_pair(std::uint64_t{0}, 21 * ns));
  EXPECT_EQ(b.done[1], std::make_pair(std::uint64_t{256}, 23 * ns));
  EXPECT_EQ(b.done[2], std::make_pair(std::uint64_t{1024}, 31 * ns));
}

TEST(DramTarget, BackingStorePersistsWritesAcrossFourGigabytes) {
  Bench b(DramConfig{});  // default: 4 GB
  const unsigned char w[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<unsigned char> got;
  b.port.write(0xFFFFFFF8, w, 8, nullptr);
  b.port.write(0x1000, w, 4, nullptr);
  b.port.read(0xFFFFFFF8, 8, [&](const MemResult& r) { got.assign(r.data, r.data + 8); });
  sc_start();
  EXPECT_EQ(got, std::vector<unsigned char>(w, w + 8));
  unsigned char dbg[8] = {};
  EXPECT_EQ(b.port.debug_read(0xFFFFFFF8, dbg, 8), 8u);
  EXPECT_EQ(std::vector<unsigned char>(dbg, dbg + 8), got);
  EXPECT_EQ(b.port.debug_read(0x1000, dbg, 8), 8u);
  EXPECT_EQ(std::vector<unsigned char>(dbg, dbg + 8), (std::vector<unsigned char>{1, 2, 3, 4, 0, 0, 0, 0}));
  const unsigned char d[2] = {0xaa, 0xbb};
  EXPECT_EQ(b.port.debug_write(0x2000, d, 2), 2u);
  unsigned char s[2];
  b.dram.store().read(0x2000, s, 2);
  EXPECT_EQ(s[1], 0xbb);
  EXPECT_EQ(b.dram.store().pages_allocated(), 3u);
}

TEST(DramTarget, ErrorsForOutOfRangeAndUnsupportedCommands) {
  DramConfig c = small_config();
  c.size = 1 << 20;
  Bench b(c);
  simtlm::test::ProbeInitiator probe("probe");
  DramTarget lt("lt", c);
  probe.socket.bind(lt.from_bus);
  b.read((1 << 20) - 4, 8);  // crosses the end
  b.read(1 << 20, 4);
  b.read(0, 4);
  sc_start();
  ASSERT_EQ(b.status.size(), 3u);
  EXPECT_EQ(b.status[0], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(b.status[1], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(b.status[2], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(b.dram.stats().errors, 2u);

  unsigned char buf[4];
  tlm::tlm_generic_payload gp;
  sc_time delay = SC_ZERO_TIME;
  simtlm::test::ProbeInitiator::fill(gp, tlm::TLM_IGNORE_COMMAND, 0, buf, 4);
  probe.socket->b_transport(gp, delay);
  EXPECT_EQ(gp.get_response_status(), tlm::TLM_COMMAND_ERROR_RESPONSE);
  simtlm::test::ProbeInitiator::fill(gp, tlm::TLM_READ_COMMAND, 1 << 20, buf, 4);
  probe.socket->b_transport(gp, delay);
  EXPECT_EQ(gp.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(probe.socket->transport_dbg(gp), 0u);
}

TEST(DramTarget, LooselyTimedReadTakesLatencyPlusTransfer) {
  Bench b(small_config(), MemPort::Mode::LooselyTimed);
  b.read(0, 64);
  b.read(0, 64);
  sc_start();
  ASSERT_EQ(b.done.size(), 2u);
  EXPECT_EQ(b.done[0].second, 24 * ns);
  EXPECT_EQ(b.done[1].second, 48 * ns);
}

TEST(DramTarget, DmiGivesAPagePointerSharedWithTheStore) {
  simtlm::test::ProbeInitiator probe("probe");
  DramTarget dram("dram", small_config());
  probe.socket.bind(dram.from_bus);
  sc_start(SC_ZERO_TIME);
  unsigned char dummy;
  tlm::tlm_generic_payload gp;
  simtlm::test::ProbeInitiator::fill(gp, tlm::TLM_READ_COMMAND, 0x12345, &dummy, 1);
  tlm::tlm_dmi dmi;
  ASSERT_TRUE(probe.socket->get_direct_mem_ptr(gp, dmi));
  EXPECT_EQ(dmi.get_start_address(), 0x12000u);
  EXPECT_EQ(dmi.get_end_address(), 0x12fffu);
  EXPECT_TRUE(dmi.is_read_write_allowed());
  dmi.get_dmi_ptr()[0x345] = 0x5a;
  unsigned char v = 0;
  simtlm::test::ProbeInitiator::fill(gp, tlm::TLM_READ_COMMAND, 0x12345, &v, 1);
  EXPECT_EQ(probe.socket->transport_dbg(gp), 1u);
  EXPECT_EQ(v, 0x5a);
}

TEST(SparseMemory, ByteEnablesAndStreamingWidth) {
  simtlm::mem::SparseMemory m(1 << 16);
  unsigned char data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  unsigned char be[4] = {0xff, 0, 0xff, 0};
  tlm::tlm_generic_payload gp;
  simtlm::test::ProbeInitiator::fill(gp, tlm::TLM_WRITE_COMMAND, 0x100, data, 8);
  gp.set_byte_enable_ptr(be);
  gp.set_byte_enable_length(4);
  EXPECT_EQ(m.access(gp), tlm::TLM_OK_RESPONSE);
  unsigned char v[8];
  m.read(0x100, v, 8);
  EXPECT_EQ(std::vector<unsigned char>(v, v + 8), (std::vector<unsigned char>{1, 0, 3, 0, 5, 0, 7, 0}));
  simtlm::test::ProbeInitiator::fill(gp, tlm::TLM_WRITE_COMMAND, 0x200, data, 8);
  gp.set_streaming_width(2);  // a two-byte FIFO register written four times
  EXPECT_EQ(m.access(gp), tlm::TLM_OK_RESPONSE);
  m.read(0x200, v, 3);
  EXPECT_EQ(std::vector<unsigned char>(v, v + 3), (std::vector<unsigned char>{7, 8, 0}));
  simtlm::test::ProbeInitiator::fill(gp, tlm::TLM_READ_COMMAND, 0xfffe, data, 4);
  EXPECT_EQ(m.access(gp), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(m.pages_allocated(), 1u);  // only the written page
}

}  // namespace
