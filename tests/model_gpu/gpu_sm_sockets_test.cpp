// Every SM is a module of its own (gpu.sm<N>) with its own memory initiator socket
// (gpu.sm<N>.to_memory). Unbound, the GPU binds it to its SM-side interconnect (gpu.sm_bus), which
// forwards through the GPU's own socket; a platform that binds it to a model of its own gets that
// SM's traffic there, and only that SM's. Each test is its own process.
#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <set>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "model/gpu/gpu.h"
#include "model/gpu/host_driver.h"
#include "model/gpu/platform.h"
#include "model/mem/atomic_extension.h"
#include "model/mem/dram_target.h"
#include "model/mem/interconnect.h"
#include "tests/model_gpu/gpu_rig.h"

using namespace sc_core;
using namespace simtlm;

namespace {

TEST(GpuSmSockets, EachSmIsAModuleWithItsOwnMemorySocket) {
  config::GpuConfig cfg;
  cfg.gpu.num_sms = 3;
  stats::Registry stats;
  gpu::Platform top("top", cfg, stats, [](gpu::HostJob&) { return false; });
  sc_start(SC_ZERO_TIME);  // elaborated: the unbound SM sockets took their default binding
  std::vector<sc_object*> all;
  test::collectObjects(sc_get_top_level_objects(), all);
  for (int i = 0; i < 3; ++i) {
    const std::string sm = "top.gpu.sm" + std::to_string(i);
    sc_object* module = test::findObject(all, sm);
    ASSERT_NE(module, nullptr) << sm;
    EXPECT_NE(dynamic_cast<sc_module*>(module), nullptr) << sm;
    sc_object* socket = test::findObject(all, sm + ".to_memory");
    ASSERT_NE(socket, nullptr) << sm + ".to_memory";
    EXPECT_EQ(socket->get_parent_object(), module);
    auto* initiator = dynamic_cast<tlm::tlm_base_initiator_socket<>*>(socket);
    ASSERT_NE(initiator, nullptr) << socket->kind();
    EXPECT_EQ(initiator->get_base_port().size(), 1) << "bound to the GPU's SM-side interconnect";
    EXPECT_EQ(&top.gpu.sm(i).to_memory, initiator);
  }
  EXPECT_EQ(test::findObject(all, "top.gpu.sm3"), nullptr);
  EXPECT_NE(dynamic_cast<sc_module*>(test::findObject(all, "top.gpu.sm_bus")), nullptr);
  EXPECT_EQ(top.gpu.numSms(), 3);
}

// A user's model behind one SM: it counts the SM's transactions and forwards them (b_transport)
// to the platform's memory. Its target socket converts the SM's AT traffic to b_transport.
struct CountingL2 : sc_module {
  struct Seen {
    char kind;  // 'r' read, 'w' write, 'a' atomic
    uint64_t address;
    unsigned size;
    std::string caller;  // the process that called b_transport
  };
  tlm_utils::simple_target_socket<CountingL2> from_sm{"from_sm"};
  tlm_utils::simple_initiator_socket<CountingL2> to_bus{"to_bus"};
  std::vector<Seen> seen;

