// Warp timelines (`simtlm run --timeline`, docs/timeline.md) through the program itself: the
// file against the trace-event format, a known kernel's barrier span, the cycle window, DARSIE's
// events against its statistics, the statistics unchanged by a timeline, and bad options.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using nlohmann::json;

const std::string kScenarios = SIMTLM_SOURCE_DIR "/scenarios/";

std::string scratch(const std::string& name) {
  const auto* t = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(SIMTLM_SCRATCH_DIR "/timeline-") + t->name() + "-" + name;
}

// Runs `simtlm ARGS`; returns the exit status, with its standard error in `err`.
int simtlm(const std::string& args, std::string* err = nullptr) {
  const std::string errFile = scratch("stderr.txt");
  const int rc = std::system((std::string(SIMTLM_BINARY) + " " + args + " > /dev/null 2> " + errFile).c_str());
  if (err) {
    std::ifstream in(errFile);
    std::stringstream s;
    s << in.rdbuf();
    *err = s.str();
  }
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

json load(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  return json::parse(in);
}

// Runs the scenario with a timeline (and the result JSON); returns both.
std::pair<json, json> runWithTimeline(const std::string& scenario, const std::string& extra = "") {
  const std::string tl = scratch("timeline.json"), res = scratch("result.json");
  std::remove(tl.c_str());
  std::string err;
  EXPECT_EQ(simtlm("run " + kScenarios + scenario + " --timeline " + tl + " --json " + res + " " + extra, &err), 0) << err;
  return {load(tl), load(res)};
}

struct Span {
  std::string name;
  int pid, tid;
  uint64_t ts, end;
  json args;
};

std::vector<Span> spans(const json& t, const std::string& cat = "") {
  std::vector<Span> out;
  for (const json& e : t["traceEvents"])
    if (e["ph"] == "X" && (cat.empty() || e.value("cat", "") == cat))
      out.push_back({e["name"], e["pid"], e["tid"], e["ts"], e["ts"].get<uint64_t>() + e["dur"].get<uint64_t>(),
                     e.value("args", json::object())});
  return out;
}

// The trace-event format's rules for the phases the timeline writes, every timestamp inside
// [from, to), spans of one track nested (Perfetto and chrome://tracing require it of complete
// events on one thread), and a name for every process and thread that has events.
void checkFormat(const json& t, uint64_t from = 0, uint64_t to = UINT64_MAX) {
  ASSERT_TRUE(t.is_object());
  ASSERT_TRUE(t["traceEvents"].is_array());
  ASSERT_TRUE(t["displayTimeUnit"] == "ms" || t["displayTimeUnit"] == "ns");
  ASSERT_TRUE(t["otherData"].is_object());
  std::set<int> processes;
  std::set<std::pair<int, int>> threads, used;
  std::set<int> usedPids;
  std::map<std::pair<int, int>, std::vector<std::pair<uint64_t, uint64_t>>> byTrack;
  std::map<std::tuple<int, int, uint64_t>, uint64_t> firstDur;  // per track and start: the first span's length
  for (const json& e : t["traceEvents"]) {
    SCOPED_TRACE(e.dump());
    ASSERT_TRUE(e["ph"].is_string());
    ASSERT_TRUE(e["name"].is_string());
    ASSERT_TRUE(e["pid"].is_number_integer());
    ASSERT_TRUE(e["tid"].is_number_integer());
    ASSERT_TRUE(e["ts"].is_number());
    ASSERT_GE(e["ts"].get<double>(), 0);
    const std::string ph = e["ph"];
    const int pid = e["pid"], tid = e["tid"];
    const uint64_t ts = e["ts"];
    if (ph == "M") {
      ASSERT_TRUE(e["args"].is_object());
      if (e["name"] == "process_name") processes.insert(pid);
      if (e["name"] == "thread_name") threads.insert({pid, tid});
      if (e["name"] == "process_name" || e["name"] == "thread_name") ASSERT_TRUE(e["args"]["name"].is_string());
      continue;
    }
    usedPids.insert(pid);
    ASSERT_GE(ts, from);
    if (ph == "X") {
      ASSERT_TRUE(e["dur"].is_number_integer());
      ASSERT_GT(e["dur"].get<uint64_t>(), 0u);
      ASSERT_LE(ts + e["dur"].get<uint64_t>(), to);
      used.insert({pid, tid});
      byTrack[{pid, tid}].push_back({ts, ts + e["dur"].get<uint64_t>()});
      // chrome://tracing nests spans that start together in file order: the longer comes first.
      const auto [it, first] = firstDur.insert({{pid, tid, ts}, e["dur"].get<uint64_t>()});
      if (!first) ASSERT_LE(e["dur"].get<uint64_t>(), it->second) << "a span enclosing one written before it";
    } else if (ph == "i") {
      ASSERT_LT(ts, to);
      ASSERT_EQ(e["s"], "t");
      used.insert({pid, tid});
    } else if (ph == "C") {
      ASSERT_LT(ts, to);
      ASSERT_TRUE(e["args"].is_object());
      ASSERT_FALSE(e["args"].empty());
      for (const auto& [k, v] : e["args"].items()) ASSERT_TRUE(v.is_number()) << k;
    } else {
      FAIL() << "unexpected phase " << ph;
    }
  }
  for (int p : usedPids) EXPECT_TRUE(processes.count(p)) << "no process_name for pid " << p;
  for (const auto& pt : used) EXPECT_TRUE(threads.count(pt)) << "no thread_name for pid " << pt.first << " tid " << pt.second;
  for (auto& [track, list] : byTrack) {
    std::sort(list.begin(), list.end(), [](auto a, auto b) { return a.first != b.first ? a.first < b.first : a.second > b.second; });
    std::vector<uint64_t> open;  // ends of the enclosing spans
    for (const auto& [s, e] : list) {
      while (!open.empty() && open.back() <= s) open.pop_back();
      if (!open.empty()) ASSERT_LE(e, open.back()) << "span [" << s << "," << e << ") overlaps its neighbour on pid "
                                                   << track.first << " tid " << track.second;
      open.push_back(e);
    }
  }
}

uint64_t stat(const json& result, const std::string& name) { return result["stats"].at(name).get<uint64_t>(); }

TEST(Timeline, FollowsTheTraceEventFormatAndAddsUpToTheStatistics) {
  const auto [t, r] = runWithTimeline("divergence.yaml");
  checkFormat(t);
  // Every issued instruction is in an issue span, and every stall cycle the statistics count
  // (but idle ones, which no warp carries) in a stall span of its reason.
  std::map<std::string, uint64_t> byName;
  uint64_t instructions = 0;
  for (const Span& s : spans(t)) {
    byName[s.name + "@" + std::to_string(s.pid)] += s.end - s.ts;
    if (s.name == "issue") instructions += s.args["instructions"].get<uint64_t>();
  }
  uint64_t issued = 0;
  for (int sm = 0; sm < 2; ++sm) {
    const std::string p = "sm" + std::to_string(sm) + ".";
    issued += stat(r, p + "issue.warp_instructions");
    for (const char* reason : {"empty_ibuffer", "dependence", "barrier", "memory", "structural", "sync"})
      EXPECT_EQ(byName[std::string("stall: ") + reason + "@" + std::to_string(sm)], stat(r, p + "issue.stall." + reason))
          << p << reason;
  }
  EXPECT_EQ(instructions, issued);
  EXPECT_GT(issued, 0u);
  // Counters: one IPC and one occupancy sample per SM and interval.
  int ipc = 0;
  for (const json& e : t["traceEvents"])
    if (e["ph"] == "C" && e["name"] == "IPC") ipc++;
  const uint64_t cycles = stat(r, "gpu.cycles");
  EXPECT_EQ(ipc, 2 * static_cast<int>((cycles + 999) / 1000));
}

TEST(Timeline, LeavesTheStatisticsAsTheyAre) {
  const std::string plain = scratch("plain.json");
  ASSERT_EQ(simtlm("run " + kScenarios + "divergence.yaml --json " + plain), 0);
  const auto [t, r] = runWithTimeline("divergence.yaml");
  EXPECT_EQ(load(plain)["stats"], r["stats"]);
}

// Warp 0 reaches bar.sync at once, warps 1-3 after eight dependent rcp.f32: warp 0's barrier
// span starts in the cycle its bar.sync issues and ends in the cycle the last warp's does.
TEST(Timeline, BarrierSpanOfAnEarlyWarpLastsUntilTheLastArrival) {
  const auto [t, r] = runWithTimeline("barrier_late_warps.yaml");
  checkFormat(t);
  const std::vector<Span> all = spans(t);
  std::vector<Span> barrier;
  for (const Span& s : all)
    if (s.name == "barrier wait") barrier.push_back(s);
  ASSERT_FALSE(barrier.empty());
  const Span* early = nullptr;
  for (const Span& s : barrier)
    if (s.tid == 0) early = &s;
  ASSERT_NE(early, nullptr) << "no barrier span of warp 0";
  // The cycle each warp's bar.sync issued: the timeline gives that cycle an issue span of its
  // own (one cycle, holding the bar.sync; the last warp, released at once, may dual-issue the
  // next instruction in it). Warp 0's starts its barrier span.
  uint32_t barPc = 0;
  for (const Span& s : all)
    if (s.name == "issue" && s.tid == 0 && s.ts == early->ts) barPc = s.args["first_pc"];
  ASSERT_EQ(barPc, 13u * 8) << "bar.sync is the kernel's 14th instruction";
  std::map<int, uint64_t> arrival;
  for (const Span& s : all)
    if (s.name == "issue" && s.end == s.ts + 1 && s.args["first_pc"] <= barPc && s.args["last_pc"] >= barPc)
      arrival[s.tid] = s.ts;
  ASSERT_EQ(arrival.size(), 4u);
  const uint64_t release = std::max({arrival[1], arrival[2], arrival[3]});
  EXPECT_EQ(early->ts, arrival[0]);
  EXPECT_EQ(early->end, release);
  // Warps 1-3 run at least 8 x the SFU latency longer (exec.latency.sfu: 30 in the scenario).
  EXPECT_GE(early->end - early->ts, 8u * 30);
  // Every warp that arrived before the last waits until the same release; the last one not at all.
  for (const Span& s : barrier) {
    EXPECT_EQ(s.end, release) << "warp " << s.tid;
    EXPECT_EQ(s.ts, arrival[s.tid]) << "warp " << s.tid;
  }
  int lastArrivals = 0;
  for (const auto& [tid, at] : arrival) lastArrivals += at == release;
  EXPECT_EQ(static_cast<int>(barrier.size()), 4 - lastArrivals);
  EXPECT_EQ(stat(r, "sm0.barriers"), 1u);
}

// The window keeps exactly the parts of the full timeline's spans inside it.
TEST(Timeline, WindowClipsSpansAndDropsWhatLiesOutside) {
  const auto [full, r1] = runWithTimeline("barrier_late_warps.yaml");
  const uint64_t from = 290, to = 410;  // inside warp 0's barrier wait (cycles 264-519)
  const auto [win, r2] = runWithTimeline("barrier_late_warps.yaml", "--timeline-window 290:410 --timeline-interval 20");
  checkFormat(win, from, to);
  std::multiset<std::tuple<std::string, int, int, uint64_t, uint64_t>> want, got;
  for (const Span& s : spans(full))
    if (s.end > from && s.ts < to) want.insert({s.name, s.pid, s.tid, std::max(s.ts, from), std::min(s.end, to)});
  for (const Span& s : spans(win)) got.insert({s.name, s.pid, s.tid, s.ts, s.end});
  EXPECT_EQ(got, want);
  bool clipped = false;  // the window cuts a span (warp 0's barrier wait at least)
  for (const Span& s : spans(full)) clipped = clipped || (s.ts < from && s.end > from) || (s.ts < to && s.end > to);
  EXPECT_TRUE(clipped);
  // Counters every 20 cycles, the first at 290 (its interval [280, 300) clipped), the last at 400.
  std::vector<uint64_t> at;
  for (const json& e : win["traceEvents"])
    if (e["ph"] == "C" && e["name"] == "IPC") at.push_back(e["ts"]);
  EXPECT_EQ(at, (std::vector<uint64_t>{290, 300, 320, 340, 360, 380, 400}));
  EXPECT_EQ(win["otherData"]["window"], json::array({290, 410}));
}

// DARSIE's events are those its statistics count: one instant per leader election, per
// skip retired and per warp leaving the majority path; follower and majority-path waits last
// as many warp-cycles as darsie.leaderwb_waits and darsie.branch_stall_cycles.
TEST(Timeline, DarsieEventsMatchItsStatistics) {
  const auto [t, r] = runWithTimeline("darsie_02_simd_divergence.yaml");
  checkFormat(t);
  std::map<std::string, uint64_t> instants, waits;
  for (const json& e : t["traceEvents"])
    if (e.value("cat", "") == "mechanism") {
      ASSERT_GE(e["tid"].get<int>(), 10000) << "mechanism events go on the warps' mechanism tracks";
      if (e["ph"] == "i") instants[e["name"]]++;
      if (e["ph"] == "X") waits[e["name"]] += e["dur"].get<uint64_t>();
    }
  EXPECT_EQ(instants["leader"], stat(r, "sm0.darsie.leader_elections"));
  EXPECT_EQ(instants["skip"], stat(r, "sm0.darsie.skipped"));
  EXPECT_EQ(instants["majority leave"], stat(r, "sm0.darsie.majority_leaves"));
  EXPECT_EQ(waits["follower wait"], stat(r, "sm0.darsie.leaderwb_waits"));
  EXPECT_EQ(waits["majority-path wait"], stat(r, "sm0.darsie.branch_stall_cycles"));
  // The scenario's own figures (its checks): 5 elections, 13 skips, one warp leaves the path.
  EXPECT_EQ(instants["leader"], 5u);
  EXPECT_EQ(instants["skip"], 13u);
  EXPECT_EQ(instants["majority leave"], 1u);
  EXPECT_GT(waits["majority-path wait"], 0u);
  EXPECT_GT(waits["follower wait"], 0u);
  EXPECT_EQ(t["otherData"]["mechanism"], "darsie");
}

// The SMs on several host threads (sim.threads, docs/performance.md): the same timeline, every
// event in the same place, and the same statistics as on one. matmul runs 16 blocks on 16 of
// the 28 SMs with barriers, and DARSIE adds its own events; 8 threads oversubscribe this host.
TEST(Timeline, SameTimelineAndStatisticsForEveryThreadCount) {
  const std::string scenario = std::string(SIMTLM_SOURCE_DIR) + "/tests/small_sizes/matmul.yaml";
  json firstTimeline, firstStats;
  for (int threads : {1, 2, 3, 8}) {
    const std::string tl = scratch("timeline" + std::to_string(threads) + ".json");
    const std::string res = scratch("result" + std::to_string(threads) + ".json");
    std::string err;
    ASSERT_EQ(simtlm("run " + scenario + " --mechanism darsie --set sim.threads=" + std::to_string(threads) +
                         " --set sim.adapt_threads=false --timeline " + tl + " --json " + res, &err), 0) << err;
    json t = load(tl), r = load(res);
    if (threads == 1) {
      firstTimeline = t;
      firstStats = r["stats"];
      size_t mechanism = 0;
      for (const json& e : t["traceEvents"]) mechanism += e.value("cat", "") == "mechanism";
      EXPECT_GT(mechanism, 100u) << "DARSIE's events are in the timeline";
      continue;
    }
    EXPECT_EQ(r["config"]["sim.threads"], threads);
    EXPECT_TRUE(t == firstTimeline) << threads << " threads: the timeline differs from one thread's";
    EXPECT_TRUE(r["stats"] == firstStats) << threads << " threads: the statistics differ from one thread's";
  }
}

TEST(Timeline, RejectsBadOptionsWithOneMessage) {
  const std::string out = scratch("never.json");
  std::remove(out.c_str());
  const std::string run = "run " + kScenarios + "barrier_late_warps.yaml ";
  struct Case {
    std::string args, message;
  };
  for (const Case& c : std::vector<Case>{
           {"--timeline " + out + " --timeline-window 90:30", "--timeline-window '90:30': expected FROM:TO"},
           {"--timeline " + out + " --timeline-window 5", "--timeline-window '5': expected FROM:TO"},
           {"--timeline " + out + " --timeline-window a:b", "--timeline-window 'a:b': expected FROM:TO"},
           {"--timeline " + out + " --timeline-window 1:2:3", "--timeline-window '1:2:3': expected FROM:TO"},
           {"--timeline " + out + " --timeline-interval 0", "--timeline-interval '0': expected a whole number"},
           {"--timeline-window 0:10", "--timeline-window needs --timeline OUT.json"},
           {"--timeline /nonexistent/dir/t.json", "/nonexistent/dir/t.json"},
       }) {
    std::string err;
    EXPECT_NE(simtlm(run + c.args, &err), 0) << c.args;
    EXPECT_NE(err.find(c.message), std::string::npos) << c.args << ": " << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  }
  EXPECT_FALSE(std::ifstream(out)) << "a rejected run wrote " << out;
}

// A run stopped before its end leaves no file under the timeline's name.
TEST(Timeline, InterruptedRunLeavesNoTimeline) {
  const std::string out = scratch("cut.json");
  std::remove(out.c_str());
  std::remove((out + ".tmp").c_str());
  const std::string cmd = "timeout -s KILL 2 " + std::string(SIMTLM_BINARY) + " run " + kScenarios +
                          "matmul.yaml --timeline " + out + " > /dev/null 2>&1";
  const int rc = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) != 0) << "matmul finished within 2 s: the test needs a longer run";
  EXPECT_FALSE(std::ifstream(out)) << "a killed run left " << out;
  std::remove((out + ".tmp").c_str());
}

}  // namespace
