// Atomics at memory: AtomicExtension payloads performed by DramTarget at arrival. Several
// MemPorts contend through an Interconnect; the total and the old values must be exact.
#include "model/mem/atomic_extension.h"
#include "model/mem/dram_target.h"
#include "model/mem/interconnect.h"
#include "model/mem/mem_port.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

using namespace sc_core;
using simtlm::isa::Op;
using simtlm::mem::DramConfig;
using simtlm::mem::DramTarget;
using simtlm::mem::Interconnect;
using simtlm::mem::MemPort;
using simtlm::mem::MemResult;
using simtlm::mem::WordOps;

namespace {

constexpr std::uint64_t kBase = 0x10000;  // DRAM mapped here, translated to 0

DramConfig dram_config() {
  DramConfig c;
  c.size = 1 << 20;
  c.latency_cycles = 10;
  return c;
}

std::uint32_t word(DramTarget& d, std::uint64_t a) {
  std::uint32_t w;
  d.store().read(a, reinterpret_cast<unsigned char*>(&w), 4);
  return w;
}

struct System {
  std::vector<std::unique_ptr<MemPort>> ports;
  Interconnect bus;
  DramTarget dram;
  std::vector<std::uint32_t> olds;
  std::vector<tlm::tlm_response_status> status;  // in submission order
  System(unsigned n, MemPort::Mode mode = MemPort::Mode::ApproximatelyTimed)
      : bus("bus"), dram("dram", dram_config()) {
    for (unsigned i = 0; i < n; ++i) {
      ports.push_back(std::make_unique<MemPort>(("p" + std::to_string(i)).c_str(),
                                                MemPort::Config{mode, 0}));
      ports.back()->to_memory.bind(bus.from_initiators);
    }
    bus.to_targets.bind(dram.from_bus);
    bus.map(0, kBase, 1 << 20);
  }
  void atomic(unsigned p, std::uint64_t a, Op op, const WordOps& ops) {
    const std::size_t i = status.size();
    status.push_back(tlm::TLM_INCOMPLETE_RESPONSE);
    ports[p]->atomic(a, op, ops, [this, i](const MemResult& r) {
      status[i] = r.status;  // errors are answered sooner than accesses: out of order
      for (unsigned i = 0; i < r.size / 4; ++i) {
        std::uint32_t w;
        std::memcpy(&w, r.data + 4 * i, 4);
        olds.push_back(w);
      }
    });
  }
};

void concurrentAdds(MemPort::Mode mode) {
  System s(4, mode);
  WordOps ops;
  for (unsigned l = 0; l < 8; ++l) ops.push(0x40, 1);  // 8 lanes on one word
  for (unsigned k = 0; k < 16; ++k)
    for (unsigned p = 0; p < 4; ++p) s.atomic(p, kBase + 0x100, Op::ATOM_G_ADD_U32, ops);
  sc_start();
  ASSERT_EQ(s.olds.size(), 4u * 16 * 8);
  EXPECT_EQ(word(s.dram, 0x140), 512u);
  std::vector<std::uint32_t> sorted = s.olds;
  std::sort(sorted.begin(), sorted.end());
  for (std::uint32_t i = 0; i < sorted.size(); ++i) EXPECT_EQ(sorted[i], i);  // all distinct
  for (auto st : s.status) EXPECT_EQ(st, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(s.dram.stats().atomics, 64u);
}

TEST(Atomics, ConcurrentAddsFromFourPortsAreExact) { concurrentAdds(MemPort::Mode::ApproximatelyTimed); }
TEST(Atomics, ConcurrentAddsLooselyTimed) { concurrentAdds(MemPort::Mode::LooselyTimed); }

TEST(Atomics, EveryOpcodeMatchesIsaSemantics) {
  System s(1);
  const std::uint32_t init = 5;
  for (unsigned i = 0; i < 8; ++i)
    s.dram.store().write(0x200 + 4 * i, reinterpret_cast<const unsigned char*>(&init), 4);
  const Op ops_[] = {Op::ATOM_G_ADD_U32, Op::ATOM_G_MIN_S32, Op::ATOM_G_MIN_U32,
                     Op::ATOM_G_MAX_S32, Op::ATOM_G_MAX_U32, Op::ATOM_G_EXCH, Op::ATOM_G_CAS,
                     Op::ATOM_G_CAS};
  const std::uint32_t b[] = {3, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 9, 5, 4};
  const std::uint32_t expect[] = {8, 0xFFFFFFFFu, 5, 5, 0xFFFFFFFFu, 9, 42, 5};
  for (unsigned i = 0; i < 8; ++i) {
    WordOps o;
    o.push(4 * i, b[i], 42);
    s.atomic(0, kBase + 0x200, ops_[i], o);
  }
  sc_start();
  ASSERT_EQ(s.olds.size(), 8u);
  for (unsigned i = 0; i < 8; ++i) {
    EXPECT_EQ(s.olds[i], 5u) << i;
    EXPECT_EQ(word(s.dram, 0x200 + 4 * i), expect[i]) << i;
  }
}

TEST(Atomics, BadAddressOrCommandIsAnErrorWithoutEffect) {
  System s(1);
  WordOps ok_then_misaligned;
  ok_then_misaligned.push(0, 1);
  ok_then_misaligned.push(6, 1);
  s.atomic(0, kBase + 0x300, Op::ATOM_G_ADD_U32, ok_then_misaligned);
  WordOps beyond;
  beyond.push(0, 1);
  s.atomic(0, kBase + (1 << 20) - 4, Op::ATOM_G_ADD_U32, beyond);  // last word: fine
  WordOps past;
  past.push(4, 1);
  s.atomic(0, kBase + (1 << 20) - 4, Op::ATOM_G_ADD_U32, past);  // past the end
  sc_start();
  ASSERT_EQ(s.status.size(), 3u);
  EXPECT_EQ(s.status[0], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(s.status[1], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(s.status[2], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(word(s.dram, 0x300), 0u);  // the whole request had no effect
  EXPECT_EQ(word(s.dram, (1 << 20) - 4), 1u);
}

}  // namespace
