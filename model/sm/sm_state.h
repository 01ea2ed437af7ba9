// The warp and block slots of one SM: what its units keep per resident warp and block, and
// what a mechanism (sm_mechanism.h) sees of them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "isa/kernel.h"
#include "isa/warp.h"
#include "model/frontend/icache.h"
#include "model/sm/ibuffer.h"

namespace simtlm::sm {

// What every SM needs to know of the running kernel.
struct KernelImage {
  const isa::Kernel* kernel = nullptr;
  isa::LaunchConfig launch;
  std::vector<uint32_t> reconvergence;  // per instruction: reconvergence PC of a branch
  // Byte address of the instruction at PC 0 in simulated memory (the ENTRY register in the GPU
  // top): instruction fetch probes the I-cache at codeBase + PC.
  uint64_t codeBase = 0;
  // Where the host's buffers are ([base, end), sorted by base), when it says so (runGrid, the
  // command line's platform): a global access outside every one then faults as it does on the
  // interpreter. Otherwise memory answers for itself (an error response where nothing is mapped).
  bool checkBuffers = false;
  std::vector<std::pair<uint32_t, uint32_t>> buffers;
};

// What the issue and fetch stages look at every cycle stays small and together: the fields a
// stall check reads first, then the I-buffer's counters and front, then fetch's fields. The
// warp's architectural state (about 2 KB) lives apart, on the heap. (With 28 SMs the SMs'
// state outgrows the host's L2 cache: each line a check touches is a likely miss.)
struct WarpSlot {
  bool active = false;  // holds a warp of a resident block
  bool atBarrier = false, done = false;
  int pendingMem = 0;
  // ctx->pc() while the warp runs, kept by whoever moves the warp (SmCore::advance, through
  // SmContext::advance for a mechanism): the issue stage compares the I-buffer's front with it
  // every cycle, and the context is a host cache miss away.
  uint32_t pc = 0;
  IBuffer ibuf;
  int block = -1;
  uint32_t indexInBlock = 0;
  std::unique_ptr<isa::WarpContext> ctx;
  uint32_t fetchPc = 0;
  bool fetchInFlight = false, fetchBlocked = false;
  uint64_t fetchReadyAt = 0;  // kNotYet while an I-cache miss waits for its fill
  uint32_t fetchingPc = 0, epoch = 0, fetchEpoch = 0;
  uint32_t fetchId = 0;                        // this fetch's I-cache tag (with the slot)
  unsigned icacheWay = frontend::ICache::kNoWay;  // way of the last I-cache hit (a lookup hint)
  uint32_t barrierId = 0, barrierPc = 0;
};

struct BlockSlot {
  bool used = false;
  uint32_t linear = 0;
  std::vector<int> warps;
  int warpsDone = 0;
  int warpsAtBarrier = 0;  // (kept by count, so that a release check need not walk the warps)
};

}  // namespace simtlm::sm
