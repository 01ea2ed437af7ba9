// The warp timeline writer (timeline.h, docs/timeline.md). Events are formatted by hand and
// streamed: a timeline of a long run holds millions of them.
#include "cli/timeline.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <stdexcept>

namespace po = boost::program_options;

namespace simtlm::cli {

namespace {

// A whole number of cycles in [lo, 1e15] ("" is not one).
bool cycles(const std::string& t, uint64_t lo, uint64_t& out) {
  if (t.empty() || t.size() > 15 || t.find_first_not_of("0123456789") != std::string::npos) return false;
  out = std::stoull(t);
  return out >= lo;
}

// JSON string contents: the names here are the model's own, but a mechanism's could hold anything.
std::string escaped(const char* s) {
  std::string e;
  for (; *s; ++s) {
    const unsigned char c = static_cast<unsigned char>(*s);
    if (c == '"' || c == '\\') e += '\\';
    if (c < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      e += b;
    } else {
      e += static_cast<char>(c);
    }
  }
  return e;
}

constexpr int kMechanismTid = 10000;  // a warp slot's mechanism track: tid kMechanismTid + slot

}  // namespace

void addTimelineOptions(po::options_description& desc) {
  desc.add_options()("timeline", po::value<std::string>(), "write a warp timeline (Chrome trace-event JSON, "
                                                           "Perfetto; docs/timeline.md)")(
      "timeline-window", po::value<std::string>(), "only cycles FROM:TO of the timeline (either may be left out)")(
      "timeline-interval", po::value<std::string>(), "cycles per sample of the timeline's IPC and occupancy counters "
                                                     "(default 1000)");
}

void parseTimelineWindow(const std::string& text, TimelineRequest& r) {
  const std::string usage = "--timeline-window '" + text +
                            "': expected FROM:TO, whole cycles with FROM < TO (either may be left out: 0:5000, "
                            "20000:, :800)";
  const size_t colon = text.find(':');
  if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos) throw std::invalid_argument(usage);
  const std::string from = text.substr(0, colon), to = text.substr(colon + 1);
  r.from = 0;
  r.to = std::numeric_limits<uint64_t>::max();
  if ((!from.empty() && !cycles(from, 0, r.from)) || (!to.empty() && !cycles(to, 1, r.to)) || r.from >= r.to)
    throw std::invalid_argument(usage);
}

TimelineRequest timelineRequestFrom(const po::variables_map& vm) {
  TimelineRequest r;
  for (const char* o : {"timeline-window", "timeline-interval"})
    if (vm.count(o) && !vm.count("timeline")) throw std::invalid_argument(std::string("--") + o + " needs --timeline OUT.json");
  if (!vm.count("timeline")) return r;
  r.file = vm["timeline"].as<std::string>();
  if (r.file.empty()) throw std::invalid_argument("--timeline: expected a file name (OUT.json)");
  if (vm.count("timeline-window")) parseTimelineWindow(vm["timeline-window"].as<std::string>(), r);
  if (vm.count("timeline-interval")) {
    const std::string t = vm["timeline-interval"].as<std::string>();
    if (!cycles(t, 1, r.interval) || r.interval > 1000000000)
      throw std::invalid_argument("--timeline-interval '" + t + "': expected a whole number of cycles in [1, 1000000000]");
  }
  return r;
}

TimelineWriter::TimelineWriter(const TimelineRequest& request, int numSms, int warpSlots)
    : req_(request), tmp_(request.file + ".tmp") {
  out_ = std::fopen(tmp_.c_str(), "wb");
  if (!out_) throw std::runtime_error("cannot write '" + req_.file + "': " + std::strerror(errno));
  buffer_.resize(1 << 20);
  std::setvbuf(out_, buffer_.data(), _IOFBF, buffer_.size());
  sms_.resize(static_cast<size_t>(numSms));
  for (Sm& s : sms_) s.warps.resize(static_cast<size_t>(warpSlots));
  std::fputs("{\"traceEvents\":[\n", out_);
}

TimelineWriter::~TimelineWriter() {
  if (out_) std::fclose(out_);
  if (!finished_) std::remove(tmp_.c_str());
}

// --- the observer ------------------------------------------------------------------------------

void TimelineWriter::kernelStarted(int, uint64_t cycle) {
  kernelStart_ = cycle;  // (every SM reports the same cycle)
  lastSample_ = base_;
  for (Sm& s : sms_) s.residentSince = base_;
}

void TimelineWriter::warpAdmitted(int sm, int, uint64_t cycle) { resident(sm, 1, ts(cycle)); }

