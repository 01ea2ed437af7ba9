// SlotPool: slots are reused last-freed-first, live() counts what is held, and a deque-backed
// pool keeps a record in place while others are added (the GlobalMemoryAdapter relies on it).
#include <deque>

#include <gtest/gtest.h>

#include "model/common/slot_pool.h"

namespace simtlm::common {
namespace {

TEST(SlotPool, ReusesTheLastReleasedSlotAndCountsLiveOnes) {
  SlotPool<int> pool;
  const auto a = pool.acquire(), b = pool.acquire(), c = pool.acquire();
  EXPECT_EQ(a, 0u);
  EXPECT_EQ(b, 1u);
  EXPECT_EQ(c, 2u);
  pool[b] = 7;
  pool.release(a);
  pool.release(c);
  EXPECT_EQ(pool.live(), 1u);
  EXPECT_EQ(pool.slots(), 3u);
  EXPECT_EQ(pool.acquire(), c);  // last freed, first reused
  EXPECT_EQ(pool.acquire(), a);
  EXPECT_EQ(pool.acquire(), 3u);  // none free: a new slot
  EXPECT_EQ(pool.live(), 4u);
  EXPECT_EQ(pool[b], 7);
  pool.clear();
  EXPECT_EQ(pool.live(), 0u);
  EXPECT_EQ(pool.slots(), 0u);
  EXPECT_EQ(pool.acquire(), 0u);
}

TEST(SlotPool, DequeStorageKeepsRecordsInPlace) {
  SlotPool<int, std::deque<int>> pool;
  const auto first = pool.acquire();
  pool[first] = 42;
  const int* where = &pool[first];
  for (int i = 0; i < 10000; ++i) pool.acquire();
  EXPECT_EQ(where, &pool[first]);
  EXPECT_EQ(*where, 42);
}

}  // namespace
}  // namespace simtlm::common
