// mem::Fifo: first in, first out across growth and wrap-around.
#include <gtest/gtest.h>

#include <deque>

#include "model/mem/fifo.h"

using simtlm::mem::Fifo;

TEST(Fifo, KeepsOrderAcrossWrapAndGrowth) {
  Fifo<int> f;
  std::deque<int> ref;
  int next = 0;
  // Pushes and pops in bursts, so the ring wraps at several sizes and grows while wrapped.
  for (int round = 0; round < 50; ++round) {
    for (int i = 0; i < round % 7 + 1; ++i) {
      EXPECT_EQ(f.push_back(next), next);
      ref.push_back(next++);
    }
    for (int i = 0; i < round % 5 && !ref.empty(); ++i) {
      ASSERT_FALSE(f.empty());
      EXPECT_EQ(f.front(), ref.front());
      f.pop_front();
      ref.pop_front();
    }
    ASSERT_EQ(f.size(), ref.size());
    for (size_t i = 0; i < ref.size(); ++i) EXPECT_EQ(f[i], ref[i]);
    if (!ref.empty()) {
      EXPECT_EQ(f.back(), ref.back());
    }
  }
  f.clear();
  EXPECT_TRUE(f.empty());
  f.push_back(7);
  EXPECT_EQ(f.front(), 7);
}
