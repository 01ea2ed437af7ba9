#include "model/common/fork_join.h"

#include <sched.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SIMTLM_PAUSE() _mm_pause()
#else
#define SIMTLM_PAUSE() ((void)0)
#endif

namespace simtlm::common {
namespace {

// The cores of the process's affinity mask, in order.
std::vector<int> allowedCores() {
  std::vector<int> cores;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) cores.push_back(c);
  return cores;
}

void pinTo(int core) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(core, &set);
  sched_setaffinity(0, sizeof set, &set);  // best effort: a refused pin only costs speed
}

// Spins up to `budget` rounds, then yields a few times, then (false) gives up: the caller goes
// to sleep. The budget adapts: a wait that ends while spinning earns more of it (up to `most`),
// one that needs sleep halves it, so a host busy with other work (the thread waited for is not
// running) soon stops burning the core it needs.
template <class Ready>
bool spinFor(Ready ready, int& budget, int most) {
  for (int i = 0; i < budget; ++i) {
    if (ready()) {
      budget = std::min(most, budget + most / 16 + 1);
      return true;
    }
    SIMTLM_PAUSE();
  }
  for (int i = 0; i < 4; ++i) {
    if (ready()) return true;
    std::this_thread::yield();
  }
  if (ready()) return true;
  budget /= 2;
  return false;
}

}  // namespace

int ForkJoinPool::hostCores() {
  const size_t n = allowedCores().size();
  return n > 0 ? static_cast<int>(n) : 1;
}

ForkJoinPool::ForkJoinPool(int threads, bool pin) : threads_(threads), errors_(static_cast<size_t>(threads)) {
  if (threads < 1) throw std::invalid_argument("ForkJoinPool: threads must be at least 1, not " + std::to_string(threads));
  const std::vector<int> cores = pin ? allowedCores() : std::vector<int>{};
  const bool oversubscribed = threads > hostCores();
  spins_ = oversubscribed ? 0 : 20000;  // a spinning thread would hold the core another one needs
  callerBudget_ = spins_;
  pin = pin && !cores.empty() && !oversubscribed;
  if (pin) {
    cpu_set_t mine;
    CPU_ZERO(&mine);
    if (sched_getaffinity(0, sizeof mine, &mine) == 0) {
      callerMask_.assign(reinterpret_cast<unsigned char*>(&mine), reinterpret_cast<unsigned char*>(&mine) + sizeof mine);
      pinnedCaller_ = true;
      pinTo(cores[0]);
    }
  }
  for (int t = 1; t < threads; ++t)
    workers_.emplace_back([this, t, pin, core = pin ? cores[static_cast<size_t>(t) % cores.size()] : -1] {
      if (pin) pinTo(core);
      work(t);
    });
}

ForkJoinPool::~ForkJoinPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    epoch_.fetch_add(1);
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
  if (pinnedCaller_) {
    cpu_set_t mine;
    std::memcpy(&mine, callerMask_.data(), sizeof mine);
    sched_setaffinity(0, sizeof mine, &mine);
  }
}

void ForkJoinPool::call(int t) noexcept {
  try {
    body_(context_, t);
  } catch (...) {
    errors_[static_cast<size_t>(t)] = std::current_exception();
  }
}

void ForkJoinPool::work(int t) {
  uint64_t seen = 0;
  int budget = spins_;
  for (;;) {
    const auto next = [&] { return epoch_.load() != seen; };
    if (!spinFor(next, budget, spins_)) {
      std::unique_lock<std::mutex> lock(mutex_);
      sleepers_.fetch_add(1);  // seq_cst: runRaw sees it, or this thread sees runRaw's epoch
      wake_.wait(lock, next);
      sleepers_.fetch_sub(1);
    }
    seen = epoch_.load();
    if (stop_.load()) return;
    call(t);
    if (pending_.fetch_sub(1) == 1 && callerAsleep_.load()) {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_one();
    }
  }
}

void ForkJoinPool::runRaw(Raw body, void* context) {
  body_ = body;
  context_ = context;
  if (threads_ > 1) {
    pending_.store(threads_ - 1);
    epoch_.fetch_add(1);  // publishes body_ and context_
    if (sleepers_.load() > 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      wake_.notify_all();
    }
  }
  call(0);
  if (threads_ > 1) waitForWorkers();
  for (auto& e : errors_)
    if (e) {
      std::exception_ptr first = e;
      for (auto& f : errors_) f = nullptr;
      std::rethrow_exception(first);
    }
}

void ForkJoinPool::waitForWorkers() {
  const auto finished = [&] { return pending_.load() == 0; };
  if (spinFor(finished, callerBudget_, spins_)) return;
  std::unique_lock<std::mutex> lock(mutex_);
  callerAsleep_.store(true);  // seq_cst: the last worker sees it, or this thread sees pending_ at 0
  done_.wait(lock, finished);
  callerAsleep_.store(false);
}

}  // namespace simtlm::common
