// mem::SparseMemory: pages on first write, zero elsewhere; release() frees whole pages only.
#include <gtest/gtest.h>

#include <vector>

#include "model/mem/sparse_memory.h"

using simtlm::mem::SparseMemory;

TEST(SparseMemory, ReleaseFreesOnlyPagesWhollyInsideTheRange) {
  SparseMemory m(1u << 20);  // 4 KiB pages
  const std::vector<unsigned char> ones(5 * 4096, 1);
  m.write(0x1800, ones.data(), ones.size());  // pages 1..6 (1 and 6 partly)
  ASSERT_EQ(m.pages_allocated(), 6u);
  m.release(0x1800, ones.size());  // pages 2..5 lie wholly inside
  EXPECT_EQ(m.pages_allocated(), 2u);
  unsigned char b[3];
  m.read(0x1fff, b, 2);  // the end of page 1 kept, page 2 reads zero
  EXPECT_EQ(b[0], 1);
  EXPECT_EQ(b[1], 0);
  m.read(0x6000, b, 3);  // page 6 kept its first 0x800 bytes
  EXPECT_EQ(b[0], 1);
  m.release(0, 1u << 20);
  EXPECT_EQ(m.pages_allocated(), 0u);
  m.read(0x1fff, b, 1);
  EXPECT_EQ(b[0], 0);
  m.release(0x100, 16);  // less than a page: nothing to free
  EXPECT_EQ(m.pages_allocated(), 0u);
}
