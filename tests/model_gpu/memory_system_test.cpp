// The SM's global-memory path through the GPU top (gpu::Platform: GPU, host driver,
// interconnect, DRAM): DRAM latency matters for a memory-bound kernel and hardly for a
// compute-bound one; the L1 turns repeated reads of a line into hits and saves DRAM reads; an L1
// miss costs the L1 latency on top of the memory's; and workloads give the interpreter's memory
// on the `tiny` machine (configs/tiny.ini) with the L1 enabled and disabled.
//
// SystemC elaborates once per process (each test is its own process), so the configurations a
// test compares are separate platforms in one simulation: independent GPUs, buses and DRAMs
// whose cycle counts do not affect each other. The L2 is left out (l2.enabled = false) where a
// test counts DRAM reads or measures DRAM latency, so that they are the L1's and the DRAM's.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cli/config_loader.h"
#include "tests/model_gpu/platform_runs.h"
#include "isa/assembler.h"
#include "isa/interpreter.h"
#include "model/gpu/platform.h"
#include "model/sm/global_access.h"
#include "workloads/workload.h"

using namespace sc_core;
using namespace simtlm;
using simtlm::test::Launch;
using simtlm::test::simulate;

namespace {

config::GpuConfig twoSms() {
  config::GpuConfig c;
  c.gpu.num_sms = 2;
  c.l2.enabled = false;
  return c;
}

// A long chain of dependent ALU work after a single global load, and a single store.
const char* kComputeBound = R"(
.kernel compute
.param A
.param N
  ld.param.b32 r0, [A]
  ld.global.b32 r1, [r0]
  ld.param.b32 r2, [N]
  mov.b32 r3, 3
loop:
  mad.lo.u32 r1, r1, r3, r3
  mad.lo.u32 r1, r1, r3, r3
  mad.lo.u32 r1, r1, r3, r3
  mad.lo.u32 r1, r1, r3, r3
  sub.u32 r2, r2, 1
  setp.ne.b32 p0, r2, 0
  @p0 bra loop
  st.global.b32 [r0], r1
  exit
)";

}  // namespace

TEST(GpuMemory, DramLatencyDominatesAMemoryBoundKernelOnly) {
  auto vecadd = workloads::makeWorkload("vecadd", {{"n", 16384}, {"block", 128}});
  const isa::Kernel vk = workloads::loadKernel(*vecadd);
  const isa::Kernel ck = isa::assemble(kComputeBound, "compute.s");
  std::vector<std::unique_ptr<Launch>> runs;
  for (int kernel = 0; kernel < 2; ++kernel)
    for (int latency : {100, 400}) {
      auto r = std::make_unique<Launch>();
      r->cfg = twoSms();
      r->cfg.dram.latency = latency;  // DramConfig::latency_cycles (gpu::dramConfigOf)
      if (kernel == 0) {
        r->kernel = &vk;
        r->launch = vecadd->setup(r->memory);
      } else {
        r->kernel = &ck;
        r->launch.block = {32, 1, 1};
        r->launch.params = {r->memory.allocate("a", 4), 2000};
      }
      runs.push_back(std::move(r));
    }
  simulate(runs);
  for (int i = 0; i < 2; ++i) EXPECT_EQ(vecadd->verify(runs[i]->memory), "");
  const double vec100 = runs[0]->cycles(), vec400 = runs[1]->cycles();
  const double cmp100 = runs[2]->cycles(), cmp400 = runs[3]->cycles();
  // vecadd waits for DRAM on every load: 300 more cycles per access, overlapped across warps,
  // at least +50%.
  EXPECT_GT(vec400, 1.5 * vec100) << vec100 << " -> " << vec400;
  // The compute-bound kernel waits for DRAM only a few times (its load, its store, its
  // instruction fills): under 3%.
  EXPECT_GT(cmp100, 50000.0);
  EXPECT_LT(cmp400, 1.03 * cmp100) << cmp100 << " -> " << cmp400;
  EXPECT_GE(cmp400, cmp100);
}

