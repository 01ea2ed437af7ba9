// L2Cache between a MemPort (AT or LT) and DramTarget or the scripted targets: exact hit and miss
// cycles, MSHR merging and back-pressure, write-through with byte enables, stale fills, atomics,
// errors, debug coherence, local errors, DMI refusal, statistics and configuration checks.
//
// Timing used throughout (1 ns cycles): L2 hit latency 20; DRAM latency 50 and 32 bytes/cycle,
// so a 128-byte line read takes 50 + 4 cycles and a read miss 20 + 54 = 74 cycles; a write or
// atomic of at most 32 bytes takes 20 + 50 + 1 = 71 cycles.
#include "model/common/config.h"
#include "model/mem/dram_target.h"
#include "model/mem/interconnect.h"
#include "model/mem/l2_cache.h"
#include "model/mem/mem_port.h"
#include "tests/model_mem/test_targets.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace sc_core;
using simtlm::isa::Op;
using simtlm::mem::DramConfig;
using simtlm::mem::DramTarget;
using simtlm::mem::Interconnect;
using simtlm::mem::L2Cache;
using simtlm::mem::L2Config;
using simtlm::mem::MemPort;
using simtlm::mem::MemResult;
using simtlm::mem::WordOps;
using simtlm::test::Behavior;
using Bytes = std::vector<unsigned char>;

