// An SM at rest (SmCore::restsIn: asleep, and nothing woke it) is not ticked: the grid engine
// skips it, and the SM counts the skipped cycles (cycles, active cycles, each scheduler's stall
// and CPI category) in bulk when it wakes or is settled (GridEngine::settle). Its statistics
// must be those of an SM ticked every cycle, read at any cycle after a settle and at the end,
// however the engine is driven: tick() on one thread or several, or the unit steps of the
// systemc scheduling. An observer makes every cycle count one by one (it sees each stall): the
// reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/cfg.h"
#include "model/sm/grid_engine.h"
#include "model/sm/grid_runner.h"

using namespace simtlm;

namespace {

struct NoObserver : sm::SmObserver {
  void kernelStarted(int, uint64_t) override {}
  void warpAdmitted(int, int, uint64_t) override {}
  void issued(int, int, uint32_t, uint64_t) override {}
  void stalled(int, int, sm::StallReason, uint64_t) override {}
  void barrierArrived(int, int, uint64_t) override {}
  void barrierReleased(int, int, uint64_t) override {}
  void warpExited(int, int, uint64_t) override {}
  void warpRetired(int, int, uint64_t) override {}
  void mechanismEvent(int, int, sm::MechanismEvent, const char*, uint64_t) override {}
};

// Each thread loads its word, waits the memory latency for it, then runs a chain of dependent
// SFU instructions (each a wait of the SFU latency) and stores the result.
const char* kSource =
    ".kernel rest\n.regs 8\n.param OUT\n"
    "  s2r r0, %tid.x\n  s2r r3, %ctaid.x\n  shl.b32 r3, r3, 5\n  add.u32 r0, r0, r3\n"
    "  shl.b32 r0, r0, 2\n  ld.param.b32 r2, [OUT]\n  add.u32 r2, r2, r0\n"
    "  ld.global.b32 r1, [r2]\n"
    "  rcp.f32 r1, r1\n  rcp.f32 r1, r1\n  rcp.f32 r1, r1\n  rcp.f32 r1, r1\n"
    "  st.global.b32 [r2], r1\n  exit\n";

enum class Drive { Tick, Units };

struct Options {
  int sms = 1, blocks = 1, threads = 1;
  Drive drive = Drive::Tick;
  bool observe = false;      // the reference: every cycle counted as it runs
  bool settleEachCycle = true;
  int blockThreads = 32;
  int outstanding = 64;  // accesses the LD/ST unit's port holds before it refuses
  bool untrackedPort = false;  // the port does not count what frees it (acceptVersion)
};

// A port without GlobalMemoryPort::acceptVersion: the SM looks at it every cycle it waits.
struct UntrackedPort : sm::IdealGlobalMemory {
  using sm::IdealGlobalMemory::IdealGlobalMemory;
  const uint64_t* acceptVersion() const override { return nullptr; }
};

using Snapshot = std::map<std::string, uint64_t>;

struct RestRun {
  std::vector<Snapshot> perCycle;  // the SMs' counters after each cycle (settled first)
  Snapshot end;
  uint64_t cycles = 0;
  // sm0.cycles as read without a settle, after each cycle
  std::vector<uint64_t> unsettledSm0Cycles;
};

Snapshot smCounters(const stats::Registry& reg) {
  Snapshot s;
  for (const auto& e : reg.entries())
    if (e.counter && e.name.rfind("sm", 0) == 0) s[e.name] = *e.counter;
  return s;
}

RestRun run(const Options& o) {
  config::GpuConfig c;  // Pascal defaults: 4 schedulers
  c.gpu.num_sms = o.sms;
  isa::Kernel k = isa::assemble(kSource, "rest.s");
  isa::GlobalMemory mem;
  isa::LaunchConfig l;
  l.block = {static_cast<uint32_t>(o.blockThreads), 1, 1};
  l.grid = {static_cast<uint32_t>(o.blocks), 1, 1};
  l.params = {mem.allocate("out", 4 * static_cast<uint32_t>(o.blockThreads * o.blocks))};
  stats::Registry reg;
  std::vector<std::unique_ptr<sm::IdealGlobalMemory>> ports;
  std::vector<std::unique_ptr<sm::IdealCodeMemory>> codes;
  std::vector<sm::GlobalMemoryPort*> rawPorts;
  std::vector<mem::Downstream*> rawCodes;
  for (int i = 0; i < o.sms; ++i) {
    if (o.untrackedPort) ports.push_back(std::make_unique<UntrackedPort>(mem, 300, o.outstanding));
    else ports.push_back(std::make_unique<sm::IdealGlobalMemory>(mem, 300, o.outstanding));
    rawPorts.push_back(ports.back().get());
    codes.push_back(std::make_unique<sm::IdealCodeMemory>(k.code, 0, 20));
    rawCodes.push_back(codes.back().get());
  }
  sm::GridEngine engine(c, rawPorts, rawCodes, reg);
  NoObserver observer;
  if (o.observe) engine.observe(&observer);
  if (o.threads > 1) {
    engine.alternateSmOrder(true);
    engine.runSmsOn(o.threads);
  }
  sm::KernelImage image;
  image.kernel = &k;
  image.launch = l;
  image.reconvergence = isa::Cfg(k).reconvergenceTable();
  RestRun r;
  EXPECT_EQ(engine.start(image), "");
  const uint64_t* sm0Cycles = nullptr;
  for (const auto& e : reg.entries())
    if (e.name == "sm0.cycles") sm0Cycles = e.counter;
  sm::GridEngine::State st = sm::GridEngine::State::Running;
  while (st == sm::GridEngine::State::Running) {
    for (auto& code : codes) code->tick(engine.now());
    if (o.drive == Drive::Tick) {
      st = engine.tick();
    } else {
      EXPECT_TRUE(engine.beginCycle());
      for (int u = 0; u < sm::GridEngine::kUnits; ++u)
        for (int i = 0; i < o.sms; ++i) engine.step(static_cast<size_t>(i), static_cast<sm::GridEngine::Unit>(u));
      st = engine.endCycle();
    }
    r.unsettledSm0Cycles.push_back(*sm0Cycles);
    if (!o.settleEachCycle) continue;
    engine.settle();
    r.perCycle.push_back(smCounters(reg));
  }
  EXPECT_EQ(st, sm::GridEngine::State::Done) << engine.error();
  r.cycles = engine.cycles();
  r.end = smCounters(reg);
  return r;
}

// Every SM counter of `got`, settled after each cycle and at the end, equals the reference's.
void expectSameEveryCycle(const RestRun& got, const RestRun& ref) {
  ASSERT_EQ(got.perCycle.size(), ref.perCycle.size());
  for (size_t c = 0; c < ref.perCycle.size(); ++c) ASSERT_EQ(got.perCycle[c], ref.perCycle[c]) << "cycle " << c;
  EXPECT_EQ(got.end, ref.end);
}

// The cycles sm0 was not ticked (its unsettled sm0.cycles did not move).
uint64_t restedCycles(const RestRun& r) {
  uint64_t n = 0, before = 0;
  for (uint64_t c : r.unsettledSm0Cycles) {
    n += c == before;
    before = c;
  }
  return n;
}

// The longest stretch the SM's unsettled sm0.cycles fell behind the engine's cycles.
uint64_t longestLag(const RestRun& r) {
  uint64_t lag = 0;
  for (size_t c = 0; c < r.unsettledSm0Cycles.size(); ++c) lag = std::max(lag, c + 1 - r.unsettledSm0Cycles[c]);
  return lag;
}

}  // namespace

