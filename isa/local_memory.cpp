#include "isa/local_memory.h"

#include <algorithm>
#include <stdexcept>

namespace simtlm::isa {

void prepareLocal(GlobalMemory& mem, const Kernel& k, LaunchConfig& l) {
  l.localBase = 0;
  if (k.localBytes == 0) return;
  const uint64_t bytes = localSpaceBytes(k, l);
  if (bytes > kMaxLocalSpaceBytes)
    throw std::invalid_argument("local memory of the launch (" + std::to_string(k.localBytes) + " bytes x " +
                                std::to_string(l.grid.count() * l.block.count()) + " threads = " +
                                std::to_string(bytes) + " bytes) exceeds " + std::to_string(kMaxLocalSpaceBytes));
  // Launches one after another reuse the first local buffer large enough (a grid larger than
  // every earlier one gets a new buffer), zeroed: every launch starts with zeroed local memory.
  const std::string prefix = kLocalBufferName;
  size_t count = 0;
  for (const auto& r : mem.regions()) {
    if (r.name.rfind(prefix, 0) != 0) continue;
    ++count;
    if (r.bytes.size() < bytes) continue;
    GlobalMemory::Region* w = mem.find(r.base, 1);
    std::fill(w->bytes.begin(), w->bytes.end(), 0);
    l.localBase = r.base;
    return;
  }
  l.localBase = mem.allocate(count ? prefix + std::to_string(count + 1) : prefix, static_cast<uint32_t>(bytes));
}

}  // namespace simtlm::isa
