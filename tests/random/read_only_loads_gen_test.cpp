// The generator's read-only loads (isa/ISA.md 8.2): ld.global.nc.b32 and ld.const.b32 occur, at
// uniform, affine and divergent addresses, and read only words no generated kernel stores to or
// performs an atomic on (the L1 and the constant caches are not coherent across SMs). Checked on
// what the interpreter executes, not on the text: every lane's address as the instruction ran.
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "isa/interpreter.h"
#include "tests/random/random_kernel_runner.h"

using namespace simtlm;
using namespace simtlm::test;

namespace {

enum Shape { Uniform, Affine, Divergent };  // of the active lanes' addresses

Shape shapeOf(const isa::WarpStep& s) {
  std::vector<std::pair<int64_t, int64_t>> lanes;  // (lane, address) of the active lanes
  for (int l = 0; l < s.lanes; ++l)
    if (s.execMask >> l & 1u) lanes.emplace_back(l, s.src[0][l * s.srcStride[0]]);
  bool uniform = true, affine = true;
  for (const auto& [l, a] : lanes) {
    uniform = uniform && a == lanes[0].second;
    // The stride of the first two active lanes (exact, or the second lane already fails).
    const int64_t stride = lanes.size() < 2 ? 0 : (lanes[1].second - lanes[0].second) / (lanes[1].first - lanes[0].first);
    affine = affine && a - lanes[0].second == stride * (l - lanes[0].first);
  }
  return uniform ? Uniform : affine ? Affine : Divergent;
}

// Global words read by the read-only loads and written by stores and atomics, per kernel.
struct AccessLog : isa::ExecObserver {
  std::set<uint32_t> readOnly, written;
  std::map<isa::Op, std::array<int, 3>> shapes;  // warp loads by opcode and address shape
  void onWarpStep(const isa::WarpStep& s) override {
    const isa::Op op = s.instr->op;
    const isa::OpInfo& oi = isa::info(op);
    const bool ro = op == isa::Op::LD_GLOBAL_NC || op == isa::Op::LD_CONST;
    const bool writes = oi.cls == isa::OpClass::StoreGlobal || oi.cls == isa::OpClass::AtomicGlobal;
    if ((!ro && !writes) || isa::isLocal(op) || s.execMask == 0) return;
    for (int l = 0; l < s.lanes; ++l)
      if (s.execMask >> l & 1u) (ro ? readOnly : written).insert(s.src[0][l * s.srcStride[0]]);
    if (ro) shapes[op][shapeOf(s)]++;
  }
};

TEST(RandomKernelGenerator, ReadOnlyLoadsOccurAndReadOnlyUnwrittenWords) {
  std::map<isa::Op, std::array<int, 3>> total;
  int kernelsWithBoth = 0;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    const GeneratedKernel g = generateKernel(seed);  // nothing forced: the generator's full range
    const isa::Kernel k = compile(g);
    isa::GlobalMemory mem;
    const isa::LaunchConfig launch = g.setup(mem);
    AccessLog log;
    ASSERT_NO_THROW(isa::Interpreter(k, mem).run(launch, &log)) << g.describe();
    // IN (parameter 0) is the buffer they read, and nothing writes it.
    const uint32_t inBase = launch.params[0], inEnd = inBase + 4 * static_cast<uint32_t>(g.buffers[0].second.size());
    for (uint32_t a : log.readOnly) EXPECT_TRUE(a >= inBase && a < inEnd) << g.describe() << " reads " << a;
    for (uint32_t a : log.written) {
      EXPECT_FALSE(a >= inBase && a < inEnd) << g.describe() << " writes IN at " << a;
      EXPECT_FALSE(log.readOnly.count(a)) << g.describe() << " writes a word it reads read-only: " << a;
    }
    EXPECT_EQ(mem.words("IN"), g.buffers[0].second) << g.describe();  // local stores included
    for (const auto& [op, n] : log.shapes)
      for (int s = 0; s < 3; ++s) total[op][s] += n[s];
    kernelsWithBoth += log.shapes.count(isa::Op::LD_GLOBAL_NC) && log.shapes.count(isa::Op::LD_CONST);
  }
  for (isa::Op op : {isa::Op::LD_GLOBAL_NC, isa::Op::LD_CONST})
    for (int s = 0; s < 3; ++s)
      EXPECT_GT(total[op][s], 0) << isa::info(op).name << " never at a " << (s == 0 ? "uniform" : s == 1 ? "affine" : "divergent")
                                 << " address over 100 seeds";
  EXPECT_GE(kernelsWithBoth, 20);  // a sensible share of kernels, not one in a hundred
}

}  // namespace
