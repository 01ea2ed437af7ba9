// A fork-join pool for one simulated cycle's parallel part (sim.threads, docs/performance.md):
// run(body) calls body(t) once for every t in [0, threads), t = 0 on the caller's thread, and
// returns when all have returned. It is built for a call every few microseconds: workers are
// created once and pinned to the host's cores, wait for the next call by spinning, then
// yielding, then sleeping (an oversubscribed host, threads > cores, still makes progress),
// and a call allocates nothing. Pure C++; no SystemC call may be made from a body.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace simtlm::common {

class ForkJoinPool {
 public:
  // threads >= 1: threads - 1 workers beside the caller. pin: each worker on one of the cores
  // the process may use (round robin), the caller's thread on the first one while the pool lives.
  explicit ForkJoinPool(int threads, bool pin = true);
  ~ForkJoinPool();
  ForkJoinPool(const ForkJoinPool&) = delete;
  ForkJoinPool& operator=(const ForkJoinPool&) = delete;

  int threads() const { return threads_; }
  // body(t) for every t; an exception of a body is rethrown here (the lowest t's) after all
  // bodies returned.
  template <class Body>
  void run(Body& body) {
    runRaw([](void* b, int t) { (*static_cast<Body*>(b))(t); }, &body);
  }
  // The cores this process may run on (sched_getaffinity; at least 1).
  static int hostCores();

 private:
  using Raw = void (*)(void*, int);
  void runRaw(Raw body, void* context);
  void work(int t);
  void call(int t) noexcept;
  void waitForWorkers();

  const int threads_;
  int spins_;  // most busy-wait rounds before yielding: none when the host has fewer cores than threads
  int callerBudget_;  // the caller's busy-wait rounds now (spinFor)
  std::vector<std::thread> workers_;
  std::vector<std::exception_ptr> errors_;  // per t
  Raw body_ = nullptr;
  void* context_ = nullptr;
  // A call: epoch_ counts calls; pending_ the workers still running this one.
  alignas(64) std::atomic<uint64_t> epoch_{0};
  alignas(64) std::atomic<int> pending_{0};
  alignas(64) std::atomic<int> sleepers_{0};  // workers asleep on wake_
  std::atomic<bool> callerAsleep_{false}, stop_{false};
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  bool pinnedCaller_ = false;
  std::vector<unsigned char> callerMask_;  // the caller's affinity before the pool pinned it
};

}  // namespace simtlm::common