  explicit CountingL2(sc_module_name n) : sc_module(n) {
    from_sm.register_b_transport(this, &CountingL2::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
    const char kind = gp.get_extension<mem::AtomicExtension>() ? 'a' : gp.is_read() ? 'r' : 'w';
    seen.push_back({kind, gp.get_address(), gp.get_data_length(), sc_get_current_process_handle().name()});
    to_bus->b_transport(gp, delay);
  }
  unsigned count(char kind) const {
    unsigned n = 0;
    for (const Seen& s : seen) n += s.kind == kind;
    return n;
  }
};

// The host, the GPU, an interconnect and DRAM, as gpu::Platform wires them; SM 1's socket is
// bound to a CountingL2 in front of the same interconnect, the other SMs' take the default.
struct UserPlatform : sc_module {
  gpu::Gpu gpu;
  gpu::HostDriver host;
  mem::Interconnect bus{"bus"};
  mem::DramTarget dram{"dram"};
  CountingL2 l2{"my_l2"};
  sc_signal<bool> irq{"irq_sig"};
  UserPlatform(sc_module_name n, const config::GpuConfig& cfg, stats::Registry& stats, gpu::HostJob job)
      : sc_module(n), gpu("gpu", cfg, stats), host("host", std::move(job)) {
    host.control.bind(gpu.regs.control);
    gpu.irq(irq);
    host.irq(irq);
    gpu.port.to_memory.bind(bus.from_initiators);
    host.to_memory.bind(bus.from_initiators);
    gpu.sm(1).to_memory.bind(l2.from_sm);
    l2.to_bus.bind(bus.from_initiators);
    bus.to_targets.bind(dram.from_bus);
    bus.map(0, 0, 0x80000000ull, false);
    host.onFinished = [] { sc_stop(); };
  }
};

// Block b on SM b (one block per SM): each thread loads IN[i], stores IN[i] + 1 to OUT[i] and adds
// 1 to the counter C. Every SM thus reads one 128-byte line, writes one and performs one atomic.
// Returns the names of the processes that called the user's model.
std::set<std::string> runWithSm1OnAUserModel(config::TlmMode mode) {
  const isa::Kernel k = isa::assemble(R"(
.kernel touch
.param IN
.param OUT
.param C
  s2r r0, %ctaid.x
  s2r r1, %ntid.x
  s2r r2, %tid.x
  mad.lo.u32 r0, r0, r1, r2
  shl.b32 r3, r0, 2
  ld.param.b32 r4, [IN]
  add.u32 r4, r4, r3
  ld.global.b32 r5, [r4]
  add.u32 r5, r5, 1
  ld.param.b32 r6, [OUT]
  add.u32 r6, r6, r3
  st.global.b32 [r6], r5
  ld.param.b32 r7, [C]
  mov.b32 r8, 1
  atom.global.add.u32 r9, [r7], r8
  exit
)", "touch.s");
  config::GpuConfig cfg;
  cfg.gpu.num_sms = 3;
  cfg.sm.max_blocks = 1;
  cfg.tlm.mode = mode;
  isa::GlobalMemory mem;
  const uint32_t in = mem.allocate("in", 96 * 4), out = mem.allocate("out", 96 * 4), c = mem.allocate("c", 4);
  std::vector<uint32_t> values(96);
  for (uint32_t i = 0; i < 96; ++i) values[i] = 1000 + 7 * i;
  mem.setWords("in", values);
  isa::LaunchConfig l;
  l.grid = {3, 1, 1};
  l.block = {32, 1, 1};
  l.params = {in, out, c};
  stats::Registry stats;
  UserPlatform top("top", cfg, stats, gpu::HostJob{&k, l, &mem});
  sc_start();
  EXPECT_TRUE(top.host.result().done);
  EXPECT_EQ(top.host.result().errorCode, 0u) << top.gpu.lastError();

  const std::vector<uint32_t> got = mem.words("out");
  for (uint32_t i = 0; i < 96; ++i) EXPECT_EQ(got[i], values[i] + 1) << "out[" << i << "]";
  EXPECT_EQ(mem.words("c")[0], 96u);

  // SM 1 ran block 1: its line of IN, its line of OUT, the counter, and code lines, nothing else.
  const CountingL2& l2 = top.l2;
  EXPECT_EQ(l2.count('w'), 1u);
  EXPECT_EQ(l2.count('a'), 1u);
  const uint32_t code = 0x01000000;
  unsigned codeReads = 0, dataReads = 0;
  for (const auto& s : l2.seen) {
    if (s.kind == 'w') {
      EXPECT_EQ(s.address, out + 128u) << "SM 1 stores block 1's line of OUT";
    } else if (s.kind == 'a') {
      EXPECT_EQ(s.address, c);
    }
    if (s.kind != 'r') continue;
    if (s.address >= code && s.address < code + k.code.size() * 8) {
      ++codeReads;
    } else {
      ++dataReads;
      EXPECT_EQ(s.address, in + 128u) << "SM 1 loads block 1's line of IN";
    }
  }
  EXPECT_EQ(dataReads, 1u);
  EXPECT_GE(codeReads, 1u) << "SM 1's I-cache fills come through its socket";
  // The GPU's own socket carried the other two SMs' traffic, and SM 1's code fills were not there.
  const auto& port = top.gpu.port.stats();
  EXPECT_EQ(port.writes, 2u);
  EXPECT_EQ(port.atomics, 2u);
  EXPECT_EQ(port.reads, 2u + 2u * codeReads + port.atomics) << "per SM: a data line and the code lines";
  std::set<std::string> callers;
  for (const auto& s : l2.seen) callers.insert(s.caller);
  return callers;
}

// AT: the model's simple_target_socket turns the SM's nb_transport calls into b_transport calls.
TEST(GpuSmSockets, AnSmBoundToAUserModelSendsItAllItsTrafficAndOnlyIts) {
  const std::set<std::string> callers = runWithSm1OnAUserModel(config::TlmMode::At);
  EXPECT_EQ(callers.count("top.gpu.sm1.port.lt_thread"), 0u);
}

// tlm.mode = lt: the SM's port calls b_transport itself.
TEST(GpuSmSockets, AnSmBoundToAUserModelLooselyTimed) {
  const std::set<std::string> callers = runWithSm1OnAUserModel(config::TlmMode::Lt);
  EXPECT_EQ(callers, std::set<std::string>{"top.gpu.sm1.port.lt_thread"});
}

// A fault releases the kernel: every transaction the SMs' sockets still had open with the GPU's
// SM-side interconnect ends (answered with an error their units drop), although the GPU's own
// socket still waits for the memory's answers.
TEST(GpuSmSockets, AFaultEndsTheTransactionsOfTheSmSockets) {
  const isa::Kernel k = isa::assemble(R"(
.kernel store
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
)", "store.s");
  config::GpuConfig cfg;
  cfg.gpu.num_sms = 2;
  cfg.watchdog.cycles = 3000;
  stats::Registry stats;
  test::Rig rig("rig", cfg, stats);
  rig.target.swallow_lo = 0x40000000;  // the stores are accepted and never answered
  rig.target.swallow_hi = 0x50000000;
  rig.host.script = [&](test::ScriptHost& h) {
    isa::LaunchConfig l;
    l.grid = {4, 1, 1};
    l.block = {256, 1, 1};
    l.params = {0x40000000};
    h.launch(k, l, isa::GlobalMemory{});
    EXPECT_EQ(h.wait_done(), static_cast<uint32_t>(model::ErrorCode::KernelFault));
  };
  sc_start();
  EXPECT_NE(rig.gpu.lastError().find("stuck"), std::string::npos) << rig.gpu.lastError();
  EXPECT_FALSE(rig.gpu.port.idle()) << "the swallowed stores are still in flight at the GPU's socket";
  for (int i = 0; i < 2; ++i) EXPECT_TRUE(rig.gpu.sm(i).port.idle()) << "sm" << i;
}

}  // namespace
