// The energy calculator on hand-written statistics: energy is exactly the sum of count x energy
// per event, scaling with voltage and clock, linearity, mechanism overhead, and the power trace.
#include <gtest/gtest.h>

#include "cli/energy_options.h"
#include "energy_test_support.h"
#include "model/energy/model.h"
#include "model/energy/power_trace.h"

namespace simtlm {
namespace {

using energy::Breakdown;
using energy::EnergyModel;

size_t idx(const char* name) { return static_cast<size_t>(energy::componentIndex(name)); }

energy::RunInfo twoSms(const std::string& mechanism = "baseline") {
  energy::RunInfo r;
  r.numSms = 2;
  r.laneGroup = 8;  // a lane group is a quarter of the table's 32-lane access
  r.l2Line = 128;
  r.clockMhz = 1000;
  r.mechanism = mechanism;
  return r;
}

// The hand-computed case. Every number is exact in binary floating point.
const std::map<std::string, double> kEvents = {{"regfile.read", 4},     {"regfile.write", 8}, {"fp.op", 0.5},
                                               {"int.mul", 2},          {"dram.byte", 0.25},  {"l2.fill", 64},
                                               {"sm_base.idle_cycle", 1}, {"darsie.skip_table.lookup", 16}};
const std::map<std::string, double> kStatics = {{"regfile", 1000}, {"l2", 500}, {"darsie.rename", 1000}};

nlohmann::json handStats() {
  return {{"sm0.regfile.read_lane_groups", 40}, {"sm0.regfile.write_lane_groups", 12},
          {"sm1.regfile.read_lane_groups", 4},  {"sm0.exec.fp.lanes", 64},
          {"sm1.exec.int_mul.lanes", 3},        {"dram.bytes", 256},
          {"l2.bytes_from_memory", 256},        {"sm0.cycles", 100},
          {"sm0.active_cycles", 90},            {"sm1.cycles", 60},
          {"sm1.active_cycles", 60},            {"gpu.cycles", 100},
          {"sm0.darsie.skip_table.lookups", 5}};
}

TEST(EnergyCalculator, EnergyIsCountTimesEnergyPerEventExactly) {
  const EnergyModel m(test::table(kEvents, kStatics, 1.0, 0.5), twoSms());
  std::vector<std::string> missing;
  const Breakdown b = m.evaluate(m.valuesOf(handStats(), &missing));
  // regfile: sm0 40 x 4 x 8/32 + 12 x 8 x 8/32 = 40 + 24; sm1 4 x 4 x 8/32 = 4
  EXPECT_EQ(b.events[idx("regfile")][0], 44.0);
  EXPECT_EQ(b.events[idx("regfile")][1], 24.0);
  EXPECT_EQ(b.components[idx("fp")].dynamic, 32.0);       // 64 lanes x 0.5
  EXPECT_EQ(b.components[idx("int")].dynamic, 6.0);       // 3 lanes x 2
  EXPECT_EQ(b.components[idx("dram")].dynamic, 64.0);     // 256 bytes x 0.25
  EXPECT_EQ(b.components[idx("l2")].dynamic, 128.0);      // 256 bytes / 128 = 2 lines x 64
  EXPECT_EQ(b.components[idx("sm_base")].dynamic, 10.0);  // sm0 (100 - 90) idle cycles x 1
  // Static: 1000 mW at 1000 MHz = 1000 pJ per cycle. An SM leaks while clocked and, by the
  // gated fraction 0.5, while gated: sm0 100 cycles; sm1 60 + 0.5 x 40 = 80 cycles.
  EXPECT_EQ(b.components[idx("regfile")].statik, 180000.0);
  EXPECT_EQ(b.components[idx("l2")].statik, 50000.0);     // 500 pJ per cycle x 100
  // The DARSIE structures are not charged in a baseline run, whatever the counters say.
  EXPECT_EQ(b.components[idx("darsie.skip_table")].total(), 0.0);
  EXPECT_EQ(b.components[idx("darsie.rename")].total(), 0.0);
  EXPECT_EQ(b.overhead.total(), 0.0);
  EXPECT_EQ(b.total.dynamic, 308.0);
  EXPECT_EQ(b.total.statik, 230000.0);
  EXPECT_EQ(b.sms[0].dynamic, 106.0);  // 40 + 24 + 32 + 10
  EXPECT_EQ(b.sms[0].statik, 100000.0);
  EXPECT_EQ(b.sms[1].dynamic, 10.0);   // 4 + 6
  EXPECT_EQ(b.sms[1].statik, 80000.0);
  EXPECT_EQ(b.gpuWide.dynamic, 192.0);
  EXPECT_EQ(b.gpuWide.statik, 50000.0);
  EXPECT_EQ(b.cycles, 100.0);
  const nlohmann::json j = energy::toJson(m, b, missing);
  EXPECT_DOUBLE_EQ(j["average_power_w"].get<double>(), 230308e-12 / 100e-9);
  EXPECT_DOUBLE_EQ(j["edp_js"].get<double>(), 230308e-12 * 100e-9);
  EXPECT_EQ(j["components"]["regfile"]["events_pj"]["read"].get<double>(), 44.0);
  // Counters the table reads but the statistics lack are listed (per SM as sm*).
  const auto miss = j["missing_counters"].get<std::vector<std::string>>();
  EXPECT_NE(std::find(miss.begin(), miss.end(), "sm*.frontend.fetched"), miss.end());
  EXPECT_NE(std::find(miss.begin(), miss.end(), "sm*.regfile.write_lane_groups"), miss.end());  // sm1's
}

TEST(EnergyCalculator, MechanismStructuresAreChargedAsOverheadInTheirRuns) {
  const EnergyModel m(test::table(kEvents, kStatics, 1.0, 0.5), twoSms("darsie-no-cf-sync"));
  const Breakdown b = m.evaluate(m.valuesOf(handStats()));
  EXPECT_EQ(b.components[idx("darsie.skip_table")].dynamic, 80.0);  // 5 skip-table lookups x 16
  EXPECT_EQ(b.components[idx("darsie.rename")].statik, 180000.0);   // like the regfile's leakage
  EXPECT_EQ(b.overhead.dynamic, 80.0);
  EXPECT_EQ(b.overhead.statik, 180000.0);
  EXPECT_EQ(b.total.dynamic, 388.0);
}

// A composition charges the structures of each of its mechanisms, wherever DARSIE is listed.
TEST(EnergyCalculator, ACompositionIsChargedItsMechanismsStructures) {
  for (const char* name : {"count-issued+darsie", "darsie-ignore-store+count-issued"}) {
    const EnergyModel m(test::table(kEvents, kStatics, 1.0, 0.5), twoSms(name));
    const Breakdown b = m.evaluate(m.valuesOf(handStats()));
    EXPECT_EQ(b.overhead.dynamic, 80.0) << name;
    EXPECT_EQ(b.overhead.statik, 180000.0) << name;
  }
  EXPECT_TRUE(energy::mechanismUses("count-issued+darsie-no-cf-sync", "darsie darsie-*"));
  EXPECT_TRUE(energy::mechanismUses("darsie", "darsie darsie-*"));
  EXPECT_FALSE(energy::mechanismUses("count-issued+darsiex", "darsie darsie-*"));
  EXPECT_FALSE(energy::mechanismUses("baseline", "darsie darsie-*"));
  // Exact names: "uv" owns uv, not uv-srf.
  EXPECT_TRUE(energy::mechanismUses("uv", "uv-token uv-irb uv"));
  EXPECT_FALSE(energy::mechanismUses("uv-srf", "uv-token uv-irb uv"));
  EXPECT_TRUE(energy::mechanismUses("uv-srf-irb", "uv-irb uv uv-srf-irb"));
}

TEST(EnergyCalculator, DoubledCountsDoubleDynamicEnergy) {
  const EnergyModel m(cli::loadEnergyTable(SIMTLM_SOURCE_DIR "/configs/energy/default.yaml"), twoSms());
  std::vector<double> v = m.valuesOf(handStats());
  const Breakdown once = m.evaluate(v);
  for (double& x : v) x *= 2;
  const Breakdown twice = m.evaluate(v);
  EXPECT_GT(once.total.dynamic, 0);
  EXPECT_EQ(twice.total.dynamic, 2 * once.total.dynamic);
  for (size_t c = 0; c < once.components.size(); ++c)
    EXPECT_EQ(twice.components[c].dynamic, 2 * once.components[c].dynamic) << energy::catalogue()[c].name;
}

TEST(EnergyCalculator, HalvingTheVoltageQuartersDynamicAndHalvesStaticEnergy) {
  const energy::EnergyTable t = test::table(kEvents, kStatics, 1.0, 0.5);
  const EnergyModel full(t, twoSms()), half(t, twoSms(), {0.5, 0});
  const Breakdown a = full.evaluate(full.valuesOf(handStats())), b = half.evaluate(half.valuesOf(handStats()));
  for (size_t c = 0; c < a.components.size(); ++c) {
    const bool offChip = energy::catalogue()[c].name == "dram";  // DRAM has its own supply
    EXPECT_EQ(b.components[c].dynamic, a.components[c].dynamic * (offChip ? 1.0 : 0.25)) << energy::catalogue()[c].name;
    EXPECT_EQ(b.components[c].statik, a.components[c].statik * (offChip ? 1.0 : 0.5)) << energy::catalogue()[c].name;
  }
  const double dram = a.components[idx("dram")].dynamic;
  EXPECT_EQ(b.total.dynamic - dram, (a.total.dynamic - dram) / 4);
  EXPECT_EQ(half.dynamicScale(), 0.25);
}

TEST(EnergyCalculator, ClockChangesTimeAndStaticEnergyOnly) {
  const energy::EnergyTable t = test::table(kEvents, kStatics, 1.0, 0.5);
  const EnergyModel base(t, twoSms()), slow(t, twoSms(), {0, 500});
  const Breakdown a = base.evaluate(base.valuesOf(handStats())), b = slow.evaluate(slow.valuesOf(handStats()));
  EXPECT_EQ(b.total.dynamic, a.total.dynamic);
  EXPECT_EQ(b.total.statik, 2 * a.total.statik);  // the same cycles take twice as long
  EXPECT_EQ(slow.seconds(100), 200e-9);
}

TEST(EnergyCalculator, OperatingPointOutOfRangeIsAnError) {
  const energy::EnergyTable t = test::table({});
  EXPECT_THROW(EnergyModel(t, twoSms(), {0.05, 0}), std::invalid_argument);
  EXPECT_THROW(EnergyModel(t, twoSms(), {0, 20000}), std::invalid_argument);
  try {
    EnergyModel(t, twoSms(), {3, 0});
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "energy voltage 3 V is outside [0.1, 2] V");
  }
}

TEST(PowerTrace, WindowsAddUpToTheTotalAndZeroCycleSnapshotsJoinTheLastWindow) {
  const EnergyModel m(test::table(kEvents, kStatics, 1.0, 0.5), twoSms());
  const nlohmann::json end = handStats();
  energy::PowerTrace trace(m);
  auto at = [&](double f) {  // every counter at a fraction f of its final value
    std::vector<double> v = m.valuesOf(end);
    for (double& x : v) x *= f;
    return v;
  };
  trace.sample(at(0.0), 1);   // nothing yet: no window
  trace.sample(at(0.25), 1);
  trace.sample(at(0.5), 1);
  trace.sample(at(1.0), 2);
  ASSERT_EQ(trace.windows().size(), 3u);
  EXPECT_EQ(trace.windows()[0].startCycle, 0u);
  EXPECT_EQ(trace.windows()[0].endCycle, 25u);
  EXPECT_EQ(trace.windows()[2].launch, 2);
  EXPECT_EQ(trace.windows()[2].endCycle, 100u);
  std::vector<double> late = at(1.0);
  for (size_t i = 0; i < late.size(); ++i)
    if (m.counters()[i] == "dram.bytes") late[i] += 4;  // one more event, no more cycles
  trace.sample(late, 2);
  ASSERT_EQ(trace.windows().size(), 3u);
  const Breakdown total = m.evaluate(late);
  EXPECT_NEAR(trace.totalPj(), total.total.total(), 1e-9 * total.total.total());
  // CSV: a header and one row per window, powers in W.
  const std::string csv = trace.csv();
  EXPECT_EQ(csv.substr(0, csv.find('\n')).rfind("launch,start_cycle,end_cycle,start_s,end_s,fetch_w,", 0), 0u);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
  const std::string pt = trace.ptrace();
  EXPECT_EQ(pt.substr(0, pt.find('\n')).find(","), std::string::npos);
  EXPECT_NE(pt.find("fetch\ticache\t"), std::string::npos);
}

}  // namespace
}  // namespace simtlm