namespace {

const sc_time ns(1, SC_NS);

L2Config l2_config() {
  L2Config c;
  c.size = 4096;  // 16 sets of 2 ways of 128 bytes
  c.line = 128;
  c.assoc = 2;
  c.hit_latency = 20;
  c.mshrs = 4;
  return c;
}

DramConfig dram_config() {
  DramConfig c;
  c.size = 1 << 20;
  c.latency_cycles = 50;
  return c;
}

Bytes pattern(std::uint64_t a, unsigned n) {
  Bytes v(n);
  for (unsigned i = 0; i < n; ++i) v[i] = static_cast<unsigned char>((a + i) * 7 + 3);
  return v;
}

struct Got {
  sc_time at;
  tlm::tlm_response_status status;
  Bytes data;
};

// Records completions by the caller's index.
struct Log {
  std::vector<Got> got;
  MemPort::Callback rec(unsigned i, std::function<void(const MemResult&)> then = nullptr) {
    return [this, i, then](const MemResult& r) {
      if (got.size() <= i) got.resize(i + 1);
      got[i] = {r.completed, r.status,
                r.command == tlm::TLM_READ_COMMAND ? Bytes(r.data, r.data + r.size) : Bytes{}};
      if (then) then(r);
    };
  }
};

// cpu (MemPort) -> L2 -> DRAM, DRAM filled with pattern() over its first 64 KiB.
struct Bench {
  MemPort cpu;
  L2Cache l2;
  DramTarget dram;
  simtlm::stats::Registry reg;
  Log log;
  explicit Bench(MemPort::Mode up = MemPort::Mode::ApproximatelyTimed, L2Config c = l2_config())
      : cpu("cpu", MemPort::Config{up, 0}), l2("l2", c), dram("dram", dram_config()) {
    cpu.to_memory.bind(l2.from_bus);
    l2.to_memory.bind(dram.from_bus);
    const Bytes p = pattern(0, 1 << 16);
    dram.store().write(0, p.data(), p.size());
    l2.registerStats(simtlm::stats::Group(reg, "l2"));
  }
};

class L2Upstream : public ::testing::TestWithParam<MemPort::Mode> {};

// Miss, hit, partial write (byte enables), hit with the written bytes: chained one after another.
TEST_P(L2Upstream, HitAndMissLatencyInExactCycles) {
  Bench b(GetParam());
  const unsigned char w[8] = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7};
  const unsigned char be[4] = {0xff, 0x00, 0xff, 0x00};
  b.cpu.read(0x100, 8, b.log.rec(0, [&](const MemResult&) {
    b.cpu.read(0x108, 8, b.log.rec(1, [&](const MemResult&) {
      b.cpu.write(0x100, w, 8, b.log.rec(2, [&](const MemResult&) {
        b.cpu.read(0x100, 8, b.log.rec(3));
      }), be, 4);
    }));
  }));
  sc_start();
  ASSERT_EQ(b.log.got.size(), 4u);
  EXPECT_EQ(b.log.got[0].at, 74 * ns);   // miss: 20 + 50 + 4
  EXPECT_EQ(b.log.got[1].at, 94 * ns);   // hit: 20
  EXPECT_EQ(b.log.got[2].at, 165 * ns);  // write through: 20 + 50 + 1
  EXPECT_EQ(b.log.got[3].at, 185 * ns);  // hit
  for (const Got& g : b.log.got) EXPECT_EQ(g.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(b.log.got[0].data, pattern(0x100, 8));
  EXPECT_EQ(b.log.got[1].data, pattern(0x108, 8));
  Bytes expect = pattern(0x100, 8);
  for (unsigned i = 0; i < 8; i += 2) expect[i] = w[i];
  EXPECT_EQ(b.log.got[3].data, expect);  // the cached line was updated under the byte enables
  Bytes in_dram(8);
  b.dram.store().read(0x100, in_dram.data(), 8);
  EXPECT_EQ(in_dram, expect);
  const auto& s = b.l2.stats();
  EXPECT_EQ(s.reads, 3u);
  EXPECT_EQ(s.hits, 2u);
  EXPECT_EQ(s.misses, 1u);
  EXPECT_EQ(s.writes, 1u);
  EXPECT_EQ(s.bytes_from_memory, 128u);
  EXPECT_EQ(s.bytes_to_memory, 8u);
  EXPECT_EQ(b.dram.stats().reads, 1u);
  EXPECT_EQ(b.dram.stats().writes, 1u);
  EXPECT_EQ(b.reg.value("l2.hits"), 2.0);
  EXPECT_EQ(b.reg.value("l2.misses"), 1.0);
  EXPECT_EQ(b.reg.value("l2.bytes_from_memory"), 128.0);
  EXPECT_DOUBLE_EQ(*b.reg.value("l2.hit_rate"), 2.0 / 3.0);
}

INSTANTIATE_TEST_SUITE_P(Modes, L2Upstream,
                         ::testing::Values(MemPort::Mode::ApproximatelyTimed,
                                           MemPort::Mode::LooselyTimed),
                         [](const auto& info) {
                           return info.param == MemPort::Mode::LooselyTimed ? "LT" : "AT";
                         });

TEST(L2Cache, MergedMissesShareOneFill) {
  Bench b;
  for (unsigned i = 0; i < 4; ++i) b.cpu.read(0x20 * i, 16, b.log.rec(i));  // arrive at 0..3
  b.cpu.read(0x180, 16, b.log.rec(4));  // another line (bank 1), arrives at 4
  sc_start();
  ASSERT_EQ(b.log.got.size(), 5u);
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(b.log.got[i].at, 74 * ns) << i;
    EXPECT_EQ(b.log.got[i].data, pattern(0x20 * i, 16)) << i;
  }
  EXPECT_EQ(b.log.got[4].at, 78 * ns);  // leaves at 24, data bus busy until 74, 4 cycles
  EXPECT_EQ(b.log.got[4].data, pattern(0x180, 16));
  EXPECT_EQ(b.l2.stats().misses, 5u);
  EXPECT_EQ(b.l2.stats().merged, 3u);
  EXPECT_EQ(b.l2.stats().hits, 0u);
  EXPECT_EQ(b.dram.stats().reads, 2u);
  EXPECT_EQ(b.l2.mshrsInUse(), 0u);
}

TEST(L2Cache, FullMshrsWithholdEndReq) {
  L2Config c = l2_config();
  c.mshrs = 1;
  Bench b(MemPort::Mode::ApproximatelyTimed, c);
  b.cpu.read(0x0, 4, b.log.rec(0));    // miss at 0: the only MSHR
  b.cpu.read(0x180, 4, b.log.rec(1));  // at 1: waits for the MSHR (no END_REQ) until 74
  b.cpu.read(0x4, 4, b.log.rec(2));    // sent after END_REQ of the previous at 75: a hit
  sc_start();
  ASSERT_EQ(b.log.got.size(), 3u);
  EXPECT_EQ(b.log.got[0].at, 74 * ns);
  EXPECT_EQ(b.log.got[1].at, 148 * ns);  // handled at 74: 74 + 74
  EXPECT_EQ(b.log.got[2].at, 95 * ns);   // 75 + 20
  EXPECT_EQ(b.log.got[1].data, pattern(0x180, 4));
  EXPECT_EQ(b.log.got[2].data, pattern(0x4, 4));
  EXPECT_EQ(b.l2.stats().mshr_stalls, 1u);
  EXPECT_EQ(b.l2.stats().hits, 1u);
  EXPECT_EQ(b.l2.stats().misses, 2u);
}

