// Every SM's units are modules of their own under gpu.sm<N>, named by role. With the systemc
// scheduling each has an SC_METHOD that runs its step once per cycle; with the sequential one
// (the default) none has a process: the GPU's clock calls the steps in one loop. That both give
// the same cycles and statistics is checked per scenario and mechanism by the contract tests
// (tests/check_contract.cmake). Each test is its own process.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/interpreter.h"
#include "model/gpu/platform.h"
#include "tests/model_gpu/gpu_rig.h"
#include "workloads/workload.h"

using namespace sc_core;
using namespace simtlm;

namespace {

const std::vector<std::string> kUnits = {"icache", "ldst", "answers", "writeback",
                                         "execute", "operands", "issue", "fetch"};

config::GpuConfig twoSms(config::SmScheduling scheduling) {
  config::GpuConfig cfg;
  cfg.gpu.num_sms = 2;
  cfg.sm.scheduling = scheduling;
  return cfg;
}

// The unit modules of SM 0 and 1 of a 2-SM platform, and their processes.
void checkUnits(config::SmScheduling scheduling, bool processes) {
  const config::GpuConfig cfg = twoSms(scheduling);
  stats::Registry stats;
  gpu::Platform top("top", cfg, stats, [](gpu::HostJob&) { return false; });
  sc_start(SC_ZERO_TIME);
  std::vector<sc_object*> all;
  test::collectObjects(sc_get_top_level_objects(), all);
  for (int i = 0; i < 2; ++i) {
    const std::string sm = "top.gpu.sm" + std::to_string(i);
    sc_object* parent = test::findObject(all, sm);
    ASSERT_NE(parent, nullptr) << sm;
    ASSERT_EQ(top.gpu.sm(i).units().size(), kUnits.size());
    for (size_t u = 0; u < kUnits.size(); ++u) {
      const std::string name = sm + "." + kUnits[u];
      sc_object* unit = test::findObject(all, name);
      ASSERT_NE(unit, nullptr) << name;
      EXPECT_NE(dynamic_cast<sc_module*>(unit), nullptr) << name;
      EXPECT_EQ(unit->get_parent_object(), parent) << name;
      EXPECT_EQ(top.gpu.sm(i).units()[u].get(), unit) << "units() in pipeline order";
      sc_object* process = test::findObject(all, name + ".run");
      if (processes) {
        ASSERT_NE(process, nullptr) << name + ".run";
        EXPECT_STREQ(process->kind(), "sc_method_process") << name;
      } else {
        EXPECT_EQ(process, nullptr) << name << ": a process under the sequential scheduling";
      }
    }
    // The channels between units: sc_fifos of the SM under systemc, the engine's pipeline
    // registers (not SystemC objects) otherwise.
    for (const char* channel : {"ldst_answers", "execute_results", "answer_results"}) {
      sc_object* fifo = test::findObject(all, sm + "." + channel);
      if (processes) {
        ASSERT_NE(fifo, nullptr) << sm << "." << channel;
        EXPECT_STREQ(fifo->kind(), "sc_fifo") << channel;
        EXPECT_EQ(fifo->get_parent_object(), parent) << channel;
      } else {
        EXPECT_EQ(fifo, nullptr) << sm << "." << channel;
      }
    }
    EXPECT_EQ(top.gpu.sm(i).answers(), processes ? test::findObject(all, sm + ".ldst_answers") : nullptr);
    EXPECT_EQ(dynamic_cast<sc_object*>(top.gpu.sm(i).executeResults().in),
              processes ? test::findObject(all, sm + ".execute_results") : nullptr);
  }
}

// vecadd (n threads in blocks of `block`) on a platform of `cfg`, its host giving that one kernel,
// with the interpreter's memory beside it; run() simulates to the end and checks the memory.
struct VecAdd {
  VecAdd(const config::GpuConfig& cfg, int n, int block)
      : w(workloads::makeWorkload("vecadd", {{"n", n}, {"block", block}})), k(workloads::loadKernel(*w)),
        launch(w->setup(golden)), top("top", cfg, stats, [this](gpu::HostJob& job) {
          if (given) return false;
          given = true;
          job = gpu::HostJob{&k, launch, &timed};
          return true;
        }) {
    w->setup(timed);
    isa::Interpreter(k, golden).run(launch);
    top.host.onFinished = [] { sc_stop(); };
  }
  void run() {
    sc_start();
    ASSERT_TRUE(top.host.result().done) << top.host.result().error;
    ASSERT_EQ(top.host.result().errorCode, 0u) << top.gpu.lastError();
    EXPECT_EQ(w->verify(timed), "");
    EXPECT_TRUE(golden == timed) << "memory differs from the interpreter";
  }
  uint64_t stat(const std::string& name) const {
    for (const auto& e : stats.entries())
      if (e.name == name) return *e.counter;
    ADD_FAILURE() << "no statistic " << name;
    return 0;
  }
  std::unique_ptr<workloads::Workload> w;
  isa::Kernel k;
  isa::GlobalMemory golden, timed;
  isa::LaunchConfig launch;
  bool given = false;
  stats::Registry stats;
  gpu::Platform top;
};

// Counts the delta cycles in which a unit wrote to one of SM 0's sc_fifos.
struct FifoWatch : sc_module {
  SC_HAS_PROCESS(FifoWatch);
  FifoWatch(sc_module_name n, const sc_event& written) : sc_module(n) {
    SC_METHOD(seen);
    sensitive << written;
    dont_initialize();
  }
  void seen() { deltas++; }
  int deltas = 0;
};

}  // namespace