TEST(GpuMemory, SecondReadOfALineHitsInTheL1AndSavesDramReads) {
  // Every thread reads its word twice; the second address depends on the first load's data, so
  // the second read is issued after the line is in the L1.
  const isa::Kernel k = isa::assemble(R"(
.kernel twice
.param A
.param OUT
  s2r r0, %ctaid.x
  s2r r1, %ntid.x
  s2r r2, %tid.x
  mad.lo.u32 r0, r0, r1, r2
  shl.b32 r3, r0, 2
  ld.param.b32 r4, [A]
  add.u32 r4, r4, r3
  ld.global.b32 r5, [r4]
  and.b32 r6, r5, 0
  add.u32 r7, r4, r6
  ld.global.b32 r8, [r7]
  add.u32 r9, r5, r8
  ld.param.b32 r10, [OUT]
  add.u32 r10, r10, r3
  st.global.b32 [r10], r9
  exit
)", "twice.s");
  const uint32_t blocks = 8, threads = 128, lines = blocks * threads / 32;  // a warp reads a line
  std::vector<std::unique_ptr<Launch>> runs;
  for (bool l1 : {true, false}) {
    auto r = std::make_unique<Launch>();
    r->cfg = twoSms();
    r->cfg.l1.enabled = l1;
    r->kernel = &k;
    const uint32_t a = r->memory.allocate("a", blocks * threads * 4);
    const uint32_t out = r->memory.allocate("out", blocks * threads * 4);
    std::vector<uint32_t> words(blocks * threads);
    for (uint32_t i = 0; i < blocks * threads; ++i) words[i] = 3 * i;
    r->memory.setWords("a", words);
    r->launch.grid = {blocks, 1, 1};
    r->launch.block = {threads, 1, 1};
    r->launch.params = {a, out};
    runs.push_back(std::move(r));
  }
  simulate(runs);
  for (auto& r : runs)
    for (uint32_t i = 0; i < blocks * threads; ++i) ASSERT_EQ(r->memory.words("out")[i], 6 * i);
  const Launch& on = *runs[0];
  const Launch& off = *runs[1];
  EXPECT_EQ(on.stat("sm0.l1.hits") + on.stat("sm1.l1.hits"), lines);
  EXPECT_GT(on.stat("sm0.l1.hits"), 0.0);
  EXPECT_EQ(on.stat("sm0.l1.misses") + on.stat("sm1.l1.misses"), lines);
  EXPECT_EQ(on.stat("sm0.l1.stores") + on.stat("sm1.l1.stores"), lines);
  EXPECT_EQ(off.stat("sm0.l1.loads") + off.stat("sm1.l1.loads"), 0.0);  // plain loads skip it
  // Instruction fills are the same in both; the L1 saves one DRAM read per line.
  EXPECT_EQ(off.stat("dram.reads") - on.stat("dram.reads"), lines);
  EXPECT_EQ(on.stat("dram.writes"), off.stat("dram.writes"));
}

TEST(GpuMemory, EveryGlobalAccessPassesTheL1Pipeline) {
  // One warp, one load and nothing after it: the block retires when the load's data is back.
  // Through the L1 the line read leaves the L1's pipeline latency after the access reaches it
  // (GPGPU-Sim's L1 latency queue sits before the tag check); past the L1 (l1.enabled false)
  // the access still passes that pipeline, as every global access passes the L1/texture unit
  // on the GPU: a miss and a bypass cost the same, and the pipeline is l1.hit_latency less the
  // SM's own load-to-use stages (sm::memoryUnitLatency).
  const isa::Kernel k = isa::assemble(R"(
.kernel one
.param A
  ld.param.b32 r0, [A]
  ld.global.b32 r1, [r0]
  exit
)", "one.s");
  std::vector<std::unique_ptr<Launch>> runs;
  for (int variant = 0; variant < 3; ++variant) {
    auto r = std::make_unique<Launch>();
    r->cfg = twoSms();
    r->cfg.gpu.num_sms = 1;
    r->cfg.l1.enabled = variant == 0;
    if (variant == 2) r->cfg.l1.hit_latency = sm::kOperandStages + 1;  // a pipeline of 0 cycles
    // Open rows would make DRAM's time depend on what the instruction fetches left open: the
    // fixed-latency DRAM keeps the difference the L1's alone.
    r->cfg.dram.scheduler = config::DramScheduler::Fixed;
    r->kernel = &k;
    r->launch.block = {32, 1, 1};
    r->launch.params = {r->memory.allocate("a", 128)};
    runs.push_back(std::move(r));
  }
  simulate(runs);
  const int pipeline = sm::memoryUnitLatency(runs[0]->cfg.l1.hit_latency);
  EXPECT_EQ(runs[0]->stat("sm0.l1.misses"), 1.0);
  EXPECT_EQ(runs[1]->stat("sm0.l1.loads"), 0.0);
  EXPECT_EQ(runs[0]->cycles(), runs[1]->cycles()) << "a miss and a bypass";
  EXPECT_EQ(static_cast<int64_t>(runs[1]->cycles()) - static_cast<int64_t>(runs[2]->cycles()), pipeline)
      << "bypass " << runs[1]->cycles() << ", with no L1 pipeline " << runs[2]->cycles();
}

