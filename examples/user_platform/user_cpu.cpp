#include "user_cpu.h"

#include <algorithm>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <utility>
#include <vector>

// Register offsets and status bits, from the GPU's register map (docs/control-registers.md).
#include "model/gpu/control_regs.h"

using namespace sc_core;
using simtlm::model::Reg;

namespace {

constexpr std::uint32_t off(Reg r) { return static_cast<std::uint32_t>(r); }

constexpr unsigned kBurstBytes = 64;   // largest bus transaction this CPU issues
constexpr unsigned kGuardWords = 16;   // after c: must survive (threads i >= n write nothing)
constexpr std::uint32_t kPoison = 0xDEADBEEFu;  // not a sum of our inputs

float inputA(std::uint32_t i) { return static_cast<float>(i) * 0.1f; }
float inputB(std::uint32_t i) { return 1.0f / static_cast<float>(i + 1); }

std::uint32_t bitsOf(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Words go on the bus in host byte order: the GPU model is little-endian, as is the host this
// example runs on.
template <typename T>
unsigned char* bytesOf(std::vector<T>& v) { return reinterpret_cast<unsigned char*>(v.data()); }

// Simulated time in ns (the GPU clock makes sc_time print in ps otherwise).
std::string ns(const sc_time& t) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << t.to_seconds() * 1e9 << " ns";
  return s.str();
}

std::string hex(std::uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

}  // namespace

UserCpu::UserCpu(sc_module_name name, const simtlm::isa::Kernel& kernel, UserCpuMap map,
                 std::uint32_t n, std::uint32_t block)
    : sc_module(name), bus("bus"), irq("irq"), kernel_(kernel), map_(map), n_(n), block_(block) {
  SC_THREAD(run);
}

bool UserCpu::fail(const std::string& why) {
  failure_ = why;
  return false;
}

bool UserCpu::busAccess(tlm::tlm_command cmd, std::uint64_t addr, unsigned char* data, unsigned len) {
  for (unsigned done = 0; done < len;) {
    const unsigned chunk = std::min(kBurstBytes, len - done);
    tlm::tlm_generic_payload gp;
    sc_time delay = SC_ZERO_TIME;
    gp.set_command(cmd);
    gp.set_address(addr + done);
    gp.set_data_ptr(data + done);
    gp.set_data_length(chunk);
    gp.set_streaming_width(chunk);
    gp.set_byte_enable_ptr(nullptr);
    gp.set_dmi_allowed(false);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    bus->b_transport(gp, delay);
    ++transactions_;
    wait(delay);
    if (!gp.is_response_ok())
      return fail(std::string(cmd == tlm::TLM_READ_COMMAND ? "read" : "write") + " at " +
                  hex(addr + done) + " failed: " + gp.get_response_string());
    done += chunk;
  }
  return true;
}

bool UserCpu::writeReg(std::uint32_t offset, std::uint32_t value) {
  return busAccess(tlm::TLM_WRITE_COMMAND, map_.gpuRegs + offset,
                   reinterpret_cast<unsigned char*>(&value), 4);
}

bool UserCpu::readReg(std::uint32_t offset, std::uint32_t& value) {
  return busAccess(tlm::TLM_READ_COMMAND, map_.gpuRegs + offset,
                   reinterpret_cast<unsigned char*>(&value), 4);
}

void UserCpu::waitForIrq() {
  // Level-triggered: the GPU holds irq high until STATUS is acknowledged, so a completion that
  // happened before we got here (an immediately refused launch) is not missed.
  while (!irq.read()) wait(irq.posedge_event());
}

void UserCpu::run() {
  software();
  finished_ = true;
  sc_stop();
}

bool UserCpu::software() {
  const auto say = [this](const std::string& s) {
    std::cout << "[" << name() << " @ " << ns(sc_time_stamp()) << "] " << s << std::endl;
  };

  // 1. Is there a GPU at the expected address?
  std::uint32_t id = 0;
  if (!readReg(off(Reg::Id), id)) return false;
  if (id != simtlm::model::kIdValue) return fail("no GPU at " + hex(map_.gpuRegs) + ": ID = " + hex(id));
  say("GPU control registers at " + hex(map_.gpuRegs) + ", ID " + hex(id));

  // 2. Kernel code, parameters and buffers, all with timed bus writes.
  std::vector<std::uint64_t> code = kernel_.code;
  if (!busAccess(tlm::TLM_WRITE_COMMAND, map_.code, bytesOf(code),
                 static_cast<unsigned>(code.size() * 8)))
    return false;
  // Fill the parameter buffer by the kernel's .param names, at the offsets the assembler gave.
  std::vector<std::uint32_t> params(kernel_.paramBytes() / 4);
  for (const auto& p : kernel_.params) {
    std::uint64_t v;
    if (p.name == "A") v = map_.a;
    else if (p.name == "B") v = map_.b;
    else if (p.name == "C") v = map_.c;
    else if (p.name == "N") v = n_;
    else return fail("kernel has an unexpected parameter '" + p.name + "'");
    params[p.offset / 4] = static_cast<std::uint32_t>(v);  // the GPU's addresses are 32-bit
  }
  std::vector<std::uint32_t> a(n_), b(n_), c(n_ + kGuardWords, kPoison);
  for (std::uint32_t i = 0; i < n_; ++i) {
    a[i] = bitsOf(inputA(i));
    b[i] = bitsOf(inputB(i));
  }
  if (!busAccess(tlm::TLM_WRITE_COMMAND, map_.params, bytesOf(params), static_cast<unsigned>(params.size() * 4)) ||
      !busAccess(tlm::TLM_WRITE_COMMAND, map_.a, bytesOf(a), n_ * 4) ||
      !busAccess(tlm::TLM_WRITE_COMMAND, map_.b, bytesOf(b), n_ * 4) ||
      !busAccess(tlm::TLM_WRITE_COMMAND, map_.c, bytesOf(c), static_cast<unsigned>(c.size() * 4)))
    return false;
  say("loaded " + kernel_.name + " (" + std::to_string(code.size()) + " instructions, " +
      std::to_string(params.size()) + " parameter words) and " + std::to_string(n_) +
      "-element buffers: " + std::to_string(transactions_) + " bus transactions");

  // 3. Program the launch registers and start the kernel.
  const std::uint32_t grid = (n_ + block_ - 1) / block_;
  const std::pair<Reg, std::uint32_t> launch[] = {
      {Reg::Entry, static_cast<std::uint32_t>(map_.code)},
      {Reg::GridX, grid}, {Reg::GridY, 1}, {Reg::GridZ, 1},
      {Reg::BlockX, block_}, {Reg::BlockY, 1}, {Reg::BlockZ, 1},
      {Reg::ParamAddr, static_cast<std::uint32_t>(map_.params)},
      {Reg::ParamWords, static_cast<std::uint32_t>(params.size())},
      {Reg::SharedBytes, kernel_.sharedBytes},
      {Reg::RegsPerThread, static_cast<std::uint32_t>(kernel_.numRegs)},
      {Reg::NumInstrs, static_cast<std::uint32_t>(kernel_.size())},
      {Reg::IrqEnable, 1},
      {Reg::Launch, 1}};
  for (const auto& [reg, value] : launch)
    if (!writeReg(off(reg), value)) return false;
  const sc_time launched = sc_time_stamp();
  say("LAUNCH: grid " + std::to_string(grid) + " x block " + std::to_string(block_));

  // 4. Wait for completion, read the outcome, acknowledge (clears the interrupt).
  waitForIrq();
  const sc_time irqAt = sc_time_stamp();
  std::uint32_t status = 0, error = 0, lo = 0, hi = 0;
  if (!readReg(off(Reg::Status), status) || !readReg(off(Reg::ErrorCode), error) ||
      !readReg(off(Reg::CycleLo), lo) || !readReg(off(Reg::CycleHi), hi) ||
      !writeReg(off(Reg::Status), simtlm::model::kDone | simtlm::model::kError))
    return false;
  const std::uint64_t cycles = static_cast<std::uint64_t>(hi) << 32 | lo;
  say("irq " + ns(irqAt - launched) + " after LAUNCH: STATUS " + hex(status) + ", ERROR_CODE " +
      std::to_string(error) + ", " + std::to_string(cycles) + " GPU cycles");
  if (!(status & simtlm::model::kDone) || (status & simtlm::model::kError) || error != 0)
    return fail("the GPU reported an error (STATUS " + hex(status) + ", ERROR_CODE " +
                std::to_string(error) + ")");

  // 5. Read c back and check every word (and the guard words) against the C++ computation.
  std::vector<std::uint32_t> got(n_ + kGuardWords, 0);
  if (!busAccess(tlm::TLM_READ_COMMAND, map_.c, bytesOf(got), static_cast<unsigned>(got.size() * 4)))
    return false;
  std::ostringstream diff;
  unsigned bad = 0;
  for (std::uint32_t i = 0; i < got.size(); ++i) {
    const std::uint32_t want = i < n_ ? bitsOf(inputA(i) + inputB(i)) : kPoison;
    if (got[i] == want) continue;
    if (bad++ < 5) diff << "\n  c[" << i << "] = " << hex(got[i]) << ", expected " << hex(want);
  }
  if (bad)
    return fail(std::to_string(bad) + " of " + std::to_string(got.size()) + " words wrong" + diff.str());
  say("c[0.." + std::to_string(n_ - 1) + "] equal a + b computed in C++; the " +
      std::to_string(kGuardWords) + " guard words after c are untouched");

  // 6. A launch the GPU must refuse: GRID_X = 0 completes at once with ERROR_CODE 1.
  if (!writeReg(off(Reg::GridX), 0) || !writeReg(off(Reg::Launch), 1)) return false;
  waitForIrq();
  if (!readReg(off(Reg::Status), status) || !readReg(off(Reg::ErrorCode), error) ||
      !writeReg(off(Reg::Status), simtlm::model::kDone | simtlm::model::kError) ||
      !writeReg(off(Reg::GridX), grid))
    return false;
  say("LAUNCH with GRID_X = 0: STATUS " + hex(status) + ", ERROR_CODE " + std::to_string(error) +
      " (expected 0x6, 1: bad launch registers)");
  if (status != (simtlm::model::kDone | simtlm::model::kError) ||
      error != static_cast<std::uint32_t>(simtlm::model::ErrorCode::BadLaunch))
    return fail("a launch with GRID_X = 0 was not refused as expected");
  return true;
}
