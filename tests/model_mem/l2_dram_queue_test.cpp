// L2Cache (write-back) with a bounded queue towards memory (L2Config::dram_queue, GPGPU-Sim's
// L2-to-DRAM queue): a stream of full-line stores, each evicting a dirty line, cannot be accepted
// faster than memory takes the write-backs. Without the bound the stores ran at the L2's lookup
// rate (one 128-byte line a cycle), four times the DRAM's 32 bytes a cycle.
#include "model/mem/dram_target.h"
#include "model/mem/l2_cache.h"
#include "model/mem/mem_port.h"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

using namespace sc_core;
using simtlm::mem::DramConfig;
using simtlm::mem::DramTarget;
using simtlm::mem::L2Cache;
using simtlm::mem::L2Config;
using simtlm::mem::MemPort;
using simtlm::mem::MemResult;

namespace {

struct StoreStream {
  MemPort cpu;
  L2Cache l2;
  DramTarget dram;
  sc_time last_answer;
  explicit StoreStream(const L2Config& c)
      : cpu("cpu", MemPort::Config{}), l2("l2", c), dram("dram", [] {
          DramConfig d;
          d.size = 1 << 22;
          d.scheduler = DramConfig::Scheduler::FrFcfs;  // one channel, 16 banks, Pascal timings
          return d;
        }()) {
    cpu.to_memory.bind(l2.from_bus);
    l2.to_memory.bind(dram.from_bus);
  }
};

L2Config smallWb(unsigned dram_queue) {
  L2Config c;
  c.size = 256;  // one set of two ways: every store after the second evicts a dirty line
  c.line = 128;
  c.assoc = 2;
  c.hit_latency = 20;
  c.write_policy = L2Config::WritePolicy::WriteBackAllocate;
  c.dram_queue = dram_queue;
  return c;
}

}  // namespace

// 4096 full-line stores (512 KiB) to distinct lines: 4094 write-backs. The DRAM's own queues
// (16 banks x 8) and the L2's 4 entries hold at most 132 lines (4%), so the stores' rate must
// stay within 5% of the DRAM's 32 bytes a cycle.
TEST(L2DramQueue, StoreStreamRunsNoFasterThanMemoryTakesTheWriteBacks) {
  StoreStream s(smallWb(4));
  constexpr unsigned kLines = 4096;
  std::vector<unsigned char> line(128, 0x5a);
  unsigned answered = 0;
  for (unsigned i = 0; i < kLines; ++i)
    s.cpu.write(std::uint64_t{i} * 128, line.data(), 128, [&](const MemResult& r) {
      EXPECT_TRUE(r.ok());
      ++answered;
      s.last_answer = r.completed;
    });
  sc_start();
  const double drained = sc_time_stamp() / sc_time(1, SC_NS);  // the last write-back's answer
  ASSERT_EQ(answered, kLines);
  const double cycles = s.last_answer / sc_time(1, SC_NS);
  const double bytes_per_cycle = kLines * 128.0 / cycles;
  const double peak = (kLines - 2) * 128.0 / drained;  // what memory took, start to finish
  EXPECT_LE(bytes_per_cycle, peak * 1.05) << "stores accepted in " << cycles << " cycles, memory busy " << drained;
  EXPECT_GE(bytes_per_cycle, peak * 0.9);  // and the bound does not starve the stream
  EXPECT_EQ(s.l2.stats().writebacks, kLines - 2);
  EXPECT_GT(s.l2.stats().dram_queue_stalls, 0u);
  EXPECT_EQ(s.dram.stats().writes, kLines - 2);  // all reached memory, in full
}
