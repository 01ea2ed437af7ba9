// A user's platform: their own CPU model and memory, with simtlm's GPU and interconnect.
//
//   UserCpu --b_transport--> Interconnect --[0]--> UserMemory   0x00000000 .. 0x00FFFFFF
//   Gpu.port (AT) ---------> Interconnect --[1]--> Gpu control  0x40000000 .. 0x40000FFF
//   Gpu.irq --sc_signal<bool>--> UserCpu.irq
//
// The CPU and the GPU share one bus, so the GPU's control registers are memory-mapped like any
// peripheral and the GPU reads the code and data the CPU wrote. Exit code 0 only when the CPU
// saw correct results, no GPU error and the expected refusal of a bad launch.
#include <iostream>
#include <string>

#include <systemc>

#include "isa/assembler.h"
#include "isa/ptx/ptx_translate.h"
#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/gpu/gpu.h"
#include "model/mem/interconnect.h"
#include "workloads/data_dir.h"
#include "workloads/workload.h"

#include "user_cpu.h"
#include "user_memory.h"

using namespace sc_core;
using namespace simtlm;

namespace {

constexpr std::uint64_t kMemBase = 0x00000000, kMemSize = 16u << 20;
constexpr std::uint64_t kGpuRegsBase = 0x40000000, kGpuRegsSize = 0x1000;

// Where the CPU puts things in memory (bus addresses; the GPU sees the same ones).
constexpr UserCpuMap kMap{kGpuRegsBase, /*code*/ 0x00010000, /*params*/ 0x00020000,
                          /*a*/ 0x00100000, /*b*/ 0x00200000, /*c*/ 0x00300000};

constexpr std::uint32_t kElements = 1000;  // not a multiple of the block: the tail is guarded
constexpr std::uint32_t kBlock = 128;

}  // namespace

int sc_main(int argc, char* argv[]) {
  isa::Kernel kernel;
  try {
    // Assembled at run time from simtlm's data folder: SIMTLM_DATA_DIR when set, else the one
    // the CMake package named when this platform was built. `user_platform cuda` runs the
    // nvcc-compiled twin instead (workloads/cuda/vecadd.ptx, translated: docs/ptx.md).
    workloads::setDataDir(USER_PLATFORM_DATA_DIR);
    const bool cuda = argc > 1 && std::string(argv[1]) == "cuda";
    kernel = cuda ? isa::ptx::loadPtxFile(workloads::cudaDir() + "/vecadd.ptx", "vecadd")
                  : isa::assembleFile(workloads::kernelDir() + "/vecadd.s");
    // nvcc names the parameters vecadd_param_0..3; they are the .s kernel's A, B, C, N in order,
    // and the CPU fills the parameter buffer by those names.
    if (cuda) {
      const char* names[] = {"A", "B", "C", "N"};
      for (size_t i = 0; i < kernel.params.size() && i < 4; ++i) kernel.params[i].name = names[i];
    }
  } catch (const std::exception& e) {
    std::cout << "user_platform: FAILED: " << e.what() << std::endl;
    return 2;
  }

  // The GPU's configuration: the table defaults with a smaller machine. The Gpu keeps a
  // reference to it, so it lives as long as the Gpu.
  config::GpuConfig cfg;
  cfg.gpu.num_sms = 2;
  cfg.tlm.mode = config::TlmMode::At;  // the GPU talks nb_transport to UserMemory
  config::checkConfig(cfg);
  stats::Registry stats;

  UserCpu cpu("cpu", kernel, kMap, kElements, kBlock);
  gpu::Gpu gpu("gpu", cfg, stats);
  mem::Interconnect bus("bus", mem::InterconnectConfig{sc_time(1, SC_NS), sc_time(1, SC_NS)});
  UserMemory memory("memory", kMemSize, sc_time(20, SC_NS));
  sc_signal<bool> irq("irq");

  cpu.bus.bind(bus.from_initiators);
  gpu.port.to_memory.bind(bus.from_initiators);
  bus.to_targets.bind(memory.socket);        // target 0
  bus.to_targets.bind(gpu.regs.control);     // target 1
  bus.map(0, kMemBase, kMemSize);
  bus.map(1, kGpuRegsBase, kGpuRegsSize, /*translate=*/true);  // the registers decode offsets
  gpu.irq(irq);
  cpu.irq(irq);

  sc_start();

  if (cpu.passed()) {
    std::cout << "user_platform: PASSED (memory served " << memory.blockingAccesses()
              << " b_transport and " << memory.nonBlockingAccesses() << " nb_transport accesses, "
              << sc_time_stamp().to_seconds() * 1e6 << " us simulated)" << std::endl;
    return 0;
  }
  std::cout << "user_platform: FAILED: " << (cpu.finished() ? cpu.failure() : "the CPU did not finish")
            << std::endl;
  if (!gpu.lastError().empty()) std::cout << "  GPU: " << gpu.lastError() << std::endl;
  return 1;
}