TEST(GpuSmUnits, SequentialSchedulingHasUnitModulesWithoutProcesses) {
  checkUnits(config::SmScheduling::Sequential, false);
}

TEST(GpuSmUnits, SystemcSchedulingGivesEveryUnitItsOwnProcess) {
  checkUnits(config::SmScheduling::Systemc, true);
}

// A whole kernel under the systemc scheduling: the units' processes run it to the interpreter's
// memory, and SM 0's global answers and results travel its sc_fifos.
TEST(GpuSmUnits, SystemcSchedulingRunsAKernelThroughTheUnitsProcesses) {
  const config::GpuConfig cfg = twoSms(config::SmScheduling::Systemc);
  VecAdd v(cfg, 2000, 128);
  FifoWatch watch("watch", v.top.gpu.sm(0).answers()->data_written_event());
  auto* results = dynamic_cast<sc_fifo<sm::PendingResult>*>(v.top.gpu.sm(0).executeResults().in);
  ASSERT_NE(results, nullptr);
  FifoWatch resultWatch("result_watch", results->data_written_event());
  v.run();
  // Every warp of vecadd makes 2 loads and a store; each is answered through the fifo, several
  // in the same delta cycle at most.
  const uint64_t accesses = v.stat("sm0.ldst.global_accesses");
  EXPECT_GE(accesses, 3u * 4u) << "SM 0 ran at least one block of 4 warps";
  EXPECT_EQ(accesses % 3, 0u);
  EXPECT_GT(watch.deltas, 3);
  EXPECT_LE(watch.deltas, static_cast<int>(accesses));
  // Every ALU instruction and parameter load sends its result through execute_results.
  EXPECT_GT(resultWatch.deltas, watch.deltas);
}

namespace {

// A user's LD/ST unit: the default coalescer and L1 behind a wrapper that counts what passes.
struct CountingLdSt : sm::GlobalMemoryPort {
  CountingLdSt(mem::Downstream& memory, const config::GpuConfig& cfg, stats::Registry& stats, int sm)
      : inner(memory, cfg, kMaxResponses, stats, "sm" + std::to_string(sm)) {}
  void bind(sc_fifo_out_if<sm::GlobalResponse>& responses) override { inner.bind(responses); }
  bool canAccept() const override { return inner.canAccept(); }
  void issue(const sm::GlobalRequest& r) override {
    issued++;
    lanes += static_cast<uint64_t>(__builtin_popcount(r.access.mask));
    inner.issue(r);
  }
  void tick(uint64_t cycle) override { inner.tick(cycle); }
  bool idle() const override { return inner.idle(); }
  void startKernel(uint64_t cycle) override {
    kernels++;
    inner.startKernel(cycle);
  }
  gpu::GlobalMemoryAdapter inner;
  uint64_t issued = 0, lanes = 0;
  int kernels = 0;
};

}  // namespace

// Gpu::setLdStFactory puts a unit of the user's own behind every SM's execute unit; the kernel
// runs through it to the interpreter's memory.
TEST(GpuSmUnits, UsersLdStUnitReplacesTheDefault) {
  config::GpuConfig cfg;
  cfg.gpu.num_sms = 2;
  VecAdd v(cfg, 1000, 64);
  std::vector<CountingLdSt*> units;
  v.top.gpu.setLdStFactory([&](int sm, mem::Downstream& memory, stats::Registry& reg) {
    auto u = std::make_unique<CountingLdSt>(memory, cfg, reg, sm);
    units.push_back(u.get());
    return u;
  });
  ASSERT_EQ(units.size(), 2u);
  v.run();
  // vecadd: 2 loads and a store per warp of 32 lanes; 1000 threads = 31 full warps and one of 8.
  EXPECT_EQ(units[0]->issued + units[1]->issued, 3u * 32u);
  EXPECT_EQ(units[0]->lanes + units[1]->lanes, 3u * 1000u);
  EXPECT_EQ(units[0]->kernels, 1);
  EXPECT_EQ(units[1]->kernels, 1);
}