void TimelineWriter::warpRetired(int sm, int slot, uint64_t cycle) {
  Warp& w = warp(sm, slot);
  flush(sm, slot, w.pipe);
  flush(sm, kMechanismTid + slot, w.mech);
  resident(sm, -1, ts(cycle) + 1);  // resident through its last cycle
}

void TimelineWriter::issued(int sm, int slot, uint32_t pc, uint64_t cycle) {
  sms_[static_cast<size_t>(sm)].issued++;
  extend(sm, slot, warp(sm, slot).pipe, kIssue, nullptr, ts(cycle), pc);
}

void TimelineWriter::stalled(int sm, int slot, sm::StallReason why, uint64_t cycle) {
  extend(sm, slot, warp(sm, slot).pipe, 1 + static_cast<int>(why), nullptr, ts(cycle), 0);
}

// The barrier span runs from the cycle the warp's bar.sync issues to the cycle the block's last
// bar.sync issues (the release): the cycles the warp arrived early. The bar.sync's own issue
// cycle becomes a span of its own inside it.
void TimelineWriter::barrierArrived(int sm, int slot, uint64_t cycle) {
  Warp& w = warp(sm, slot);
  const uint64_t at = ts(cycle);
  split(sm, slot, w.pipe, at);
  w.pipe.boundary = at + 1;  // (the bar.sync's cycle alone)
  w.atBarrier = true;
  w.barrierStart = at;
  w.barrierMark = openEnclosing(w.pipe);
}

void TimelineWriter::barrierReleased(int sm, int slot, uint64_t cycle) {
  Warp& w = warp(sm, slot);
  if (!w.atBarrier) return;
  const uint64_t at = ts(cycle);
  split(sm, slot, w.pipe, at);
  w.atBarrier = false;
  closeEnclosing(w.pipe, w.barrierMark, spanText(sm, slot, "barrier", "barrier wait", w.barrierStart, at, ""));
}

void TimelineWriter::warpExited(int sm, int slot, uint64_t cycle) {
  instant(sm, slot, "warp", "exit", ts(cycle));
}

void TimelineWriter::mechanismEvent(int sm, int slot, sm::MechanismEvent kind, const char* what, uint64_t cycle) {
  Warp& w = warp(sm, slot);
  const int tid = kMechanismTid + slot;
  const uint64_t at = ts(cycle);
  switch (kind) {
    case sm::MechanismEvent::Instant: return instant(sm, tid, "mechanism", what, at);
    case sm::MechanismEvent::WaitCycle: return extend(sm, tid, w.mech, kWait, what, at, 0);
    case sm::MechanismEvent::WaitBegin:
      split(sm, tid, w.mech, at);
      w.waits.push_back({what, at, openEnclosing(w.mech)});
      return;
    case sm::MechanismEvent::WaitEnd:
      for (auto it = w.waits.rbegin(); it != w.waits.rend(); ++it) {
        if (std::strcmp(it->what, what) != 0) continue;
        split(sm, tid, w.mech, at);
        const size_t mark = it->mark;
        w.waits.erase(std::next(it).base());
        if (closeEnclosing(w.mech, mark, spanText(sm, tid, "mechanism", what, it->start, at, "")))
          for (Wait& x : w.waits) x.mark += x.mark >= mark;
        return;
      }
  }
}

void TimelineWriter::cycle(uint64_t kernelCycles, bool ended) {
  const uint64_t now = now_ = base_ + kernelCycles;  // the end of the cycle just run
  if (now - lastSample_ >= req_.interval || ended) sample(now);
  if (!ended) return;
  closeAll(now);
  base_ = now;
  kernels_++;
}

// --- runs and spans ----------------------------------------------------------------------------

void TimelineWriter::extend(int sm, int tid, Track& t, int kind, const char* what, uint64_t at, uint32_t pc) {
  Run& r = t.run;
  const bool same = r.kind == kind && r.what == what;
  if (same && kind == kIssue && r.end == at + 1) {  // a second instruction in the same cycle
    r.count++;
    r.lastCount++;
    r.lastPc = pc;
    return;
  }
  if (!same || r.end != at || (r.start < t.boundary && at >= t.boundary)) {
    flush(sm, tid, t);
    r = Run{kind, what, at, at, 0, 0, pc, pc, pc, pc};
  }
  r.lastPcBefore = r.lastPc;
  r.lastCycleFirstPc = pc;
  r.end = at + 1;
  r.count++;
  r.lastCount = 1;
  r.lastPc = pc;
}