// One warp on one SM: an I-cache fill, 300 cycles waiting for its load, four SFU latencies,
// 300 cycles for its store before the block retires. Settled after every cycle, every counter
// equals the reference's at every cycle.
TEST(SmRest, SettledCountersEqualEveryCycleTicked) {
  const RestRun ref = run({1, 1, 1, Drive::Tick, true});
  const RestRun bulk = run({1, 1, 1, Drive::Tick, false});
  ASSERT_EQ(bulk.cycles, ref.cycles);
  expectSameEveryCycle(bulk, ref);
  // The values: every cycle clocked, active from the admission on; the warp's scheduler waits
  // for the load (dep_global) and the SFU chain (dep_sfu), the three others are idle.
  EXPECT_EQ(bulk.cycles, 717u);
  EXPECT_EQ(bulk.end.at("sm0.cycles"), 717u);
  EXPECT_EQ(bulk.end.at("sm0.active_cycles"), 716u);
  EXPECT_EQ(bulk.end.at("sm0.issue.stall.idle"), 2450u);
  EXPECT_EQ(bulk.end.at("sm0.issue.stall.dependence"), 374u);
  EXPECT_EQ(bulk.end.at("sm0.cpi.dep_global"), 300u);
  EXPECT_EQ(bulk.end.at("sm0.cpi.dep_sfu"), 50u);
  EXPECT_EQ(bulk.end.at("sm0.cpi.idle"), 2454u);
  EXPECT_EQ(longestLag(ref), 0u);  // an observer: counted cycle by cycle
}