namespace {

// A user's issue policy: always the ready warp of lowest index, counting what it issues.
struct LowestIndexFirst : sm::WarpScheduler {
  explicit LowestIndexFirst(int n) : order(static_cast<size_t>(n)), position(static_cast<size_t>(n)) {
    for (int i = 0; i < n; ++i) order[static_cast<size_t>(i)] = position[static_cast<size_t>(i)] = i;
  }
  int pick(const std::vector<bool>& ready) override {
    for (size_t i = 0; i < ready.size(); ++i)
      if (ready[i]) return static_cast<int>(i);
    return -1;
  }
  Priority priority() const override { return {-1, order.data(), static_cast<int>(order.size()), position.data()}; }
  void issued(int) override { count++; }
  void setAge(int, uint64_t) override {}
  std::vector<int> order, position;
  uint64_t count = 0;
};

}  // namespace

// Gpu::setSchedulerFactory puts a policy of the user's own in every scheduler of every SM; the
// kernel issues through it to the interpreter's memory.
TEST(GpuSmUnits, UsersWarpSchedulerReplacesThePolicy) {
  config::GpuConfig cfg;
  cfg.gpu.num_sms = 2;
  VecAdd v(cfg, 1000, 64);
  std::vector<LowestIndexFirst*> policies;
  std::vector<std::string> built;
  v.top.gpu.setSchedulerFactory([&](int sm, int scheduler, int warps) {
    built.push_back(std::to_string(sm) + "." + std::to_string(scheduler) + ":" + std::to_string(warps));
    auto p = std::make_unique<LowestIndexFirst>(warps);
    policies.push_back(p.get());
    return p;
  });
  const std::vector<std::string> expected = {"0.0:16", "0.1:16", "0.2:16", "0.3:16",
                                             "1.0:16", "1.1:16", "1.2:16", "1.3:16"};
  EXPECT_EQ(built, expected) << "64 warps per SM over 4 schedulers";
  v.run();
  // Each pick of the user's policy issues one instruction, and with dual issue maybe a second
  // of the same warp (issue.dual_issued).
  const uint64_t issued = v.stat("sm0.issue.warp_instructions") + v.stat("sm1.issue.warp_instructions");
  const uint64_t seconds = v.stat("sm0.issue.dual_issued") + v.stat("sm1.issue.dual_issued");
  uint64_t counted = 0;
  for (const LowestIndexFirst* p : policies) counted += p->count;
  EXPECT_GT(issued, 0u);
  EXPECT_GT(seconds, 0u);
  EXPECT_EQ(counted, issued - seconds) << "every pick made by the user's policy";
}

