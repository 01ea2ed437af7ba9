#include "model/sm/thread_chooser.h"

#include <gtest/gtest.h>

namespace simtlm::sm {
namespace {

// Which way each of the next n windows runs, when the threads take `parallel` seconds per window
// and one thread `serial`.
std::string schedule(ThreadChooser& c, int n, double parallel, double serial) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    const bool p = c.parallel();
    s += p ? 'P' : 'S';
    c.windowTook(p ? parallel : serial);
  }
  return s;
}

TEST(ThreadChooser, KeepsTheThreadsWhileTheyAreFaster) {
  ThreadChooser c(true);
  // The first window (untimed start), the timed pair, then 32 on the threads, the pair again.
  const std::string s = schedule(c, 1 + 2 + 32 + 2, 1.0, 2.0);
  EXPECT_EQ(s, "P" "PS" + std::string(32, 'P') + "PS");
  EXPECT_EQ(c.windows(), 37u);
  EXPECT_EQ(c.parallelWindows(), 35u);
}

// One thread keeps winning (a busy host): 32, 64, 128 ... windows on one thread between timings.
TEST(ThreadChooser, BacksOffWhileOneThreadIsFaster) {
  ThreadChooser c(true);
  std::string s = schedule(c, 1 + 2, 3.0, 1.0);
  EXPECT_EQ(s, "PPS");
  EXPECT_EQ(schedule(c, 32, 3.0, 1.0), std::string(32, 'S'));
  EXPECT_EQ(schedule(c, 2 + 64, 3.0, 1.0), "PS" + std::string(64, 'S'));
  EXPECT_EQ(schedule(c, 2 + 128, 3.0, 1.0), "PS" + std::string(128, 'S'));
  // The threads win again: back to 32.
  EXPECT_EQ(schedule(c, 2 + 32 + 1, 1.0, 3.0), "PS" + std::string(32, 'P') + "P");
}

TEST(ThreadChooser, WithoutAdaptingAlwaysTheThreads) {
  ThreadChooser c(false);
  for (int i = 0; i < 100000; ++i) c.cycleDone();
  EXPECT_TRUE(c.parallel());
  EXPECT_EQ(c.windows(), 0u);
}

}  // namespace
}  // namespace simtlm::sm
