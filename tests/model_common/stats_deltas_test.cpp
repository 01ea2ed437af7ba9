// Per-launch statistics as deltas (model/common/stats_deltas.h): a period keeps only the counters
// that moved, and reads back as the snapshot difference it replaces.
#include <gtest/gtest.h>

#include <deque>

#include "model/common/stats.h"
#include "model/common/stats_deltas.h"

using namespace simtlm::stats;

namespace {

// The former per-launch statistics: every integer counter of `now` minus that of `before`.
nlohmann::json snapshotDifference(const nlohmann::json& now, const nlohmann::json& before) {
  nlohmann::json d = nlohmann::json::object();
  for (const auto& [k, v] : now.items())
    if (v.is_number_integer()) d[k] = v.get<uint64_t>() - before.value(k, uint64_t{0});
  return d;
}

}  // namespace

TEST(StatsDeltas, APeriodKeepsWhatChangedAndReadsBackAsTheSnapshotDifference) {
  Registry r;
  std::deque<Counter> c(1000);
  for (size_t i = 0; i < c.size(); ++i) r.add("sm" + std::to_string(i) + ".x", c[i], "events", "x");
  r.addDerived("gpu.half", [&] { return c[0].value / 2.0; }, "events", "half of sm0.x");
  c[5] += 7;  // before the first period: not counted in it
  Deltas d;
  d.start(r);
  nlohmann::json before = r.toJson();
  for (int launch = 0; launch < 3; ++launch) {
    c[launch] += 3;
    c[999] += 1;
    d.mark(r);
    const nlohmann::json now = r.toJson();
    EXPECT_EQ(d.toJson(launch, true), snapshotDifference(now, before)) << launch;
    before = now;
  }
  ASSERT_EQ(d.periods(), 3u);
  EXPECT_EQ(d.changed(1), 2u);  // two counters of a thousand moved
  EXPECT_EQ(d.toJson(1, false).dump(), R"({"sm1.x":3,"sm999.x":1})");
  EXPECT_EQ(d.value(2, "sm2.x"), 3u);
  EXPECT_EQ(d.value(2, "sm1.x"), 0u);
  EXPECT_EQ(d.value(2, "gpu.half"), 0u);
  EXPECT_EQ(d.toJson(0, false, [](const std::string& n) { return n != "sm0.x"; }).dump(), R"({"sm999.x":1})");
}

TEST(StatsDeltas, CountersRegisteredDuringTheRunCountFromZero) {
  Registry r;
  Counter a, b;
  r.add("a", a, "events", "a");
  Deltas d;
  d.start(r);
  a += 2;
  d.mark(r);
  b += 5;  // registered after the first period (a rebuild adds a unit)
  r.add("b", b, "events", "b");
  d.mark(r);
  EXPECT_EQ(d.toJson(0, true).dump(), R"({"a":2})");
  EXPECT_EQ(d.toJson(1, true).dump(), R"({"a":0,"b":5})");
}
