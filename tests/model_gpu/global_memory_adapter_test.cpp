// The LD/ST unit's global path (model/gpu/global_memory_adapter.h) past the L1: a load is
// answered l1.hit_latency (less the SM's own stages) cycles after memory answers it, whether the
// unit's tick does work every cycle or returns at once while it only waits for memory.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/gpu/global_memory_adapter.h"
#include "model/sm/pipeline_register.h"

using namespace simtlm;

namespace {

// A memory that keeps each read's completion for the test to call in the cycle it likes.
struct HeldMemory : mem::Downstream {
  std::vector<Done> dones;
  std::vector<std::uint64_t> addresses;
  void read(std::uint64_t address, unsigned, Done done) override {
    addresses.push_back(address);
    dones.push_back(std::move(done));
  }
  void write(std::uint64_t, const unsigned char*, const unsigned char*, unsigned, Done done) override {
    dones.push_back(std::move(done));
  }
  void atomic(std::uint64_t, isa::Op, const mem::WordOps&, Done done) override { dones.push_back(std::move(done)); }
};

TEST(GlobalMemoryAdapter, ALoadPastTheL1IsAnsweredItsLatencyAfterMemoryAnswers) {
  config::GpuConfig cfg;
  cfg.l1.enabled = false;
  cfg.l1.hit_latency = 20;  // load-to-use: the unit waits 20 - 2 - 1 = 17 cycles
  HeldMemory memory;
  stats::Registry stats;
  gpu::GlobalMemoryAdapter unit(memory, cfg, 4, stats, "sm0");
  sm::UpdateList updates;
  sm::PipelineRegister<sm::GlobalResponse> answers("answers", sm::GlobalMemoryPort::kMaxResponses, updates);
  unit.bind(answers);
  unit.startKernel(100);

  sm::GlobalRequest request;
  request.id = 7;
  request.access.op = isa::Op::LD_GLOBAL;
  request.access.mask = 0x3;  // two lanes, one segment
  request.access.addr[0] = 0x1000;
  request.access.addr[1] = 0x1004;
  uint64_t cycle = 100;
  unit.tick(cycle);
  unit.issue(request);
  std::vector<uint64_t> answeredAt;
  auto tick = [&](uint64_t c) {
    unit.tick(c);
    updates.commit();
    sm::GlobalResponse r;
    while (answers.nb_read(r)) {
      answeredAt.push_back(c);
      EXPECT_EQ(r.id, 7u);
      EXPECT_EQ(r.words[0], 0x04030201u);
      EXPECT_EQ(r.words[1], 0x08070605u);
    }
  };
  tick(++cycle);  // 101: the coalescer hands the transaction on (the cycle after accept)
  ASSERT_EQ(memory.dones.size(), 1u);
  EXPECT_EQ(memory.addresses[0], 0x1000u);
  for (int i = 0; i < 30; ++i) tick(++cycle);  // memory takes its time: nothing to answer
  EXPECT_TRUE(answeredAt.empty());
  EXPECT_FALSE(unit.idle());
  // Memory answers between cycles 131 and 132: the unit answers 1 + 17 cycles later.
  const unsigned char data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  memory.dones[0](data, true);
  for (int i = 0; i < 30; ++i) tick(++cycle);
  EXPECT_EQ(answeredAt, (std::vector<uint64_t>{131 + 1 + 17}));
  EXPECT_TRUE(unit.idle());
}

}  // namespace
