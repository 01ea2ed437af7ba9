// A region keeps its allocated extent while a host driver has freed its bytes
// (HostJob::releaseWhileRunning / keepInTarget): end() is what the GPU's buffer check uses, while
// find() only answers for bytes the host holds.
#include <gtest/gtest.h>

#include "isa/memory.h"

using namespace simtlm;

TEST(MemoryRegion, ReleasedBytesKeepTheExtentButAreNotFound) {
  isa::GlobalMemory mem;
  const uint32_t base = mem.allocate("a", 1000);
  EXPECT_EQ(mem.region("a").size, 1000u);
  EXPECT_EQ(mem.region("a").end(), base + 1000);
  EXPECT_NE(mem.find(base + 996, 4), nullptr);
  std::vector<uint8_t>().swap(mem.bytes("a"));
  EXPECT_EQ(mem.region("a").end(), base + 1000);
  EXPECT_EQ(mem.find(base, 4), nullptr);
  mem.bytes("a").resize(1000);
  EXPECT_NE(mem.find(base + 996, 4), nullptr);
}
