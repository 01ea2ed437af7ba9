// Local memory: a per-thread space of `.local BYTES` that the hardware keeps in global memory,
// interleaved across the threads of the launch (as NVIDIA GPUs lay out local memory): word w of
// thread t lies at base + (w * threads + t) * 4, so the same word of consecutive threads is
// adjacent and a warp that reads one local offset makes one contiguous, coalesced access.
// `ld.local` / `st.local` address the space with byte offsets; the interpreter and the timing
// model turn offsets into global addresses with localAddress() (WarpContext::localToGlobal), so
// both touch the same words. The space is allocated and zeroed for every launch
// (prepareLocal): the interpreter, runGrid and the host driver call it the same way, in the same
// order, so the space lies at the same address in all of them.
#pragma once

#include <cstdint>
#include <string>

#include "isa/kernel.h"
#include "isa/launch.h"
#include "isa/memory.h"

namespace simtlm::isa {

// Largest local space of one launch (bytes per thread x threads of the grid): 1 GiB, so that
// it fits in the 32-bit address space beside the buffers.
inline constexpr uint64_t kMaxLocalSpaceBytes = uint64_t{1} << 30;
// Prefix of the names of the buffers that hold launches' local spaces ("%local", "%local2"...:
// '%' cannot start a buffer name of a scenario or workload).
inline constexpr const char* kLocalBufferName = "%local";

// The global address of byte offset `offset` (a multiple of 4) of thread `thread` (its linear
// index in the grid: block linear index * threads per block + thread in block), in the local
// space at `base` of a launch of `threads` threads.
inline uint32_t localAddress(uint32_t base, uint32_t threads, uint32_t thread, uint32_t offset) {
  return base + static_cast<uint32_t>((uint64_t{offset / 4} * threads + thread) * 4);
}

// Why an access at local byte offset `offset` faults ("" when it does not), worded alike by the
// interpreter and the timing model: misaligned first, then past the kernel's `.local` bytes.
inline std::string localOffsetFault(uint32_t offset, uint32_t localBytes) {
  if (offset & 3) return "misaligned 32-bit access";
  if (uint64_t{offset} + 4 > localBytes)
    return "local memory access out of bounds (" + std::to_string(localBytes) + " bytes per thread)";
  return {};
}

// Bytes of the local space of a launch of `k` with `l`'s shape.
inline uint64_t localSpaceBytes(const Kernel& k, const LaunchConfig& l) {
  return uint64_t{k.localBytes} * l.grid.count() * l.block.count();
}

// Allocates (or reuses, zeroed) a buffer for the local space of this launch in `mem` and sets
// l.localBase to it (0 when the kernel declares no .local). Throws std::invalid_argument when the
// space is larger than kMaxLocalSpaceBytes, std::length_error when memory is exhausted.
void prepareLocal(GlobalMemory& mem, const Kernel& k, LaunchConfig& l);

}  // namespace simtlm::isa