TEST(L2Cache, LruEvictsTheLeastRecentlyUsedWay) {
  Bench b;  // 0x0, 0x800 and 0x1000 share set 0 (2 ways)
  const std::vector<std::uint64_t> order = {0x0, 0x800, 0x0, 0x1000, 0x0};
  std::function<void(unsigned)> next = [&](unsigned i) {
    if (i < order.size()) b.cpu.read(order[i], 4, b.log.rec(i, [&, i](const MemResult&) { next(i + 1); }));
  };
  next(0);
  sc_start();
  ASSERT_EQ(b.log.got.size(), 5u);
  EXPECT_EQ(b.log.got[4].at - b.log.got[3].at, 20 * ns);  // 0x0 survived
  EXPECT_TRUE(b.l2.contains(0x0));
  EXPECT_TRUE(b.l2.contains(0x1000));
  EXPECT_FALSE(b.l2.contains(0x800));
  EXPECT_EQ(b.l2.stats().evictions, 1u);
  EXPECT_EQ(b.l2.stats().hits, 2u);
  EXPECT_EQ(b.l2.stats().misses, 3u);
}

// A write arriving while its line is being fetched: the fill answers the earlier read with the
// old bytes and is not installed; the later read fetches the line again and sees the write.
TEST(L2Cache, StaleFillIsNotInstalled) {
  Bench b;
  const unsigned char w[4] = {1, 2, 3, 4};
  b.cpu.read(0x200, 4, b.log.rec(0));      // at 0, fill leaves at 20
  b.cpu.write(0x200, w, 4, b.log.rec(1));  // at 1, leaves at 21 (same DRAM bank)
  b.cpu.read(0x200, 4, b.log.rec(2, [&](const MemResult&) { b.cpu.read(0x200, 4, b.log.rec(3)); }));
  sc_start();
  ASSERT_EQ(b.log.got.size(), 4u);
  EXPECT_EQ(b.log.got[0].data, pattern(0x200, 4));
  EXPECT_EQ(b.log.got[0].at, 74 * ns);
  EXPECT_EQ(b.log.got[1].at, 91 * ns);   // bank busy until 40: 40 + 50 + 1
  EXPECT_EQ(b.log.got[2].data, Bytes(w, w + 4));
  EXPECT_EQ(b.log.got[2].at, 114 * ns);  // bank free at 60: 60 + 50 + 4
  EXPECT_EQ(b.log.got[3].data, Bytes(w, w + 4));
  EXPECT_EQ(b.log.got[3].at, 134 * ns);  // the second fill was installed: a hit
  EXPECT_EQ(b.l2.stats().merged, 0u);
  EXPECT_EQ(b.l2.stats().misses, 2u);
  EXPECT_EQ(b.l2.stats().hits, 1u);
}

