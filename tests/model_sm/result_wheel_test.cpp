// ResultWheel (model/sm/pending_result.h): write-back's results by the cycle they are taken in,
// each cycle's in the order added, across the ring's wrap and its widening.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "model/sm/pending_result.h"

using simtlm::sm::PendingResult;
using simtlm::sm::ResultWheel;

namespace {

PendingResult result(uint64_t at, int slot) {
  PendingResult r;
  r.at = at;
  r.slot = slot;
  return r;
}

std::vector<int> takeSlots(ResultWheel& w, uint64_t cycle) {
  std::vector<int> slots;
  w.take(cycle, [&](const PendingResult& r) { slots.push_back(r.slot); });
  return slots;
}

TEST(ResultWheel, TakesEachCycleInTheOrderAdded) {
  ResultWheel w;
  EXPECT_TRUE(w.empty());
  EXPECT_EQ(w.earliest(), ~uint64_t{0});
  w.add(result(105, 1), 105, 100);
  w.add(result(103, 2), 103, 100);
  w.add(result(105, 3), 105, 101);
  EXPECT_EQ(w.earliest(), 103u);
  EXPECT_EQ(takeSlots(w, 102), std::vector<int>{});
  EXPECT_EQ(takeSlots(w, 103), std::vector<int>{2});
  EXPECT_EQ(w.earliest(), 105u);
  EXPECT_EQ(takeSlots(w, 104), std::vector<int>{});
  EXPECT_EQ(takeSlots(w, 105), (std::vector<int>{1, 3}));
  EXPECT_TRUE(w.empty());
}

TEST(ResultWheel, ACycleSkippedIsTakenWithTheNextInCycleOrder) {
  ResultWheel w;
  w.add(result(12, 1), 12, 10);
  w.add(result(11, 2), 11, 10);
  EXPECT_EQ(takeSlots(w, 12), (std::vector<int>{2, 1}));
}

TEST(ResultWheel, WidensForALateResultAndKeepsTheOthers) {
  ResultWheel w;  // 64 cycles wide at first
  w.add(result(1002, 1), 1002, 1000);
  w.add(result(1300, 2), 1300, 1000);  // past the ring: it widens
  w.add(result(1002, 3), 1002, 1001);
  EXPECT_EQ(takeSlots(w, 1002), (std::vector<int>{1, 3}));
  EXPECT_EQ(w.earliest(), 1300u);
  EXPECT_EQ(takeSlots(w, 1299), std::vector<int>{});
  EXPECT_EQ(takeSlots(w, 1300), std::vector<int>{2});
}

TEST(ResultWheel, AnEmptyWheelStartsAgainAtTheCycleGiven) {
  ResultWheel w;
  w.add(result(5, 1), 5, 4);
  EXPECT_EQ(takeSlots(w, 5), std::vector<int>{1});
  w.add(result(1'000'010, 2), 1'000'010, 1'000'000);  // long after: no widening to a million
  w.add(result(1'000'001, 3), 1'000'001, 1'000'000);
  EXPECT_EQ(w.earliest(), 1'000'001u);
  EXPECT_EQ(takeSlots(w, 1'000'010), (std::vector<int>{3, 2}));
}

}  // namespace
