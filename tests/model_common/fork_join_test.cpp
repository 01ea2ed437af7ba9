#include "model/common/fork_join.h"

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace simtlm::common {
namespace {

// Every call runs body(t) exactly once per t, and run() returns only after all did: each call's
// sums are complete when it returns, over many calls (a lost wake-up would hang the test, which
// has a timeout; a missed or doubled t would be counted).
void checkCalls(int threads, bool pin) {
  ForkJoinPool pool(threads, pin);
  ASSERT_EQ(pool.threads(), threads);
  std::vector<uint64_t> perThread(static_cast<size_t>(threads), 0);
  std::thread::id caller = std::this_thread::get_id();
  bool zeroOnCaller = true;
  for (uint64_t call = 1; call <= 3000; ++call) {
    auto body = [&](int t) {
      perThread[static_cast<size_t>(t)] += call;  // each t its own slot: no race if each runs once
      if (t == 0) zeroOnCaller = zeroOnCaller && std::this_thread::get_id() == caller;
    };
    pool.run(body);
    for (int t = 0; t < threads; ++t) ASSERT_EQ(perThread[static_cast<size_t>(t)], call * (call + 1) / 2) << "t=" << t;
  }
  EXPECT_TRUE(zeroOnCaller);
}

TEST(ForkJoinPool, EveryThreadOncePerCall) { checkCalls(2, true); }
TEST(ForkJoinPool, OneThreadRunsOnTheCaller) { checkCalls(1, true); }
// More threads than this machine's cores: they yield and sleep instead of spinning, and finish.
TEST(ForkJoinPool, OversubscribedThreadsFinish) { checkCalls(ForkJoinPool::hostCores() * 4 + 1, true); }
TEST(ForkJoinPool, UnpinnedThreads) { checkCalls(3, false); }

// A body's exception reaches the caller after every body returned; the pool stays usable.
TEST(ForkJoinPool, ExceptionOfABodyIsRethrown) {
  ForkJoinPool pool(3);
  std::atomic<int> ran{0};
  auto failing = [&](int t) {
    ran++;
    if (t == 2) throw std::runtime_error("body 2 failed");
  };
  try {
    pool.run(failing);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "body 2 failed");
  }
  EXPECT_EQ(ran.load(), 3);
  auto fine = [&](int) { ran++; };
  pool.run(fine);
  EXPECT_EQ(ran.load(), 6);
}

TEST(ForkJoinPool, RejectsNoThreads) { EXPECT_THROW(ForkJoinPool(0), std::invalid_argument); }

}  // namespace
}  // namespace simtlm::common