TEST(GpuMemory, L1IsInvalidatedAtEveryLaunch) {
  // Two launches of a copy kernel on one GPU; between them the host writes new input at the same
  // addresses (behind the L1s). The second launch must read the new input, not lines the first
  // left in the L1s.
  const isa::Kernel k = isa::assemble(R"(
.kernel copy
.param IN
.param OUT
  s2r r0, %ctaid.x
  s2r r1, %ntid.x
  s2r r2, %tid.x
  mad.lo.u32 r0, r0, r1, r2
  shl.b32 r3, r0, 2
  ld.param.b32 r4, [IN]
  add.u32 r4, r4, r3
  ld.global.b32 r5, [r4]
  ld.param.b32 r6, [OUT]
  add.u32 r6, r6, r3
  st.global.b32 [r6], r5
  exit
)", "copy.s");
  const uint32_t n = 4 * 128;
  isa::GlobalMemory mem[2];
  isa::LaunchConfig l;
  l.grid = {4, 1, 1};
  l.block = {128, 1, 1};
  for (int j = 0; j < 2; ++j) {
    const uint32_t in = mem[j].allocate("in", n * 4), out = mem[j].allocate("out", n * 4);
    l.params = {in, out};
    std::vector<uint32_t> words(n);
    for (uint32_t i = 0; i < n; ++i) words[i] = 1000 * (j + 1) + i;
    mem[j].setWords("in", words);
  }
  config::GpuConfig cfg = twoSms();
  cfg.l1.enabled = true;
  stats::Registry stats;
  int next = 0;
  gpu::Platform top("top", cfg, stats, [&](gpu::HostJob& job) {
    if (next == 2) return false;
    job = gpu::HostJob{&k, l, &mem[next++]};
    return true;
  });
  top.host.onFinished = [] { sc_stop(); };
  sc_start();
  ASSERT_EQ(top.host.result().errorCode, 0u) << top.gpu.lastError();
  ASSERT_EQ(next, 2);
  for (int j = 0; j < 2; ++j)
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(mem[j].words("out")[i], 1000 * (j + 1) + i) << j;
  // Both launches missed on every line (an L1 kept across launches would have hit).
  EXPECT_EQ(*stats.value("sm0.l1.hits") + *stats.value("sm1.l1.hits"), 0.0);
  EXPECT_EQ(*stats.value("sm0.l1.misses") + *stats.value("sm1.l1.misses"), 2.0 * n / 32);
}

namespace {

config::GpuConfig tinyMachine() {
  config::ConfigLoader loader;
  loader.loadFile(std::string(SIMTLM_SOURCE_DIR) + "/configs/tiny.ini");
  return loader.resolve();
}

// `kernel` on the tiny machine (configs/tiny.ini), L1 enabled and disabled: both memories equal
// the interpreter's (and `verify`'s, when given).
void expectTinyEquivalent(const isa::Kernel& k, const std::function<isa::LaunchConfig(isa::GlobalMemory&)>& setup,
                          const std::function<std::string(const isa::GlobalMemory&)>& verify = nullptr,
                          const std::function<void(config::GpuConfig&)>& adjust = nullptr) {
  config::GpuConfig tiny = tinyMachine();
  if (adjust) adjust(tiny);
  isa::GlobalMemory golden;
  isa::Interpreter(k, golden).run(setup(golden));
  std::vector<std::unique_ptr<Launch>> runs;
  for (bool l1 : {true, false}) {
    auto r = std::make_unique<Launch>();
    r->cfg = tiny;
    r->cfg.l1.enabled = l1;
    r->kernel = &k;
    r->launch = setup(r->memory);
    runs.push_back(std::move(r));
  }
  simulate(runs);
  for (auto& r : runs) {
    if (verify) {
      EXPECT_EQ(verify(r->memory), "") << "l1.enabled = " << r->cfg.l1.enabled;
    }
    EXPECT_TRUE(golden == r->memory) << "l1.enabled = " << r->cfg.l1.enabled << ": memory differs";
  }
  EXPECT_GT(runs[0]->stat("sm0.l1.loads"), 0.0);
}

void expectTinyEquivalent(const std::string& workload, const workloads::Options& o,
                          const std::function<void(config::GpuConfig&)>& adjust = nullptr) {
  auto w = workloads::makeWorkload(workload, o);
  const isa::Kernel k = workloads::loadKernel(*w);
  expectTinyEquivalent(k, [&](isa::GlobalMemory& m) { return w->setup(m); },
                       [&](const isa::GlobalMemory& m) { return w->verify(m); }, adjust);
}

}  // namespace