void TimelineWriter::split(int sm, int tid, Track& t, uint64_t at) {
  Run& r = t.run;
  t.boundary = std::max(t.boundary, at);  // (a bar.sync's own cycle keeps its boundary after it)
  if (r.kind == kNone || r.end <= at) return flush(sm, tid, t);
  if (r.start >= at) return;
  // (The run can only have reached cycle `at` itself: events arrive in cycle order.)
  Run head = r;
  head.end = at;
  head.count -= r.lastCount;
  head.lastPc = r.lastPcBefore;
  r.start = at;
  r.count = r.lastCount;
  r.firstPc = r.lastCycleFirstPc;
  std::swap(r, head);
  flush(sm, tid, t);
  r = head;
}

void TimelineWriter::flush(int sm, int tid, Track& t) {
  Run& r = t.run;
  if (r.kind == kNone) return;
  char args[96];
  if (r.kind == kIssue) {
    std::snprintf(args, sizeof args, "{\"instructions\":%u,\"first_pc\":%u,\"last_pc\":%u}", r.count, r.firstPc, r.lastPc);
    span(sm, tid, "issue", "issue", r.start, r.end, args);
  } else if (r.kind == kWait) {
    span(sm, tid, "mechanism", r.what, r.start, r.end, "");
  } else {
    static const auto names = [] {
      std::vector<std::string> n;
      for (int i = 0; i < sm::kStallReasons; ++i) n.push_back(std::string("stall: ") + sm::stallName(static_cast<sm::StallReason>(i)));
      return n;
    }();
    span(sm, tid, "stall", names[static_cast<size_t>(r.kind - 1)].c_str(), r.start, r.end, "");
  }
  r = Run{};
}

void TimelineWriter::closeAll(uint64_t at) {
  for (size_t i = 0; i < sms_.size(); ++i) {
    const int sm = static_cast<int>(i);
    for (size_t k = 0; k < sms_[i].warps.size(); ++k) {
      Warp& w = sms_[i].warps[k];
      const int slot = static_cast<int>(k);
      flush(sm, slot, w.pipe);
      flush(sm, kMechanismTid + slot, w.mech);
      if (w.atBarrier)
        closeEnclosing(w.pipe, w.barrierMark, spanText(sm, slot, "barrier", "barrier wait", w.barrierStart, at, ""));
      while (!w.waits.empty()) {  // (the latest first: each one's mark is still right)
        const Wait x = w.waits.back();
        w.waits.pop_back();
        closeEnclosing(w.mech, x.mark, spanText(sm, kMechanismTid + slot, "mechanism", x.what, x.start, at, ""));
      }
      w.atBarrier = false;
      w.waits.clear();
      w.pipe.boundary = w.mech.boundary = 0;
    }
    resident(sm, -sms_[i].resident, at);
  }
}

// --- counters ----------------------------------------------------------------------------------

void TimelineWriter::resident(int sm, int delta, uint64_t at) {
  Sm& s = sms_[static_cast<size_t>(sm)];
  at = std::max(at, s.residentSince);
  s.residentSum += static_cast<uint64_t>(s.resident) * (at - s.residentSince);
  s.residentSince = at;
  s.resident += delta;
}

void TimelineWriter::sample(uint64_t at) {
  if (at <= lastSample_) return;
  const double n = static_cast<double>(at - lastSample_);
  for (size_t i = 0; i < sms_.size(); ++i) {
    Sm& s = sms_[i];
    resident(static_cast<int>(i), 0, at);
    // Only an interval that starts inside the window is sampled (at its start, clipped).
    if (at > req_.from && lastSample_ < req_.to) {
      const uint64_t t = std::max(lastSample_, req_.from);
      counter(static_cast<int>(i), "IPC", "ipc", static_cast<double>(s.issued) / n, t);
      counter(static_cast<int>(i), "occupancy", "resident_warps", static_cast<double>(s.residentSum) / n, t);
    }
    s.issued = 0;
    s.residentSum = 0;
  }
  lastSample_ = at;
}

// --- output ------------------------------------------------------------------------------------

TimelineWriter::Track& TimelineWriter::track(int sm, int tid) {
  Warp& w = warp(sm, tid >= kMechanismTid ? tid - kMechanismTid : tid);
  return tid >= kMechanismTid ? w.mech : w.pipe;
}

void TimelineWriter::put(int sm, int tid, std::string event) {
  if (event.empty()) return;
  Track& t = track(sm, tid);
  if (t.open > 0) return t.held.push_back(std::move(event));
  emit(event);
}

