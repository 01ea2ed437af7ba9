// The GPU's memory-mapped control registers: what a host (the CLI's driver or a user's CPU
// model) programs to launch a kernel. A TLM-2.0 target socket (b_transport, transport_dbg;
// 32-bit little-endian registers, naturally aligned 4-byte accesses) and the kernel-completion
// interrupt. The register map is in docs/control-registers.md.
// Logger "gpu.regs" (model/common/log.h): a refused access and a launch refused while busy at
// warn (the host sees only a status), a launch with invalid registers at info.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <spdlog/fwd.h>

#include <array>
#include <cstdint>
#include <functional>

namespace simtlm::model {

// Byte offsets of the registers.
enum class Reg : uint32_t {
  Id = 0x00,            // RO  0x53494D54 ("SIMT")
  Entry = 0x04,         // RW  address of the kernel's first instruction word
  GridX = 0x08, GridY = 0x0C, GridZ = 0x10,      // RW  grid dimensions
  BlockX = 0x14, BlockY = 0x18, BlockZ = 0x1C,   // RW  block dimensions
  ParamAddr = 0x20,     // RW  address of the parameter buffer (32-bit words)
  ParamWords = 0x24,    // RW  number of parameter words
  SharedBytes = 0x28,   // RW  shared memory per block
  RegsPerThread = 0x2C, // RW  general registers per thread (1..64)
  NumInstrs = 0x30,     // RW  kernel length in instructions
  Launch = 0x34,        // WO  write 1: start the kernel described above
  Status = 0x38,        // RO  bit 0 busy, bit 1 done, bit 2 error; W1C bits 1-2 (clears irq)
  ErrorCode = 0x3C,     // RO  0 none; see ErrorCode
  CycleLo = 0x40, CycleHi = 0x44,  // RO  cycles of the last (or running) kernel
  IrqEnable = 0x48,     // RW  bit 0: raise `irq` on completion
  Reset = 0x4C,         // WO  write 1: soft reset (abort any kernel, power-on state)
  LocalAddr = 0x50,     // RW  address of the launch's local space (isa/local_memory.h)
  LocalBytes = 0x54,    // RW  local memory per thread (0: none)
};
inline constexpr uint32_t kRegSpace = 0x58;
inline constexpr uint32_t kIdValue = 0x53494D54u;

enum class ErrorCode : uint32_t {
  None = 0,
  BadLaunch = 1,     // launch registers out of range (launch refused, nothing runs)
  KernelFault = 2,   // the kernel faulted (bad access, deadlock, memory error response)
  LaunchWhileBusy = 3,
};

enum StatusBits : uint32_t { kBusy = 1, kDone = 2, kError = 4 };

// What the registers hold when Launch is written.
struct LaunchRegs {
  uint32_t entry = 0;
  std::array<uint32_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  uint32_t paramAddr = 0, paramWords = 0, sharedBytes = 0, regsPerThread = 1, numInstrs = 0;
  uint32_t localAddr = 0, localBytes = 0;
};

class ControlRegs : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ControlRegs> control;  // from the host
  sc_core::sc_out<bool> irq;                             // kernel completed (level, until W1C)

  SC_HAS_PROCESS(ControlRegs);
  explicit ControlRegs(sc_core::sc_module_name name);

  // Called when the host writes Launch with valid registers; the GPU starts the kernel.
  std::function<void(const LaunchRegs&)> onLaunch;
  // Called when the host writes 1 to Reset, before the registers take their power-on values:
  // the GPU aborts whatever runs and returns its units to their power-on state.
  std::function<void()> onReset;
  // The GPU reports completion (with an error code, None on success) and the cycle count.
  void complete(ErrorCode error, uint64_t cycles);
  // The GPU updates the running cycle count (read through CycleLo/Hi while busy).
  void setCycles(uint64_t cycles) { cycles_ = cycles; }
  bool busy() const { return status_ & kBusy; }
  const LaunchRegs& launchRegs() const { return regs_; }

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& p);
  // Performs one access; returns the response status.
  tlm::tlm_response_status access(tlm::tlm_generic_payload& p, bool debug);
  tlm::tlm_response_status refuse(const tlm::tlm_generic_payload& p, bool debug, tlm::tlm_response_status s,
                                  const char* why);
  uint32_t read(uint32_t offset) const;
  void write(uint32_t offset, uint32_t value);
  bool launchValid() const;
  // The interrupt level changes in whatever process touched the registers (the host's thread,
  // the GPU's clock); one method of this module drives the port, so it has a single writer.
  void updateIrq();
  void driveIrq();
  sc_core::sc_event irqChanged_;
  bool irqLevel_ = false;

  LaunchRegs regs_;
  uint32_t status_ = 0, error_ = 0, irqEnable_ = 0;
  uint64_t cycles_ = 0;
  spdlog::logger& log_;
};

}  // namespace simtlm::model
