// Read-only loads (isa/ISA.md 8.2) through the GPU top: ld.global.nc is cached in the L1 even
// where plain global loads bypass it (GPGPU-Sim's Pascal configuration), ld.const goes through
// the constant cache, and a store of the SM's own drops the cached copy.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "tests/model_gpu/platform_runs.h"

using namespace simtlm;
using simtlm::test::Launch;
using simtlm::test::simulate;

namespace {

// Every thread sums TABLE[0..7] (one line, the same words in every lane) over 8 rounds with the
// load given, and writes the sum to OUT[tid]: 4 warps x 8 rounds x 8 loads = 256 warp loads of
// one line.
std::string tableSum(const std::string& load) {
  return R"(
.kernel tablesum
.param TABLE
.param OUT
  ld.param.b32 r0, [TABLE]
  mov.b32 r1, 0
  mov.b32 r2, 8
round:
)" + [&] {
    std::string body;
    for (int i = 0; i < 8; ++i)
      body += "  " + load + " r3, [r0+" + std::to_string(4 * i) + "]\n  add.u32 r1, r1, r3\n";
    return body;
  }() + R"(
  sub.u32 r2, r2, 1
  setp.ne.b32 p0, r2, 0
  @p0 bra round
  s2r r4, %tid.x
  shl.b32 r4, r4, 2
  ld.param.b32 r5, [OUT]
  add.u32 r5, r5, r4
  st.global.b32 [r5], r1
  exit
)";
}

std::unique_ptr<Launch> tableSumRun(const isa::Kernel& k) {
  auto r = std::make_unique<Launch>();
  r->cfg.gpu.num_sms = 1;
  r->kernel = &k;
  const uint32_t table = r->memory.allocate("table", 8 * 4);
  const uint32_t out = r->memory.allocate("out", 128 * 4);
  r->memory.setWords("table", {1, 2, 3, 4, 5, 6, 7, 100});
  r->launch.grid = {1, 1, 1};
  r->launch.block = {128, 1, 1};
  r->launch.params = {table, out};
  return r;
}

}  // namespace

TEST(ReadOnlyLoads, NcLoadsAreCachedInTheL1WhilePlainLoadsBypassIt) {
  const isa::Kernel plain = isa::assemble(tableSum("ld.global.b32"), "plain.s");
  const isa::Kernel nc = isa::assemble(tableSum("ld.global.nc.b32"), "nc.s");
  const isa::Kernel cst = isa::assemble(tableSum("ld.const.b32"), "const.s");
  std::vector<std::unique_ptr<Launch>> runs;
  for (const isa::Kernel* k : {&plain, &nc, &cst}) runs.push_back(tableSumRun(*k));
  simulate(runs);
  for (auto& r : runs) {
    EXPECT_FALSE(r->cfg.l1.enabled);  // pascal's default: plain global loads skip the L1
    EXPECT_EQ(r->memory.words("out"), std::vector<uint32_t>(128, 8 * 128));
  }
  // Plain loads: none in either cache.
  EXPECT_EQ(runs[0]->stat("sm0.l1.loads"), 0.0);
  EXPECT_EQ(runs[0]->stat("sm0.const_cache.loads"), 0.0);
  // ld.global.nc: 256 line loads in the L1; the one line is fetched once (every other load hits
  // or merges into that fill), and nothing goes through the constant cache.
  EXPECT_EQ(runs[1]->stat("sm0.l1.loads"), 256.0);
  EXPECT_EQ(runs[1]->stat("sm0.l1.transactions"), 1.0);
  EXPECT_EQ(runs[1]->stat("sm0.l1.hits") + runs[1]->stat("sm0.l1.mshr_merges"), 255.0);
  EXPECT_EQ(runs[1]->stat("sm0.const_cache.loads"), 0.0);
  // ld.const: the same through the constant cache.
  EXPECT_EQ(runs[2]->stat("sm0.const_cache.loads"), 256.0);
  EXPECT_EQ(runs[2]->stat("sm0.const_cache.transactions"), 1.0);
  EXPECT_EQ(runs[2]->stat("sm0.l1.loads"), 0.0);
  // Hits at 82 (L1) and 4 (constant) cycles against an L2 round trip for every plain load.
  EXPECT_LT(runs[1]->cycles(), runs[0]->cycles());
  EXPECT_LT(runs[2]->cycles(), runs[1]->cycles());
}

// One warp caches A's line, stores to it, then loads it again through the same cache: the
// second load must see the store (the store invalidated the SM's copy), as the interpreter does.
TEST(ReadOnlyLoads, TheSmsOwnStoreDropsTheCachedCopy) {
  auto kernel = [](const std::string& load) {
    return R"(
.kernel reread
.param A
.param OUT
  ld.param.b32 r0, [A]
  ld.param.b32 r1, [OUT]
  )" + load + R"( r2, [r0]
  add.u32 r3, r2, 40
  st.global.b32 [r0], r3
  membar
  )" + load + R"( r4, [r0]
  st.global.b32 [r1], r2
  st.global.b32 [r1+4], r4
  exit
)";
  };
  const isa::Kernel nc = isa::assemble(kernel("ld.global.nc.b32"), "nc.s");
  const isa::Kernel cst = isa::assemble(kernel("ld.const.b32"), "const.s");
  std::vector<std::unique_ptr<Launch>> runs;
  for (const isa::Kernel* k : {&nc, &cst}) {
    auto r = std::make_unique<Launch>();
    r->cfg.gpu.num_sms = 1;
    r->kernel = k;
    const uint32_t a = r->memory.allocate("a", 4);
    const uint32_t out = r->memory.allocate("out", 8);
    r->memory.setWords("a", {2});
    r->launch.grid = {1, 1, 1};
    r->launch.block = {32, 1, 1};
    r->launch.params = {a, out};
    runs.push_back(std::move(r));
  }
  simulate(runs);
  for (auto& r : runs) {
    EXPECT_EQ(r->memory.words("out"), (std::vector<uint32_t>{2, 42}));
    EXPECT_EQ(r->memory.words("a"), std::vector<uint32_t>{42});
  }
  EXPECT_EQ(runs[0]->stat("sm0.l1.transactions"), 2.0);  // the line fetched again
  EXPECT_EQ(runs[1]->stat("sm0.const_cache.transactions"), 2.0);
}