TEST(GpuMemory, TinyVecAddMatchesInterpreterWithAndWithoutL1) {
  expectTinyEquivalent("vecadd", {{"n", 5000}, {"block", 128}});
}
TEST(GpuMemory, TinyMatmulMatchesInterpreterWithAndWithoutL1) {
  // A 32x32 block is 32 warps of 24 registers: tiny's SM is widened to hold one (everything
  // else, notably its 4 KB L1 that matmul's tiles overflow, stays tiny).
  expectTinyEquivalent("matmul", {{"m", 40}, {"n", 72}, {"k", 36}}, [](config::GpuConfig& c) {
    c.sm.num_warps = 32;
    c.sm.num_registers = 32768;
  });
}
TEST(GpuMemory, TinyFig3MatchesInterpreterWithAndWithoutL1) {
  expectTinyEquivalent("fig3", {{"x", 4}, {"y", 2}});
}
TEST(GpuMemory, TinySharedStencilMatchesInterpreterWithAndWithoutL1) {
  // matmul's 32x32 blocks do not fit tiny's 16 warps: this kernel mixes overlapping global
  // reads (L1 hits and MSHR merges), shared stores, loads and atomics across barriers, with
  // several blocks per SM.
  const isa::Kernel k = isa::assemble(R"(
.kernel stencil
.shared 512
.param IN
.param OUT
  s2r r0, %ctaid.x
  s2r r1, %ntid.x
  s2r r2, %tid.x
  mad.lo.u32 r3, r0, r1, r2
  shl.b32 r4, r3, 2
  ld.param.b32 r5, [IN]
  add.u32 r5, r5, r4
  ld.global.b32 r6, [r5]
  ld.global.b32 r8, [r5+4]
  shl.b32 r7, r2, 2
  st.shared.b32 [r7], r6
  bar.sync 0
  xor.b32 r9, r2, 1
  shl.b32 r9, r9, 2
  ld.shared.b32 r10, [r9]
  atom.shared.add.u32 r11, [r7], r8
  bar.sync 0
  ld.shared.b32 r12, [r9]
  add.u32 r13, r10, r12
  add.u32 r13, r13, r11
  ld.param.b32 r14, [OUT]
  add.u32 r14, r14, r4
  st.global.b32 [r14], r13
  exit
)", "stencil.s");
  const uint32_t blocks = 24, threads = 128, n = blocks * threads;
  expectTinyEquivalent(k, [&](isa::GlobalMemory& m) {
    const uint32_t in = m.allocate("in", (n + 1) * 4);
    const uint32_t out = m.allocate("out", n * 4);
    std::vector<uint32_t> words(n + 1);
    for (uint32_t i = 0; i <= n; ++i) words[i] = i * 7 + 1;
    m.setWords("in", words);
    isa::LaunchConfig l;
    l.grid = {blocks, 1, 1};
    l.block = {threads, 1, 1};
    l.params = {in, out};
    return l;
  });
}

// GPGPU-Sim's Pascal configuration (-gpgpu_gmem_skip_L1D 1) sends global loads past the L1: the
// default has no L1 accesses at all, l1.enabled = true caches vecadd's 2 x 64 line loads.
TEST(GpuMemory, GlobalLoadsBypassTheL1ByDefaultAndL1EnabledCachesThem) {
  auto vecadd = workloads::makeWorkload("vecadd", {{"n", 2048}, {"block", 128}});
  const isa::Kernel k = workloads::loadKernel(*vecadd);
  std::vector<std::unique_ptr<Launch>> runs;
  for (bool l1 : {false, true}) {
    auto r = std::make_unique<Launch>();
    r->cfg = config::GpuConfig{};
    r->cfg.gpu.num_sms = 2;
    if (l1) r->cfg.l1.enabled = true;
    r->kernel = &k;
    r->launch = vecadd->setup(r->memory);
    runs.push_back(std::move(r));
  }
  simulate(runs);
  EXPECT_FALSE(runs[0]->cfg.l1.enabled);
  double loads[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(vecadd->verify(runs[i]->memory), "");
    for (int sm = 0; sm < 2; ++sm) {
      const std::string name = "sm" + std::to_string(sm) + ".l1.loads";
      loads[i] += runs[i]->stats.value(name).value_or(0);
    }
  }
  EXPECT_EQ(loads[0], 0.0);
  EXPECT_EQ(loads[1], 128.0);
}