namespace {

uint64_t counter(const stats::Registry& stats, const std::string& name) {
  for (const auto& e : stats.entries())
    if (e.counter && e.name == name) return *e.counter;
  ADD_FAILURE() << "no counter " << name;
  return 0;
}

// A host with temporal decoupling that soft-resets the GPU and launches again without yielding
// when `trigger` fires: in the middle of a systemc cycle.
struct RelaunchMidCycle : sc_module {
  SC_HAS_PROCESS(RelaunchMidCycle);
  // Puts `kernel`'s code in the rig's memory, to be launched when `trigger` fires.
  RelaunchMidCycle(sc_module_name n, test::Rig& rig, const stats::Registry& stats, const isa::Kernel& kernel,
                   const sc_event& trigger)
      : sc_module(n), rig(rig), stats(stats), instrs(static_cast<uint32_t>(kernel.size())) {
    rig.target.put(entry, kernel.code.data(), kernel.code.size() * 8);
    SC_METHOD(relaunch);
    sensitive << trigger;
    dont_initialize();
  }
  void poke(model::Reg r, uint32_t v) {
    tlm::tlm_generic_payload p;
    sc_time delay = SC_ZERO_TIME;  // kept by the host's quantum, not waited for
    p.set_command(tlm::TLM_WRITE_COMMAND);
    p.set_address(static_cast<uint32_t>(r));
    p.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
    p.set_data_length(4);
    p.set_streaming_width(4);
    rig.host.control->b_transport(p, delay);
    EXPECT_EQ(p.get_response_status(), tlm::TLM_OK_RESPONSE);
  }
  void relaunch() {
    if (relaunched) return;
    relaunched = true;
    poke(model::Reg::Reset, 1);
    poke(model::Reg::Entry, entry);
    poke(model::Reg::NumInstrs, instrs);
    poke(model::Reg::IrqEnable, 1);
    poke(model::Reg::Launch, 1);  // the code is read by debug transport: the kernel starts now
    sm0CyclesAtLaunch = counter(stats, "sm0.cycles");
  }
  test::Rig& rig;
  const stats::Registry& stats;
  const uint32_t entry = 0x02000000, instrs;
  bool relaunched = false;
  uint64_t sm0CyclesAtLaunch = 0;
};

const isa::Kernel& fillKernel() {  // out[i] = i for every thread i of the grid
  static const isa::Kernel k = isa::assemble(R"(
.kernel fill
.param OUT
  s2r r0, %ctaid.x
  s2r r1, %ntid.x
  s2r r2, %tid.x
  mad.lo.u32 r0, r0, r1, r2
  shl.b32 r3, r0, 2
  ld.param.b32 r4, [OUT]
  add.u32 r4, r4, r3
  st.global.b32 [r4], r0
  exit
)", "fill.s");
  return k;
}

const isa::Kernel& tinyKernel() {  // one block of one thread after a soft reset (its defaults)
  static const isa::Kernel k = isa::assemble(R"(
.kernel tiny
  add.u32 r0, r0, 1
  exit
)", "tiny.s");
  return k;
}

// Launches 64 blocks of fill; waits for the kernel launched after them to complete.
void launchFill(test::ScriptHost& h, const isa::Kernel& fill, test::Rig& rig) {
  isa::GlobalMemory mem;
  isa::LaunchConfig l;
  l.grid = {64, 1, 1};
  l.block = {256, 1, 1};
  l.params = {mem.allocate("out", 64 * 256 * 4)};
  h.launch(fill, l, mem);
  EXPECT_EQ(h.wait_done(), 0u) << rig.gpu.lastError();
}

}  // namespace

// The rest of the aborted cycle's delta chain counts no cycle of the kernel launched within it:
// that kernel's one block sits on SM 0, which is clocked in every one of the kernel's cycles.
TEST(GpuSmUnits, ALaunchInTheMiddleOfASystemcCycleStartsOnTheNextClock) {
  const config::GpuConfig cfg = twoSms(config::SmScheduling::Systemc);
  const isa::Kernel& fill = fillKernel();
  stats::Registry stats;
  test::Rig rig("rig", cfg, stats);
  // In the delta cycle where SM 0's answers unit runs.
  RelaunchMidCycle relaunch("relaunch", rig, stats, tinyKernel(), rig.gpu.sm(0).answers()->data_written_event());
  rig.host.script = [&](test::ScriptHost& h) { launchFill(h, fill, rig); };
  sc_start();
  ASSERT_TRUE(relaunch.relaunched);
  EXPECT_GT(rig.gpu.lastCycles(), 0u);
  EXPECT_EQ(rig.gpu.lastCycles(), counter(stats, "sm0.cycles") - relaunch.sm0CyclesAtLaunch);
}

namespace {

// The default LD/ST unit, telling when it has written responses (an immediate notification: a
// process sensitive to `wrote` runs in the LD/ST unit's own delta cycle).
struct NotifyingLdSt : sm::GlobalMemoryPort {
  NotifyingLdSt(mem::Downstream& memory, const config::GpuConfig& cfg, stats::Registry& stats, int sm, sc_event* wrote)
      : inner(memory, cfg, kMaxResponses, stats, "sm" + std::to_string(sm)), wrote(wrote) {}
  void bind(sc_fifo_out_if<sm::GlobalResponse>& r) override {
    responses = &r;
    inner.bind(r);
  }
  bool canAccept() const override { return inner.canAccept(); }
  void issue(const sm::GlobalRequest& r) override { inner.issue(r); }
  void tick(uint64_t cycle) override {
    const int free = responses->num_free();
    inner.tick(cycle);
    if (wrote && responses->num_free() < free) wrote->notify();
  }
  bool idle() const override { return inner.idle(); }
  void startKernel(uint64_t cycle) override { inner.startKernel(cycle); }
  gpu::GlobalMemoryAdapter inner;
  sc_event* wrote;
  sc_fifo_out_if<sm::GlobalResponse>* responses = nullptr;
};

}  // namespace

