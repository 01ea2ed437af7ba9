// The statistics registry: names, units, derived values, JSON and the text table.
#include <gtest/gtest.h>

#include <memory>

#include "model/common/stats.h"

using namespace simtlm::stats;

namespace {

struct Frontend {  // a unit owning its counters, as the model's units do
  Counter fetched;
  uint64_t skipped = 0;
};

}  // namespace

TEST(Stats, FlatJsonOfCountersAndDerivedValues) {
  Registry r;
  Frontend fe;
  Counter cycles;
  Group g(r, "sm0.frontend");
  g.add("fetched", fe.fetched, "warp instructions", "warp instructions fetched");
  g.add("skipped", fe.skipped, "warp instructions", "fetches skipped");
  r.add("gpu.cycles", cycles, "cycles", "simulated cycles");
  r.addRatio("gpu.ipc", "sm0.frontend.fetched", "gpu.cycles", "warp instructions/cycle", "IPC");
  g.addDerived("half", [&] { return fe.fetched.value / 2.0; }, "warp instructions", "half");
  EXPECT_EQ(r.toJson().dump(), R"({"gpu.cycles":0,"gpu.ipc":0.0,"sm0.frontend.fetched":0,)"
                               R"("sm0.frontend.half":0.0,"sm0.frontend.skipped":0})");
  for (int i = 0; i < 6; ++i) ++fe.fetched;
  fe.fetched.add(2);
  fe.skipped += 3;
  cycles += 4;
  EXPECT_EQ(r.toJson().dump(), R"({"gpu.cycles":4,"gpu.ipc":2.0,"sm0.frontend.fetched":8,)"
                               R"("sm0.frontend.half":4.0,"sm0.frontend.skipped":3})");
  EXPECT_EQ(*r.value("gpu.ipc"), 2.0);
  EXPECT_FALSE(r.value("gpu.nothing").has_value());
  r.reset();
  EXPECT_EQ(fe.fetched.value, 0u);
  EXPECT_EQ(*r.value("gpu.ipc"), 0.0);
}

TEST(Stats, TableInRegistrationOrderWithUnits) {
  Registry r;
  uint64_t reads = 1234, cycles = 10;
  r.add("sm0.regfile.bank0.reads", reads, "accesses", "bank 0 reads");
  r.add("gpu.cycles", cycles, "cycles", "simulated cycles");
  r.addDerived("gpu.rate", [] { return 0.125; }, "accesses/cycle", "a rate");
  EXPECT_EQ(r.table(),
            "sm0.regfile.bank0.reads   1234  accesses\n"
            "gpu.cycles                  10  cycles\n"
            "gpu.rate                 0.125  accesses/cycle\n");
  EXPECT_EQ(r.table(true),
            "sm0.regfile.bank0.reads   1234  accesses        bank 0 reads\n"
            "gpu.cycles                  10  cycles          simulated cycles\n"
            "gpu.rate                 0.125  accesses/cycle  a rate\n");
  ASSERT_EQ(r.entries().size(), 3u);
  EXPECT_EQ(r.entries()[0].unit, "accesses");
  EXPECT_EQ(r.entries()[2].description, "a rate");
}

TEST(Stats, NonFiniteDerivedValueIsNull) {
  Registry r;
  r.addDerived("x.nan", [] { return 0.0 / 0.0; }, "ratio", "undefined");
  EXPECT_EQ(r.toJson().dump(), R"({"x.nan":null})");
  EXPECT_EQ(r.table(), "x.nan  -  ratio\n");
}

TEST(Stats, DuplicateNameRejected) {
  Registry r;
  uint64_t a = 0, b = 0;
  r.add("sm0.frontend.fetched", a, "warp instructions", "");
  try {
    r.add("sm0.frontend.fetched", b, "warp instructions", "");
    FAIL() << "duplicate accepted";
  } catch (const StatsError& e) {
    EXPECT_STREQ(e.what(), "statistic 'sm0.frontend.fetched' is registered twice");
  }
  EXPECT_THROW(r.addDerived("sm0.frontend.fetched", [] { return 1.0; }, "x", ""), StatsError);
  EXPECT_EQ(r.entries().size(), 1u);
}

TEST(Stats, BadNamesUnitsAndRatiosRejected) {
  Registry r;
  uint64_t a = 0;
  for (const char* bad : {"", "Sm0.fetched", "sm0..fetched", ".x", "x.", "sm0.fetched-all", "a b"})
    EXPECT_THROW(r.add(bad, a, "cycles", ""), StatsError) << bad;
  EXPECT_THROW(r.add("sm0.x", a, "", ""), StatsError);
  try {
    r.addRatio("gpu.ipc", "gpu.instructions", "gpu.cycles", "ratio", "");
    FAIL() << "ratio over unknown names accepted";
  } catch (const StatsError& e) {
    EXPECT_STREQ(e.what(), "ratio 'gpu.ipc' refers to unknown statistic 'gpu.instructions'");
  }
  EXPECT_TRUE(r.entries().empty());
}

TEST(Stats, FreezeKeepsFinalValuesAfterTheOwnersAreGone) {
  Registry r;
  {
    auto a = std::make_unique<uint64_t>(7);
    auto b = std::make_unique<uint64_t>(2);
    r.add("x.a", *a, "events", "a");
    r.add("x.b", *b, "events", "b");
    r.addRatio("x.ratio", "x.a", "x.b", "events/event", "a per b");
    *a = 9;
    r.freeze();
    *a = 100;  // after freezing, the registry no longer reads the owner's counter
  }
  EXPECT_EQ(r.value("x.a"), 9.0);
  EXPECT_EQ(r.value("x.ratio"), 4.5);
  EXPECT_EQ(r.toJson()["x.b"], 2);
}

TEST(Stats, RebuiltUnitsCountOnFromTheOldValues) {
  Registry r;
  auto a = std::make_unique<uint64_t>(7);
  auto b = std::make_unique<uint64_t>(2);
  auto d = std::make_unique<double>(1.5);
  r.add("x.a", *a, "events", "a");
  r.add("x.b", *b, "events", "b");
  r.addDerived("x.d", [p = d.get()] { return *p; }, "events", "d");
  r.addRatio("x.ratio", "x.a", "x.b", "events/event", "a per b");
  r.beginRebuild();
  a.reset();  // the old units go: the registry reads what it kept
  d.reset();
  EXPECT_EQ(r.value("x.a"), 7.0);
  EXPECT_EQ(r.value("x.d"), 1.5);
  EXPECT_EQ(r.value("x.ratio"), 3.5);
  auto a2 = std::make_unique<uint64_t>(0);
  auto d2 = std::make_unique<double>(4.0);
  r.add("x.a", *a2, "events", "a");  // taken over: starts from the old value
  r.addDerived("x.d", [p = d2.get()] { return *p; }, "events", "d");
  r.endRebuild();
  EXPECT_EQ(*a2, 7u);
  *a2 += 3;
  EXPECT_EQ(r.value("x.a"), 10.0);
  EXPECT_EQ(r.value("x.d"), 4.0);
  EXPECT_EQ(r.value("x.ratio"), 5.0);
  EXPECT_EQ(r.value("x.b"), 2.0);  // not added again: its last value
  ASSERT_EQ(r.entries().size(), 4u);
  EXPECT_EQ(r.entries()[0].name, "x.a");  // the registration order is kept
  uint64_t again = 0;
  EXPECT_THROW(r.add("x.a", again, "events", "a"), StatsError);  // outside a rebuild
}
