// The control-register block: register map, launch validation, completion and interrupt.
// Each test elaborates its own SystemC model and runs in its own process (gtest_discover_tests).
#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>

#include "model/gpu/control_regs.h"

using namespace sc_core;
using namespace simtlm::model;

namespace {

// A host that runs a script of register accesses in a thread.
struct Host : sc_module {
  tlm_utils::simple_initiator_socket<Host> socket{"socket"};
  std::function<void(Host&)> script;
  SC_HAS_PROCESS(Host);
  explicit Host(sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  void run() { script(*this); }

  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, uint32_t& value, unsigned len = 4) {
    tlm::tlm_generic_payload p;
    sc_time delay = SC_ZERO_TIME;
    p.set_command(cmd);
    p.set_address(addr);
    p.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    p.set_data_length(len);
    p.set_streaming_width(len);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    socket->b_transport(p, delay);
    wait(delay);
    return p.get_response_status();
  }
  void write(Reg r, uint32_t v) { ASSERT_EQ(access(tlm::TLM_WRITE_COMMAND, static_cast<uint32_t>(r), v), tlm::TLM_OK_RESPONSE); }
  uint32_t read(Reg r) {
    uint32_t v = 0xDEADBEEF;
    EXPECT_EQ(access(tlm::TLM_READ_COMMAND, static_cast<uint32_t>(r), v), tlm::TLM_OK_RESPONSE);
    return v;
  }
  void program() {
    write(Reg::Entry, 0x1000);
    write(Reg::GridX, 4);
    write(Reg::BlockX, 32);
    write(Reg::BlockY, 8);
    write(Reg::ParamAddr, 0x2000);
    write(Reg::ParamWords, 3);
    write(Reg::RegsPerThread, 16);
    write(Reg::NumInstrs, 20);
  }
};

struct Top : sc_module {
  ControlRegs regs{"regs"};
  Host host{"host"};
  sc_signal<bool> irq{"irq_sig"};
  explicit Top(sc_module_name n) : sc_module(n) {
    host.socket.bind(regs.control);
    regs.irq(irq);
  }
};

}  // namespace

TEST(ControlRegs, LaunchCompleteAndInterrupt) {
  Top top("top");
  LaunchRegs seen;
  int launches = 0;
  top.regs.onLaunch = [&](const LaunchRegs& r) { seen = r; ++launches; };
  bool irqAfterDone = false, irqAfterClear = true;
  top.host.script = [&](Host& h) {
    EXPECT_EQ(h.read(Reg::Id), kIdValue);
    h.program();
    h.write(Reg::IrqEnable, 1);
    h.write(Reg::Launch, 1);
    EXPECT_EQ(h.read(Reg::Status), static_cast<uint32_t>(kBusy));
    h.write(Reg::Launch, 1);  // refused: busy
    EXPECT_EQ(h.read(Reg::ErrorCode), static_cast<uint32_t>(ErrorCode::LaunchWhileBusy));
    h.write(Reg::Status, kError);
    top.regs.complete(ErrorCode::None, 0x1'0000'0005ull);
    wait(1, SC_NS);
    irqAfterDone = top.irq.read();
    EXPECT_EQ(h.read(Reg::Status), static_cast<uint32_t>(kDone));
    EXPECT_EQ(h.read(Reg::CycleLo), 5u);
    EXPECT_EQ(h.read(Reg::CycleHi), 1u);
    h.write(Reg::Status, kDone);  // acknowledge
    wait(1, SC_NS);
    irqAfterClear = top.irq.read();
  };
  sc_start();
  EXPECT_EQ(launches, 1);
  EXPECT_EQ(seen.entry, 0x1000u);
  EXPECT_EQ(seen.grid[0], 4u);
  EXPECT_EQ(seen.block[1], 8u);
  EXPECT_EQ(seen.paramWords, 3u);
  EXPECT_EQ(seen.regsPerThread, 16u);
  EXPECT_TRUE(irqAfterDone);
  EXPECT_FALSE(irqAfterClear);
}