// cpu -> L2 -> bus -> DRAM, and a second initiator on the bus reading DRAM directly.
TEST(L2Cache, WriteThroughReachesDramWithByteEnables) {
  MemPort cpu("cpu"), other("other");
  L2Cache l2("l2", l2_config());
  Interconnect bus("bus");
  DramTarget dram("dram", dram_config());
  cpu.to_memory.bind(l2.from_bus);
  l2.to_memory.bind(bus.from_initiators);
  other.to_memory.bind(bus.from_initiators);
  bus.to_targets.bind(dram.from_bus);
  bus.map(0, 0, 1 << 20);
  const Bytes p = pattern(0x400, 128);
  dram.store().write(0x400, p.data(), 128);
  const unsigned char w[8] = {0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee};
  const unsigned char be[8] = {0xff, 0, 0, 0xff, 0, 0xff, 0xff, 0};
  Log log;
  cpu.read(0x400, 128, log.rec(0, [&](const MemResult&) {  // installs the line
    cpu.write(0x408, w, 8, log.rec(1, [&](const MemResult&) {
      other.read(0x408, 8, log.rec(2));
      cpu.read(0x408, 8, log.rec(3));
    }), be, 8);
  }));
  sc_start();
  ASSERT_EQ(log.got.size(), 4u);
  Bytes expect = pattern(0x408, 8);
  for (unsigned i = 0; i < 8; ++i)
    if (be[i]) expect[i] = 0xee;
  EXPECT_EQ(log.got[1].status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(log.got[1].at, 145 * ns);  // 74 + 71
  EXPECT_EQ(log.got[2].data, expect);  // memory has it as soon as the write is acknowledged
  EXPECT_EQ(log.got[3].data, expect);  // and the cached line too
  EXPECT_EQ(log.got[3].at, 165 * ns);  // a hit
  EXPECT_EQ(l2.stats().writes, 1u);
  EXPECT_EQ(l2.stats().hits, 1u);
  EXPECT_EQ(dram.stats().writes, 1u);
}

TEST(L2Cache, AtomicReturnsOldValueAndInvalidates) {
  Bench b;
  const std::uint32_t v = 41;
  b.dram.store().write(0x300, reinterpret_cast<const unsigned char*>(&v), 4);
  WordOps ops;
  ops.push(0, 1);
  bool cached_after_atomic = true;
  b.cpu.read(0x300, 4, b.log.rec(0, [&](const MemResult&) {
    b.cpu.atomic(0x300, Op::ATOM_G_ADD_U32, ops, b.log.rec(1, [&](const MemResult&) {
      cached_after_atomic = b.l2.contains(0x300);
      b.cpu.read(0x300, 4, b.log.rec(2));
    }));
  }));
  sc_start();
  ASSERT_EQ(b.log.got.size(), 3u);
  auto word = [](const Bytes& d) { std::uint32_t x; std::memcpy(&x, d.data(), 4); return x; };
  EXPECT_EQ(word(b.log.got[0].data), 41u);
  EXPECT_EQ(word(b.log.got[1].data), 41u);  // the old value
  EXPECT_EQ(b.log.got[1].at, 145 * ns);
  EXPECT_FALSE(cached_after_atomic);
  EXPECT_EQ(word(b.log.got[2].data), 42u);
  EXPECT_EQ(b.log.got[2].at, 219 * ns);  // a miss again: 145 + 74
  EXPECT_EQ(b.l2.stats().atomics, 1u);
  EXPECT_EQ(b.l2.stats().misses, 2u);
  EXPECT_EQ(b.dram.stats().atomics, 1u);
}

TEST(L2Cache, DownstreamErrorsPropagate) {
  MemPort cpu("cpu");
  L2Cache l2("l2", l2_config());
  simtlm::test::ScriptedTarget mem("mem", Behavior::FourPhase);
  mem.memory.error_base = 0x8000;
  cpu.to_memory.bind(l2.from_bus);
  l2.to_memory.bind(mem.socket);
  Log log;
  const unsigned char w[4] = {1, 2, 3, 4};
  cpu.read(0x8000, 4, log.rec(0, [&](const MemResult&) { cpu.read(0x8004, 4, log.rec(3)); }));
  cpu.write(0x9000, w, 4, log.rec(1));
  cpu.read(0x100, 4, log.rec(2));
  sc_start();
  ASSERT_EQ(log.got.size(), 4u);
  EXPECT_EQ(log.got[0].status, tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(log.got[1].status, tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(log.got[2].status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(log.got[3].status, tlm::TLM_GENERIC_ERROR_RESPONSE);  // nothing was installed
  EXPECT_FALSE(l2.contains(0x8000));
  EXPECT_TRUE(l2.contains(0x100));
  EXPECT_EQ(l2.stats().errors, 3u);
  EXPECT_EQ(l2.stats().misses, 3u);
}

TEST(L2Cache, DramAddressErrorPropagates) {
  Bench b;
  b.cpu.read(0x200000, 4, b.log.rec(0));  // beyond the 1 MiB DRAM
  sc_start();
  ASSERT_EQ(b.log.got.size(), 1u);
  EXPECT_EQ(b.log.got[0].status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(b.l2.stats().errors, 1u);
}

// Reads, partial writes and reads again over 8 lines, then a second pass of hits; every result
// follows arrival order whatever the memory's protocol behaviour.
void exercise(MemPort& cpu, L2Cache& l2, simtlm::test::TestMemory& memory) {
  for (unsigned i = 0; i < 4096; ++i) memory.bytes[i] = static_cast<unsigned char>(i * 7 + 3);
  Log log;
  const unsigned char be[4] = {0xff, 0xff, 0x00, 0xff};
  std::vector<Bytes> writes;
  for (unsigned i = 0; i < 8; ++i) writes.push_back(Bytes(8, static_cast<unsigned char>(0x80 + i)));
  unsigned left = 32;
  auto second_pass = [&](const MemResult&) {
    if (--left) return;
    for (unsigned i = 0; i < 8; ++i) cpu.read(0x80 * i, 16, log.rec(32 + i));
  };
  for (unsigned i = 0; i < 8; ++i) {
    const std::uint64_t a = 0x80 * i;
    cpu.read(a, 16, log.rec(4 * i, second_pass));
    cpu.read(a + 16, 16, log.rec(4 * i + 1, second_pass));
    cpu.write(a, writes[i].data(), 8, log.rec(4 * i + 2, second_pass), be, 4);
    cpu.read(a, 16, log.rec(4 * i + 3, second_pass));
  }
  sc_start();
  ASSERT_EQ(log.got.size(), 40u);
  for (unsigned i = 0; i < 8; ++i) {
    const std::uint64_t a = 0x80 * i;
    Bytes after = pattern(a, 16);
    for (unsigned k = 0; k < 8; ++k)
      if (be[k % 4]) after[k] = writes[i][k];
    EXPECT_EQ(log.got[4 * i].data, pattern(a, 16)) << i;
    EXPECT_EQ(log.got[4 * i + 1].data, pattern(a + 16, 16)) << i;
    EXPECT_EQ(log.got[4 * i + 3].data, after) << i;
    EXPECT_EQ(log.got[32 + i].data, after) << i;
    for (unsigned k : {0u, 1u, 2u, 3u}) EXPECT_EQ(log.got[4 * i + k].status, tlm::TLM_OK_RESPONSE);
  }
  EXPECT_EQ(Bytes(memory.bytes.begin(), memory.bytes.begin() + 16), log.got[3].data);
  EXPECT_EQ(l2.stats().hits, 8u);     // the second pass
  EXPECT_EQ(l2.stats().merged, 8u);   // the second read of each line
  EXPECT_EQ(l2.stats().misses, 24u);  // the read after each write fetches the line again
  EXPECT_TRUE(cpu.idle());
  EXPECT_EQ(l2.mshrsInUse(), 0u);
}

class L2Downstream : public ::testing::TestWithParam<Behavior> {};

TEST_P(L2Downstream, CorrectAgainstEveryTargetBehaviour) {
  MemPort cpu("cpu");
  L2Cache l2("l2", l2_config());
  simtlm::test::ScriptedTarget mem("mem", GetParam());
  cpu.to_memory.bind(l2.from_bus);
  l2.to_memory.bind(mem.socket);
  exercise(cpu, l2, mem.memory);
  EXPECT_EQ(mem.outstanding, 0u);
  EXPECT_EQ(mem.begin_reqs, 24u);  // 16 line reads + 8 writes
  EXPECT_EQ(mem.responses, 24u);
}

INSTANTIATE_TEST_SUITE_P(AllTargetBehaviours, L2Downstream,
                         ::testing::Values(Behavior::FourPhase, Behavior::CompleteOnBeginReq,
                                           Behavior::UpdatedEndReq, Behavior::UpdatedBeginResp,
                                           Behavior::BeginRespWithoutEndReq, Behavior::OutOfOrder),
                         [](const auto& info) { return behavior_name(info.param); });

TEST(L2Cache, LooselyTimedDownstreamAgainstBTransportOnlyTarget) {
  L2Config c = l2_config();
  c.downstream_mode = MemPort::Mode::LooselyTimed;
  MemPort cpu("cpu");
  L2Cache l2("l2", c);
  simtlm::test::LtOnlyTarget mem("mem");
  cpu.to_memory.bind(l2.from_bus);
  l2.to_memory.bind(mem.socket);
  exercise(cpu, l2, mem.memory);
  EXPECT_EQ(mem.calls, 24u);
  EXPECT_EQ(mem.foreign_calls, 0u);  // all from the L2's port thread
}

TEST(L2Cache, DebugWriteThenTimedReadSeesNewData) {
  Bench b;
  const unsigned char nine[4] = {9, 9, 9, 9};
  unsigned moved = 0;
  bool cached_after_debug = true;
  Bytes debug_back(4);
  b.cpu.read(0x300, 4, b.log.rec(0, [&](const MemResult&) {
    moved = b.cpu.debug_write(0x300, nine, 4);
    cached_after_debug = b.l2.contains(0x300);
    b.cpu.debug_read(0x300, debug_back.data(), 4);
    b.cpu.read(0x300, 4, b.log.rec(1));
  }));
  sc_start();
  ASSERT_EQ(b.log.got.size(), 2u);
  EXPECT_EQ(moved, 4u);
  EXPECT_FALSE(cached_after_debug);
  EXPECT_EQ(debug_back, Bytes(nine, nine + 4));
  EXPECT_EQ(b.log.got[0].data, pattern(0x300, 4));
  EXPECT_EQ(b.log.got[1].data, Bytes(nine, nine + 4));
  EXPECT_EQ(b.log.got[1].at, 148 * ns);  // fetched again: 74 + 74
}

// b_transport straight from a thread: annotated hit latency, waited miss, local errors, no DMI.
SC_MODULE(LtProbe) {
  simtlm::test::ProbeInitiator probe{"probe"};
  std::function<void()> body;
  SC_CTOR(LtProbe) { SC_THREAD(run); }
  void run() { body(); }
};

TEST(L2Cache, BTransportLocalErrorsAndNoDmi) {
  LtProbe p("p");
  L2Cache l2("l2", l2_config());
  DramTarget dram("dram", dram_config());
  p.probe.socket.bind(l2.from_bus);
  l2.to_memory.bind(dram.from_bus);
  using PI = simtlm::test::ProbeInitiator;
  std::vector<tlm::tlm_response_status> st;
  std::vector<sc_time> delays, times;
  bool dmi = true;
  p.body = [&] {
    unsigned char d[8];
    tlm::tlm_generic_payload gp;
    auto run = [&] {
      sc_time delay = SC_ZERO_TIME;
      p.probe.socket->b_transport(gp, delay);
      st.push_back(gp.get_response_status());
      delays.push_back(delay);
      times.push_back(sc_time_stamp());
    };
    PI::fill(gp, tlm::TLM_READ_COMMAND, 0x40, d, 8);
    gp.set_streaming_width(4);
    run();                                          // streaming: rejected
    PI::fill(gp, tlm::TLM_IGNORE_COMMAND, 0x40, d, 8);
    run();
    PI::fill(gp, tlm::TLM_READ_COMMAND, 0x40, d, 8);
    run();                                          // miss: waited
    PI::fill(gp, tlm::TLM_READ_COMMAND, 0x48, d, 8);
    run();                                          // hit: annotated
    tlm::tlm_dmi region;
    PI::fill(gp, tlm::TLM_READ_COMMAND, 0x40, d, 8);
    dmi = p.probe.socket->get_direct_mem_ptr(gp, region);
  };
  sc_start();
  ASSERT_EQ(st.size(), 4u);
  EXPECT_EQ(st[0], tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(st[1], tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(st[2], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(st[3], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(delays, (std::vector<sc_time>{ns, ns, SC_ZERO_TIME, 20 * ns}));
  EXPECT_EQ(times, (std::vector<sc_time>{SC_ZERO_TIME, SC_ZERO_TIME, 74 * ns, 74 * ns}));
  EXPECT_FALSE(dmi);
  EXPECT_EQ(l2.stats().errors, 2u);
}

TEST(L2Config, DefaultsMatchParametersAndBadFieldsAreNamed) {
  const simtlm::config::GpuConfig g;
  const L2Config d;
  EXPECT_EQ(d.size, std::uint64_t(g.l2.size));
  EXPECT_EQ(d.line, unsigned(g.l2.line));
  EXPECT_EQ(d.assoc, unsigned(g.l2.assoc));
  EXPECT_EQ(d.hit_latency, unsigned(g.l2.latency));
  EXPECT_NO_THROW(d.validate());
  auto message = [](L2Config c) {
    try {
      c.validate();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  L2Config c = d;
  c.line = 96;
  EXPECT_EQ(message(c), "L2Config.line: must be a power of two in [8, 4096] bytes (got 96)");
  c = d;
  c.assoc = 0;
  EXPECT_EQ(message(c), "L2Config.assoc: must be in [1, 1024] ways (got 0)");
  c = d;
  c.size = 3000;
  EXPECT_EQ(message(c),
            "L2Config.size: must be a multiple of line * assoc (2048) in [2048, 1 GiB] bytes "
            "(got 3000)");
  c = d;
  c.mshrs = 0;
  EXPECT_EQ(message(c), "L2Config.mshrs: must be in [1, 65536] (got 0)");
  c = d;
  c.clock_period = SC_ZERO_TIME;
  EXPECT_NE(message(c).find("L2Config.clock_period: must be > 0"), std::string::npos);
  c = d;
  c.hit_latency = 100001;
  EXPECT_EQ(message(c), "L2Config.hit_latency: must be in [0, 100000] cycles (got 100001)");
  c = d;
  c.assoc = 3;  // 2816 KiB is not a multiple of 3 * 128
  EXPECT_THROW(L2Cache("bad", c), std::invalid_argument);  // the constructor validates
}

}  // namespace
