// Warp timelines (`simtlm run SCENARIO --timeline OUT.json`, docs/timeline.md): what every warp
// of every SM did, cycle by cycle, in the Chrome trace-event JSON format that Perfetto
// (ui.perfetto.dev) and chrome://tracing open. One process per SM, one thread per warp slot (and
// one more per slot for a mechanism's events); spans for issue, the issue stall of each
// scheduler's oldest warp, barrier waits and a mechanism's waits; instants for a mechanism's
// moments; counters of IPC and resident warps per SM. Time is in core cycles (a trace's
// "microsecond" is one cycle), counted as gpu.cycles counts them: kernel cycles, summed over the
// launches.
//
// The writer is an observer of the SMs (model/sm/sm_observer.h) and of the GPU's cycles
// (gpu::Gpu::observeCycles): it only records, so a run with a timeline has the statistics of one
// without. It streams events into OUT.tmp and renames that to OUT when the run is over, so OUT
// never holds a timeline cut short.
#pragma once

#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "model/sm/sm_observer.h"

namespace simtlm::cli {

struct TimelineRequest {
  std::string file;  // empty: no timeline
  uint64_t from = 0, to = std::numeric_limits<uint64_t>::max();  // the cycle window [from, to)
  uint64_t interval = 1000;  // cycles per sample of the counters
  bool enabled() const { return !file.empty(); }
};

// --timeline OUT.json, --timeline-window FROM:TO, --timeline-interval N.
void addTimelineOptions(boost::program_options::options_description& desc);
// Throws std::invalid_argument naming the option and what it accepts.
TimelineRequest timelineRequestFrom(const boost::program_options::variables_map& vm);
// "FROM:TO" (either may be empty: from the start, to the end) into r.from, r.to.
void parseTimelineWindow(const std::string& text, TimelineRequest& r);

class TimelineWriter final : public sm::SmObserver {
 public:
  // Opens OUT.tmp (throws std::runtime_error when it cannot). `numSms` x `warpSlots` tracks.
  TimelineWriter(const TimelineRequest& request, int numSms, int warpSlots);
  ~TimelineWriter() override;  // without finish(): OUT.tmp is removed, OUT left alone
  TimelineWriter(const TimelineWriter&) = delete;
  TimelineWriter& operator=(const TimelineWriter&) = delete;

  // After every GPU cycle of a kernel: the kernel's cycles so far, and whether it ended.
  void cycle(uint64_t kernelCycles, bool ended);
  // Closes what is open, writes the metadata (`otherData`: a JSON object's text) and renames
  // OUT.tmp to OUT. Throws std::runtime_error when the file cannot be written.
  void finish(const std::string& otherData);
  uint64_t events() const { return events_; }

  void kernelStarted(int sm, uint64_t cycle) override;
  void warpAdmitted(int sm, int slot, uint64_t cycle) override;
  void issued(int sm, int slot, uint32_t pc, uint64_t cycle) override;
  void stalled(int sm, int slot, sm::StallReason why, uint64_t cycle) override;
  void barrierArrived(int sm, int slot, uint64_t cycle) override;
  void barrierReleased(int sm, int slot, uint64_t cycle) override;
  void warpExited(int sm, int slot, uint64_t cycle) override;
  void warpRetired(int sm, int slot, uint64_t cycle) override;
  void mechanismEvent(int sm, int slot, sm::MechanismEvent kind, const char* what, uint64_t cycle) override;

 private:
  // A span being extended cycle by cycle: issue (kind kIssue), a stall (1 + reason), or a
  // mechanism's wait (its name). Consecutive cycles of one kind make one span, never across
  // `boundary` (a barrier's or a wait's begin or end, where the enclosing span starts or ends:
  // spans of one track nest).
  struct Run {
    int kind = kNone;
    const char* what = nullptr;
    uint64_t start = 0, end = 0;
    uint32_t count = 0, lastCount = 0;  // instructions, and those of the last cycle
    uint32_t firstPc = 0, lastPc = 0;
    uint32_t lastCycleFirstPc = 0, lastPcBefore = 0;  // the last cycle's first PC, the PC before it
  };
  struct Wait {  // a mechanism's wait between WaitBegin and WaitEnd
    const char* what;
    uint64_t start;
    size_t mark;  // where its events begin in the track's `held`
  };
  // While an enclosing span (a barrier wait, a mechanism's wait) is open on a track, the
  // track's events are held and written after it: a span that encloses another starting in the
  // same cycle must come first in the file (chrome://tracing nests them in file order).
  struct Track {
    Run run;
    uint64_t boundary = 0;
    bool named = false;
    int open = 0;  // enclosing spans open
    std::vector<std::string> held;
  };
  struct Warp {
    Track pipe, mech;
    bool atBarrier = false;
    uint64_t barrierStart = 0;
    size_t barrierMark = 0;
    std::vector<Wait> waits;
  };
  struct Sm {
    std::vector<Warp> warps;
    bool named = false;
    uint64_t issued = 0;        // instructions issued since the last sample
    int resident = 0;           // warps resident now
    uint64_t residentSum = 0;   // resident warps x cycles since the last sample
    uint64_t residentSince = 0;
  };
  static constexpr int kNone = -1, kIssue = 0, kWait = 100;

  uint64_t ts(uint64_t engineCycle) const { return base_ + (engineCycle - kernelStart_); }
  Warp& warp(int sm, int slot) { return sms_[static_cast<size_t>(sm)].warps[static_cast<size_t>(slot)]; }
  void extend(int sm, int tid, Track& t, int kind, const char* what, uint64_t at, uint32_t pc);
  void split(int sm, int tid, Track& t, uint64_t at);  // the run ends at `at`, a new one may start there
  void flush(int sm, int tid, Track& t);
  void closeAll(uint64_t at);  // at a kernel's end (a fault drops its warps without retiring them)
  void resident(int sm, int delta, uint64_t at);
  void sample(uint64_t at);    // the counters of every SM for [lastSample_, at)
  // Writers of one event each; spans and instants outside the window are dropped, spans clipped.
  void span(int sm, int tid, const char* cat, const char* name, uint64_t start, uint64_t end, const std::string& args);
  void instant(int sm, int tid, const char* cat, const char* name, uint64_t at);
  // The span's event ("" outside the window).
  std::string spanText(int sm, int tid, const char* cat, const char* name, uint64_t start, uint64_t end,
                       const std::string& args);
  Track& track(int sm, int tid);
  void put(int sm, int tid, std::string event);  // written, or held while an enclosing span is open
  size_t openEnclosing(Track& t);                // returns its mark
  // Writes the enclosing span (`event`, may be "") before what was held since `mark`; returns
  // whether it took a place in `held` (marks after it move by one).
  bool closeEnclosing(Track& t, size_t mark, std::string event);
  void counter(int sm, const char* name, const char* key, double value, uint64_t at);
  void nameTrack(int sm, int tid);  // process and thread metadata, before the first event of each
  void emit(const std::string& event);

  TimelineRequest req_;
  std::string tmp_;
  std::FILE* out_ = nullptr;
  std::vector<char> buffer_;  // out_'s (events are small: write them in large blocks)
  bool first_ = true, finished_ = false;
  std::vector<Sm> sms_;
  uint64_t base_ = 0, kernelStart_ = 0, lastSample_ = 0, now_ = 0, kernels_ = 0, events_ = 0;
};

}  // namespace simtlm::cli