TEST(ControlRegs, BadLaunchIsRefusedWithAnError) {
  Top top("top");
  int launches = 0;
  top.regs.onLaunch = [&](const LaunchRegs&) { ++launches; };
  top.host.script = [&](Host& h) {
    h.program();
    h.write(Reg::BlockX, 64);
    h.write(Reg::BlockY, 32);  // 2048 threads per block
    h.write(Reg::Launch, 1);
    EXPECT_EQ(h.read(Reg::Status), static_cast<uint32_t>(kDone | kError));
    EXPECT_EQ(h.read(Reg::ErrorCode), static_cast<uint32_t>(ErrorCode::BadLaunch));
  };
  sc_start();
  EXPECT_EQ(launches, 0);
}

TEST(ControlRegs, IllegalAccessesGetErrorResponses) {
  Top top("top");
  top.host.script = [&](Host& h) {
    uint32_t v = 0;
    EXPECT_EQ(h.access(tlm::TLM_READ_COMMAND, 0x02, v), tlm::TLM_BURST_ERROR_RESPONSE);     // misaligned
    EXPECT_EQ(h.access(tlm::TLM_READ_COMMAND, 0x00, v, 2), tlm::TLM_BURST_ERROR_RESPONSE);  // 16-bit
    EXPECT_EQ(h.access(tlm::TLM_READ_COMMAND, kRegSpace, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(h.access(tlm::TLM_IGNORE_COMMAND, 0x00, v), tlm::TLM_COMMAND_ERROR_RESPONSE);
  };
  sc_start();
}

TEST(ControlRegs, ResetReturnsEveryRegisterToItsPowerOnValue) {
  Top top("top");
  int resets = 0;
  top.regs.onReset = [&] { ++resets; };
  top.regs.onLaunch = [](const LaunchRegs&) {};
  bool irqBefore = false, irqAfter = true;
  top.host.script = [&](Host& h) {
    h.program();
    h.write(Reg::IrqEnable, 1);
    h.write(Reg::Launch, 1);
    top.regs.complete(ErrorCode::KernelFault, 1234);
    wait(1, SC_NS);
    irqBefore = top.irq.read();
    uint32_t v = 1;
    EXPECT_EQ(h.access(tlm::TLM_READ_COMMAND, static_cast<uint32_t>(Reg::Reset), v), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, 0u);  // write-only: reads as 0
    h.write(Reg::Reset, 0);  // bit 0 clear: nothing happens
    EXPECT_EQ(resets, 0);
    EXPECT_EQ(h.read(Reg::GridX), 4u);
    h.write(Reg::Reset, 1);
    wait(1, SC_NS);
    irqAfter = top.irq.read();
    for (Reg r : {Reg::Entry, Reg::ParamAddr, Reg::ParamWords, Reg::SharedBytes, Reg::NumInstrs,
                  Reg::Status, Reg::ErrorCode, Reg::CycleLo, Reg::CycleHi, Reg::IrqEnable})
      EXPECT_EQ(h.read(r), 0u) << "register at " << static_cast<uint32_t>(r);
    for (Reg r : {Reg::GridX, Reg::GridY, Reg::GridZ, Reg::BlockX, Reg::BlockY, Reg::BlockZ, Reg::RegsPerThread})
      EXPECT_EQ(h.read(r), 1u) << "register at " << static_cast<uint32_t>(r);
  };
  sc_start();
  EXPECT_EQ(resets, 1);
  EXPECT_TRUE(irqBefore);
  EXPECT_FALSE(irqAfter);
}

TEST(ControlRegs, ResetIsNotADebugAccess) {
  Top top("top");
  int resets = 0;
  top.regs.onReset = [&] { ++resets; };
  tlm::tlm_generic_payload p;
  uint32_t one = 1;
  p.set_command(tlm::TLM_WRITE_COMMAND);
  p.set_address(static_cast<uint32_t>(Reg::Reset));
  p.set_data_ptr(reinterpret_cast<unsigned char*>(&one));
  p.set_data_length(4);
  p.set_streaming_width(4);
  top.host.script = [&](Host& h) { EXPECT_EQ(h.socket->transport_dbg(p), 0u); };
  sc_start();
  EXPECT_EQ(resets, 0);
}
