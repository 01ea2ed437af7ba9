// The timeline writer on events given by hand (no simulation): how runs of cycles become spans,
// where they split, what the window keeps, and that an unfinished writer leaves no file.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/timeline.h"

namespace simtlm::cli {
namespace {

using nlohmann::json;
using sm::MechanismEvent;
using sm::StallReason;

std::string path(const std::string& name) {
  return std::string(SIMTLM_SCRATCH_DIR "/timeline-writer-") +
         ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" + name;
}

// The X and i events, in the order written, as "name ts+dur [instructions first_pc last_pc]".
std::vector<std::string> events(const std::string& file, int tid = -1) {
  std::ifstream in(file);
  const json t = json::parse(in);
  std::vector<std::string> out;
  for (const json& e : t["traceEvents"]) {
    if ((e["ph"] != "X" && e["ph"] != "i") || (tid >= 0 && e["tid"] != tid)) continue;
    std::string s = e["name"].get<std::string>() + " " + std::to_string(e["ts"].get<uint64_t>());
    if (e["ph"] == "X") s += "+" + std::to_string(e["dur"].get<uint64_t>());
    if (e.contains("args") && e["args"].contains("instructions"))
      s += " [" + std::to_string(e["args"]["instructions"].get<int>()) + " " +
           std::to_string(e["args"]["first_pc"].get<int>()) + " " + std::to_string(e["args"]["last_pc"].get<int>()) + "]";
    out.push_back(s);
  }
  return out;
}

// Kernel started at engine cycle 100 (timeline cycle 0): warp 0 issues in cycles 0-2 (two
// instructions in cycle 2, the second a bar.sync), waits at the barrier, stalls on it in 3-5,
// and is released in cycle 6 by warp 1, whose bar.sync issues then; warp 0 issues again in 6
// and 7.
void barrierEpisode(TimelineWriter& w) {
  w.kernelStarted(0, 100);
  w.warpAdmitted(0, 0, 100);
  w.warpAdmitted(0, 1, 100);
  w.issued(0, 0, 0, 100);
  w.issued(0, 0, 8, 101);
  w.issued(0, 0, 16, 102);
  w.issued(0, 0, 24, 102);
  w.barrierArrived(0, 0, 102);
  for (uint64_t c = 103; c <= 105; ++c) w.stalled(0, 0, StallReason::Barrier, c);
  w.stalled(0, 0, StallReason::Barrier, 106);  // its scheduler looks before warp 1's issues
  w.issued(0, 1, 24, 106);
  w.barrierArrived(0, 1, 106);
  w.barrierReleased(0, 0, 106);
  w.barrierReleased(0, 1, 106);
  w.issued(0, 1, 32, 106);  // released at once: warp 1 dual-issues past its bar.sync
  w.issued(0, 1, 40, 107);
  w.issued(0, 0, 32, 107);
  w.issued(0, 0, 40, 108);
  for (uint64_t c = 0; c <= 8; ++c) w.cycle(c + 1, c == 8);
}

TEST(TimelineWriter, SplitsRunsWhereABarrierBeginsAndEnds) {
  TimelineRequest r;
  r.file = path("t.json");
  TimelineWriter w(r, 1, 4);
  barrierEpisode(w);
  w.finish("{}");
  // (In the order written: the barrier span before the spans it encloses.)
  EXPECT_EQ(events(r.file, 0), (std::vector<std::string>{
                                    "issue 0+2 [2 0 8]",       // up to the bar.sync's cycle
                                    "barrier wait 2+4",        // bar.sync to the release
                                    "issue 2+1 [2 16 24]",     // the bar.sync's cycle alone
                                    "stall: barrier 3+3",      // inside the barrier span
                                    "stall: barrier 6+1",      // the release cycle: outside it
                                    "issue 7+2 [2 32 40]",
                                }));
  EXPECT_EQ(events(r.file, 1), (std::vector<std::string>{
                                    "issue 6+1 [2 24 32]",  // the last arrival: no barrier span
                                    "issue 7+1 [1 40 40]",
                                }));
}

TEST(TimelineWriter, WindowClipsSpansAndDropsTheRest) {
  TimelineRequest r;
  r.file = path("t.json");
  parseTimelineWindow("3:7", r);
  TimelineWriter w(r, 1, 4);
  barrierEpisode(w);
  w.finish("{}");
  EXPECT_EQ(events(r.file, 0), (std::vector<std::string>{"barrier wait 3+3", "stall: barrier 3+3", "stall: barrier 6+1"}));
  EXPECT_EQ(events(r.file, 1), (std::vector<std::string>{"issue 6+1 [2 24 32]"}));
}

TEST(TimelineWriter, MechanismWaitsAndInstantsGoOnTheWarpsMechanismTrack) {
  TimelineRequest r;
  r.file = path("t.json");
  TimelineWriter w(r, 1, 4);
  w.kernelStarted(0, 0);
  for (uint64_t c = 2; c <= 4; ++c) w.mechanismEvent(0, 3, MechanismEvent::WaitCycle, "follower wait", c);
  w.mechanismEvent(0, 3, MechanismEvent::WaitCycle, "follower wait", 6);  // a gap: a second span
  w.mechanismEvent(0, 3, MechanismEvent::Instant, "leader", 7);
  w.mechanismEvent(0, 3, MechanismEvent::WaitBegin, "majority-path wait", 8);
  w.mechanismEvent(0, 3, MechanismEvent::WaitCycle, "follower wait", 8);  // inside, from the same cycle
  w.mechanismEvent(0, 3, MechanismEvent::WaitEnd, "majority-path wait", 11);
  w.mechanismEvent(0, 3, MechanismEvent::WaitBegin, "majority-path wait", 12);  // open at the end
  for (uint64_t c = 0; c < 14; ++c) w.cycle(c + 1, c == 13);
  w.finish("{}");
  // (In the order written: a run is written when it ends.)
  EXPECT_EQ(events(r.file, 10003),
            (std::vector<std::string>{"follower wait 2+3", "leader 7", "follower wait 6+1", "majority-path wait 8+3",
                                      "follower wait 8+1", "majority-path wait 12+2"}));
}

TEST(TimelineWriter, CountersSampleIpcAndOccupancy) {
  TimelineRequest r;
  r.file = path("t.json");
  r.interval = 4;
  TimelineWriter w(r, 1, 4);
  w.kernelStarted(0, 50);
  for (uint64_t c = 0; c < 6; ++c) {
    if (c == 0) w.warpAdmitted(0, 0, 50);
    if (c == 2) w.warpAdmitted(0, 1, 52);
    w.issued(0, 0, 0, 50 + c);
    if (c == 5) w.warpRetired(0, 1, 55);  // resident through cycle 5
    w.cycle(c + 1, c == 5);
  }
  w.finish("{}");
  std::ifstream in(r.file);
  const json t = json::parse(in);
  std::vector<std::string> got;
  for (const json& e : t["traceEvents"])
    if (e["ph"] == "C") got.push_back(e["name"].get<std::string>() + " " + std::to_string(e["ts"].get<uint64_t>()) + " " + e["args"].begin().value().dump());
  // [0, 4): 4 issues in 4 cycles, warps 1+1+2+2 = 6 warp-cycles; [4, 6): 2 in 2, 2+2 = 4.
  EXPECT_EQ(got, (std::vector<std::string>{"IPC 0 1.0", "occupancy 0 1.5", "IPC 4 1.0", "occupancy 4 2.0"}));
}

TEST(TimelineWriter, UnfinishedWriterLeavesNoFile) {
  TimelineRequest r;
  r.file = path("t.json");
  std::remove(r.file.c_str());
  {
    TimelineWriter w(r, 1, 4);
    barrierEpisode(w);
    EXPECT_TRUE(std::ifstream(r.file + ".tmp"));
  }  // (a run that throws never calls finish)
  EXPECT_FALSE(std::ifstream(r.file));
  EXPECT_FALSE(std::ifstream(r.file + ".tmp"));
}

}  // namespace
}  // namespace simtlm::cli
