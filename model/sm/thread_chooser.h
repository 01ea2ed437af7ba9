// Whether a cycle's SMs run on the host threads of sim.threads or on the caller's alone, decided
// window by window from the wall time each way takes (sim.adapt_threads). A cycle's barrier costs
// microseconds when every thread has a core, and a whole scheduler time slice when another
// process holds the core one of them needs: then the SMs are faster on one thread. Results do not
// depend on the choice (GridEngine::runSmsOn), only the host time does.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace simtlm::sm {

class ThreadChooser {
 public:
  // adapt false: always parallel.
  explicit ThreadChooser(bool adapt) : adapt_(adapt) {}
  bool parallel() const { return parallel_; }
  // After each cycle; at the end of a window, times it and decides the next.
  void cycleDone() {
    if (!adapt_) return;
    if (++inWindow_ < kWindow) return;
    inWindow_ = 0;
    windowEnded();
  }
  uint64_t parallelWindows() const { return parallelWindows_; }  // windows run on the threads
  uint64_t windows() const { return windows_; }
  // The decision after a window that took `seconds` (public for the tests).
  void windowTook(double seconds) {
    windows_++;
    parallelWindows_ += parallel_;
    if (!started_) {  // the first window began with the kernel, before start_ was set
      started_ = true;
      return;
    }
    switch (phase_) {
      case Phase::TimeParallel:
        parallelSeconds_ = seconds;
        phase_ = Phase::TimeSerial;
        parallel_ = false;
        break;
      case Phase::TimeSerial:
        parallel_ = parallelSeconds_ <= seconds;
        runWindows_ = parallel_ ? kRunWindows : std::min(kMostRunWindows, runWindows_ * 2);
        phase_ = Phase::Run;
        left_ = runWindows_;
        break;
      case Phase::Run:
        if (--left_ == 0) {
          phase_ = Phase::TimeParallel;
          parallel_ = true;
        }
        break;
    }
  }

  static constexpr uint32_t kWindow = 1024;    // cycles
  // Windows the faster way runs before both are timed again: 32 after the threads won, doubling
  // (to 1024) each time one thread won again, so a host where the threads keep losing pays for
  // timing them less and less often.
  static constexpr uint32_t kRunWindows = 32, kMostRunWindows = 1024;

 private:
  enum class Phase : uint8_t { TimeParallel, TimeSerial, Run };
  void windowEnded() {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - start_).count();
    start_ = now;
    windowTook(seconds);
  }
  bool adapt_;
  bool parallel_ = true, started_ = false;
  Phase phase_ = Phase::TimeParallel;
  uint32_t inWindow_ = 0, left_ = 0, runWindows_ = kRunWindows / 2;
  double parallelSeconds_ = 0;
  uint64_t parallelWindows_ = 0, windows_ = 0;
  std::chrono::steady_clock::time_point start_{};
};

}  // namespace simtlm::sm
