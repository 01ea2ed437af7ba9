// A host driver: what the command line (and any CPU model) does to run a kernel on the GPU.
// It places the kernel's instruction words, its parameters and the buffers in memory (debug
// transport; b_transport where that moves no bytes), programs the control registers, launches, waits for the interrupt, and reads the
// buffers back. Sockets: `control` to the GPU's control target, `to_memory` to the memory the
// GPU uses (usually through the interconnect). Several kernels run one after another on the
// same memory when a job source hands out more than one job. A job may ask the driver to free
// its copy of the buffers while the kernel runs (releaseWhileRunning): the target's memory then
// holds the only copy, and the driver rebuilds its own when it reads them back.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "isa/kernel.h"
#include "isa/launch.h"
#include "isa/memory.h"

namespace simtlm::gpu {

struct HostJob {
  const isa::Kernel* kernel = nullptr;
  isa::LaunchConfig launch;
  isa::GlobalMemory* memory = nullptr;  // buffers: copied in before, read back after
  uint32_t codeAddress = 0x01000000;    // where the code and then the parameters are placed
  // Each buffer's bytes in `memory` are freed once placed (its size kept) and rebuilt when read
  // back: while the kernel runs, `memory`'s regions are empty. For large buffers (one copy in
  // host memory at a time, not two).
  bool releaseWhileRunning = false;
  // With releaseWhileRunning: after this job (when it succeeds) the buffers stay in the target
  // only, not read back; the next job places each by reading it from the target and writing it
  // back a chunk at a time (the same bytes and cache effects as a read-back followed by placing,
  // without the host's copy). For a job whose results nothing reads before the next job runs
  // (a workload's launches prepared up front). Local-memory buffers are read back as before, and
  // whatever is still kept is read back when the next job uses another memory, does not release
  // its buffers, or there is none.
  bool keepInTarget = false;
};

struct HostResult {
  bool done = false;
  uint32_t errorCode = 0;
  uint64_t cycles = 0;
  std::string error;  // host-side problems (a failed access)
};

class HostDriver : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HostDriver> control;
  tlm_utils::simple_initiator_socket<HostDriver> to_memory;
  sc_core::sc_in<bool> irq;

  // Fills in the next job and returns true, or returns false when there are no more. Called in
  // the driver's thread, before each launch (so a job may depend on the previous results).
  using JobSource = std::function<bool(HostJob& job)>;

  SC_HAS_PROCESS(HostDriver);
  HostDriver(sc_core::sc_module_name name, HostJob job);  // one job
  HostDriver(sc_core::sc_module_name name, JobSource jobs);
  // The last job's result (the first failing one when a job fails: later jobs do not run).
  const HostResult& result() const { return result_; }
  // Called after each job, with its result.
  std::function<void(const HostJob&, const HostResult&)> onJobDone;
  // Called before each launch, before the buffers are placed (for example to tell the GPU where
  // the job's buffers are).
  std::function<void(const HostJob&)> beforeLaunch;
  // Called as each buffer is read back, a chunk at a time (kChunk bytes), with the buffer and
  // how many of its bytes are read so far, its size at the last call (for example to free the
  // target's copy of what was read once the last job is done).
  std::function<void(const HostJob&, const isa::GlobalMemory::Region&, size_t done)> onReadBack;

  static constexpr size_t kChunk = size_t{1} << 20;  // bytes read or copied in one debug access
  // Called when every job is finished or one failed (for example to sc_stop()).
  std::function<void()> onFinished;

 private:
  void run();
  HostResult runJob(const HostJob& job);
  bool regAccess(tlm::tlm_command cmd, uint32_t offset, uint32_t& value);
  bool writeReg(uint32_t offset, uint32_t value);
  bool readReg(uint32_t offset, uint32_t& value);
  bool debug(tlm::tlm_command cmd, uint64_t address, unsigned char* data, unsigned size);
  // Reads the buffers of `job` back into its memory (those released, with their size in
  // `sizes`, resized first), or only the released ones; the name of the first that failed, or "".
  std::string readBack(const HostJob& job, const std::vector<size_t>& sizes, bool releasedOnly);
  // One buffer read back into `bytes` (made `size` long) a chunk at a time, onReadBack after each.
  bool readBuffer(const HostJob& job, const isa::GlobalMemory::Region& r, std::vector<uint8_t>& bytes, size_t size);
  // Places a buffer that is released once placed (releaseWhileRunning), handing its memory back
  // as it goes; on failure the host's copy is whole again as far as it can be read back.
  bool placeReleasing(uint64_t base, std::vector<uint8_t>& bytes);
  // Buffer `r` (`size` bytes, kept in the target) read and written back where it is, a chunk at
  // a time: what placing it after reading it back does.
  bool copyInPlace(uint64_t base, size_t size);
  // Reads back what keepInTarget left in the target; the name of the first that failed, or "".
  std::string restoreKept();

  JobSource jobs_;
  HostResult result_;
  // What keepInTarget left in the target: the job, and each of its memory's regions' size (0:
  // not kept).
  HostJob kept_;
  std::vector<size_t> keptSizes_;
};

}  // namespace simtlm::gpu
