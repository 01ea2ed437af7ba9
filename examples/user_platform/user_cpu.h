// UserCpu: a bus master written the way a user would write a CPU model, to show a kernel
// launched on the GPU by foreign IP through the GPU's control socket. It does not use simtlm's
// HostDriver: every access below is a plain b_transport on one initiator socket, through the
// platform's bus, to memory or to the GPU's memory-mapped control registers.
//
// Its "software" (one SC_THREAD) runs c = a + b on the GPU:
//   1. check the GPU's ID register;
//   2. write the kernel's 64-bit instruction words, its parameter words, the inputs a and b,
//      and a poison pattern over c (so that a word the GPU did not write cannot pass);
//   3. program the launch registers, enable the interrupt, write LAUNCH;
//   4. wait for `irq`, read STATUS / ERROR_CODE / CYCLE_LO / CYCLE_HI, acknowledge STATUS;
//   5. read c back and compare every word with the C++ result (guard words after c must still
//      hold the poison: the kernel's bounds check worked);
//   6. negative check: launch with GRID_X = 0, expect done + error and ERROR_CODE 1;
//   7. print a report and sc_stop().
#pragma once

#include <cstdint>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "isa/kernel.h"

// Where things are, in bus addresses (see README.md).
struct UserCpuMap {
  std::uint64_t gpuRegs;  // base of the GPU's control registers
  std::uint64_t code, params, a, b, c;  // kernel code, parameter words, buffers
};

class UserCpu : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<UserCpu> bus;
  sc_core::sc_in<bool> irq;

  SC_HAS_PROCESS(UserCpu);
  // `kernel` is the assembled vecadd kernel (.param A, B, C, N), run over n floats in 1D blocks
  // of `block` threads. It must outlive the simulation.
  UserCpu(sc_core::sc_module_name name, const simtlm::isa::Kernel& kernel, UserCpuMap map,
          std::uint32_t n, std::uint32_t block);

  bool finished() const { return finished_; }
  bool passed() const { return finished_ && failure_.empty(); }
  const std::string& failure() const { return failure_; }

 private:
  void run();
  bool software();  // steps 1-6; false (with failure_ set) on the first problem
  bool fail(const std::string& why);
  // One b_transport of `len` bytes, split into bursts of at most kBurstBytes; waits for each
  // annotated delay (no temporal decoupling: the CPU stays in step with the GPU).
  bool busAccess(tlm::tlm_command cmd, std::uint64_t addr, unsigned char* data, unsigned len);
  bool writeReg(std::uint32_t offset, std::uint32_t value);
  bool readReg(std::uint32_t offset, std::uint32_t& value);
  void waitForIrq();

  const simtlm::isa::Kernel& kernel_;
  UserCpuMap map_;
  std::uint32_t n_, block_;
  std::uint64_t transactions_ = 0;
  bool finished_ = false;
  std::string failure_;
};