// Read only at the end (the engine settles when the grid ends): the same statistics. Unsettled,
// the counters lag while the SM rests (299 cycles at most: a wait for memory).
TEST(SmRest, GridEndSettles) {
  const RestRun ref = run({1, 1, 1, Drive::Tick, true, false});
  const RestRun bulk = run({1, 1, 1, Drive::Tick, false, false});
  EXPECT_EQ(bulk.cycles, ref.cycles);
  EXPECT_EQ(bulk.end, ref.end);
  EXPECT_EQ(longestLag(ref), 0u);
  EXPECT_EQ(longestLag(bulk), 299u);
}

// Several SMs on three host threads, and the unit steps of the systemc scheduling: the same
// statistics at every cycle as one thread ticking every SM every cycle.
TEST(SmRest, ThreadsAndUnitStepsCountTheSame) {
  const RestRun ref = run({4, 7, 1, Drive::Tick, true});
  const RestRun threads = run({4, 7, 3, Drive::Tick, false});
  const RestRun units = run({4, 7, 1, Drive::Units, false});
  const RestRun unitsRef = run({4, 7, 1, Drive::Units, true});
  ASSERT_EQ(threads.perCycle.size(), ref.perCycle.size());
  ASSERT_EQ(units.perCycle.size(), unitsRef.perCycle.size());
  for (size_t c = 0; c < ref.perCycle.size(); ++c) ASSERT_EQ(threads.perCycle[c], ref.perCycle[c]) << "cycle " << c;
  for (size_t c = 0; c < unitsRef.perCycle.size(); ++c)
    ASSERT_EQ(units.perCycle[c], unitsRef.perCycle[c]) << "cycle " << c;
  EXPECT_EQ(threads.end, ref.end);
  EXPECT_EQ(units.end, unitsRef.end);
  EXPECT_EQ(ref.end.at("sm0.cycles"), ref.cycles);
  EXPECT_EQ(ref.cycles, 718u);
}

// Eight warps, and a port that holds one access: seven loads wait in operand collectors while
// the port refuses them (and the warps behind them wait at issue), each for one memory latency.
// The SM rests through those waits too (the port's acceptVersion() wakes it when an access is
// answered), and counts what each cycle would have: the refused dispatches, the full cycles,
// the memory stalls.
TEST(SmRest, WaitsForTheMemoryPortCountTheSame) {
  Options o;
  o.blockThreads = 256;
  o.outstanding = 1;
  o.observe = true;
  const RestRun ref = run(o);
  o.observe = false;
  const RestRun bulk = run(o);
  expectSameEveryCycle(bulk, ref);
  EXPECT_EQ(bulk.cycles, 4866u);
  EXPECT_EQ(bulk.end.at("sm0.regfile.collector.dispatch_stalls"), 11112u);
  EXPECT_EQ(bulk.end.at("sm0.regfile.collector.full_cycles"), 0u);
  EXPECT_EQ(bulk.end.at("sm0.issue.stall.memory"), 6319u);
  // Unsettled: the SM rests through the waits for the port, which it did not without the
  // port's count (it rested only once no load was left in a collector).
  o.settleEachCycle = false;
  const RestRun tracked = run(o);
  o.untrackedPort = true;
  const RestRun untracked = run(o);
  EXPECT_EQ(untracked.end, ref.end);
  EXPECT_EQ(restedCycles(tracked), 4705u);
  EXPECT_EQ(restedCycles(untracked), 319u);
}

// The same port-bound waits in the unit steps of the systemc scheduling and on two host threads
// (three SMs): every counter at every cycle as the observed one-thread run's.
TEST(SmRest, WaitsForTheMemoryPortInUnitStepsAndThreads) {
  Options o;
  o.sms = 3;
  o.blocks = 3;
  o.blockThreads = 256;
  o.outstanding = 1;
  o.observe = true;
  const RestRun ref = run(o);
  o.drive = Drive::Units;
  const RestRun unitsRef = run(o);
  o.observe = false;
  const RestRun units = run(o);
  o.drive = Drive::Tick;
  o.threads = 2;
  const RestRun threads = run(o);
  expectSameEveryCycle(units, unitsRef);
  expectSameEveryCycle(threads, ref);
  EXPECT_EQ(ref.cycles, 4866u);  // (one block per SM: each as the one SM above)
}