// A soft reset in the delta cycle where the LD/ST units write their responses: those become
// readable only in the next delta, after release() drained the channel, and must not reach the
// SM rebuilt for the next kernel (which knows no such access).
TEST(GpuSmUnits, AResetAsTheLdStUnitAnswersLeavesNoAnswerForTheNextKernel) {
  const config::GpuConfig cfg = twoSms(config::SmScheduling::Systemc);
  stats::Registry stats;
  test::Rig rig("rig", cfg, stats);
  sc_event wrote("sm0_ldst_wrote");
  rig.gpu.setLdStFactory([&](int sm, mem::Downstream& memory, stats::Registry& reg) {
    return std::make_unique<NotifyingLdSt>(memory, rig.cfg, reg, sm, sm == 0 ? &wrote : nullptr);
  });
  RelaunchMidCycle relaunch("relaunch", rig, stats, tinyKernel(), wrote);
  rig.host.script = [&](test::ScriptHost& h) { launchFill(h, fillKernel(), rig); };
  sc_start();
  ASSERT_TRUE(relaunch.relaunched);
  EXPECT_EQ(rig.gpu.lastError(), "");
  EXPECT_EQ(rig.gpu.lastCycles(), counter(stats, "sm0.cycles") - relaunch.sm0CyclesAtLaunch);
}

namespace {

// The default LD/ST unit, noting the room in its response channel at each tick: the answers
// unit reads every response in the cycle it is written, so, as with sc_fifo, the room is whole
// again by the next tick.
struct RoomWatchingLdSt : sm::GlobalMemoryPort {
  RoomWatchingLdSt(mem::Downstream& memory, const config::GpuConfig& cfg, stats::Registry& stats, int sm)
      : inner(memory, cfg, kMaxResponses, stats, "sm" + std::to_string(sm)) {}
  void bind(sc_fifo_out_if<sm::GlobalResponse>& r) override {
    responses = &r;
    inner.bind(r);
  }
  bool canAccept() const override { return inner.canAccept(); }
  void issue(const sm::GlobalRequest& r) override { inner.issue(r); }
  void tick(uint64_t cycle) override {
    least = std::min(least, responses->num_free());
    const int before = responses->num_free();
    inner.tick(cycle);
    written += before - responses->num_free();
  }
  bool idle() const override { return inner.idle(); }
  void startKernel(uint64_t cycle) override { inner.startKernel(cycle); }
  gpu::GlobalMemoryAdapter inner;
  sc_fifo_out_if<sm::GlobalResponse>* responses = nullptr;
  int least = kMaxResponses, written = 0;
};

void expectWholeRoomAtEveryTick(config::SmScheduling scheduling) {
  const config::GpuConfig cfg = twoSms(scheduling);
  auto w = workloads::makeWorkload("vecadd", {{"n", 1000}, {"block", 64}});
  auto k = workloads::loadKernel(*w);
  isa::GlobalMemory timed;
  const auto launch = w->setup(timed);
  bool given = false;
  stats::Registry stats;
  gpu::Platform top("top", cfg, stats, [&](gpu::HostJob& job) {
    if (given) return false;
    given = true;
    job = gpu::HostJob{&k, launch, &timed};
    return true;
  });
  std::vector<RoomWatchingLdSt*> units;
  top.gpu.setLdStFactory([&](int sm, mem::Downstream& memory, stats::Registry& reg) {
    auto u = std::make_unique<RoomWatchingLdSt>(memory, cfg, reg, sm);
    units.push_back(u.get());
    return u;
  });
  top.host.onFinished = [] { sc_stop(); };
  sc_start();
  ASSERT_EQ(top.host.result().errorCode, 0u) << top.gpu.lastError();
  ASSERT_EQ(units.size(), 2u);
  EXPECT_EQ(units[0]->written + units[1]->written, 3 * 32) << "a response per access of vecadd";
  for (const RoomWatchingLdSt* u : units) EXPECT_EQ(u->least, sm::GlobalMemoryPort::kMaxResponses);
}

}  // namespace

// The channel ldst -> answers behaves as an sc_fifo under both schedulings: responses read by
// the answers unit free their room before the LD/ST unit's next tick.
TEST(GpuSmUnits, SequentialLdStAnswersHaveTheirWholeRoomAtEveryTick) {
  expectWholeRoomAtEveryTick(config::SmScheduling::Sequential);
}

TEST(GpuSmUnits, SystemcLdStAnswersHaveTheirWholeRoomAtEveryTick) {
  expectWholeRoomAtEveryTick(config::SmScheduling::Systemc);
}