size_t TimelineWriter::openEnclosing(Track& t) {
  t.open++;
  return t.held.size();
}

bool TimelineWriter::closeEnclosing(Track& t, size_t mark, std::string event) {
  t.open--;
  const bool placed = !event.empty();
  if (placed) t.held.insert(t.held.begin() + static_cast<std::ptrdiff_t>(mark), std::move(event));
  if (t.open == 0) {
    for (const std::string& e : t.held) emit(e);
    t.held.clear();
  }
  return placed;
}

void TimelineWriter::span(int sm, int tid, const char* cat, const char* name, uint64_t start, uint64_t end,
                          const std::string& args) {
  put(sm, tid, spanText(sm, tid, cat, name, start, end, args));
}

std::string TimelineWriter::spanText(int sm, int tid, const char* cat, const char* name, uint64_t start, uint64_t end,
                                     const std::string& args) {
  start = std::max(start, req_.from);
  end = std::min(end, req_.to);
  if (start >= end) return "";
  nameTrack(sm, tid);
  char b[256];
  std::snprintf(b, sizeof b, "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%" PRIu64
                ",\"dur\":%" PRIu64 "%s%s}",
                cat, escaped(name).c_str(), sm, tid, start, end - start, args.empty() ? "" : ",\"args\":", args.c_str());
  return b;
}

void TimelineWriter::instant(int sm, int tid, const char* cat, const char* name, uint64_t at) {
  if (at < req_.from || at >= req_.to) return;
  nameTrack(sm, tid);
  char b[256];
  std::snprintf(b, sizeof b, "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%" PRIu64 "}",
                cat, escaped(name).c_str(), sm, tid, at);
  put(sm, tid, b);
}

void TimelineWriter::counter(int sm, const char* name, const char* key, double value, uint64_t at) {
  nameTrack(sm, -1);
  char b[256];
  std::snprintf(b, sizeof b, "{\"ph\":\"C\",\"name\":\"%s\",\"pid\":%d,\"tid\":0,\"ts\":%" PRIu64 ",\"args\":{\"%s\":%.4f}}",
                name, sm, at, key, value);
  emit(b);
}

// Process metadata with the SM's first event, thread metadata with the track's (tid -1: only
// the process). Sort indexes put each warp's mechanism track under its pipeline track.
void TimelineWriter::nameTrack(int sm, int tid) {
  Sm& s = sms_[static_cast<size_t>(sm)];
  char b[256];
  if (!s.named) {
    s.named = true;
    std::snprintf(b, sizeof b, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"tid\":0,\"ts\":0,\"args\":{\"name\":\"SM %d\"}}", sm, sm);
    emit(b);
    std::snprintf(b, sizeof b, "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%d,\"tid\":0,\"ts\":0,\"args\":{\"sort_index\":%d}}", sm, sm);
    emit(b);
  }
  if (tid < 0) return;
  const bool mech = tid >= kMechanismTid;
  const int slot = mech ? tid - kMechanismTid : tid;
  Warp& w = s.warps[static_cast<size_t>(slot)];
  Track& t = mech ? w.mech : w.pipe;
  if (t.named) return;
  t.named = true;
  std::snprintf(b, sizeof b, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,\"ts\":0,\"args\":{\"name\":\"warp %d%s\"}}",
                sm, tid, slot, mech ? " (mechanism)" : "");
  emit(b);
  std::snprintf(b, sizeof b, "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%d,\"tid\":%d,\"ts\":0,\"args\":{\"sort_index\":%d}}",
                sm, tid, 2 * slot + (mech ? 1 : 0));
  emit(b);
}

void TimelineWriter::emit(const std::string& event) {
  if (!first_) std::fputs(",\n", out_);
  first_ = false;
  std::fputs(event.c_str(), out_);
  events_++;
}

void TimelineWriter::finish(const std::string& otherData) {
  sample(now_);  // (a run that stopped inside a kernel)
  closeAll(now_);
  std::fprintf(out_, "\n],\"displayTimeUnit\":\"ms\",\"otherData\":%s}\n", otherData.c_str());
  const bool ok = std::fflush(out_) == 0 && !std::ferror(out_);
  const int err = errno;
  std::fclose(out_);
  out_ = nullptr;
  if (!ok) throw std::runtime_error("cannot write '" + req_.file + "': " + std::strerror(err ? err : EIO));
  if (std::rename(tmp_.c_str(), req_.file.c_str()) != 0)
    throw std::runtime_error("cannot write '" + req_.file + "': " + std::strerror(errno));
  finished_ = true;
}

}  // namespace simtlm::cli
